// GET /api/audit: the account's changes, newest first, as the journal recorded them, filtered by who,
// what and when; another account's entries never show; bad filters answer 400 naming the parameter.
// `audit prune` keeps the log to its retention.
import { describe, expect, it } from 'vitest'
import { signedInClient } from '../../helpers/dashboard-client.js'
import { createAccount } from '../../helpers/factories.js'
import { apiClient, useTestApp } from '../../helpers/test-app.js'
import { nowTimestamp } from '../../../src/core/time.js'

const PASSWORD = 'correct horse battery'

describe('GET /api/audit', () => {
  const { context, owner, api, otherApi } = useTestApp()

  async function entries(query = '', client = api) {
    const answer = await client('GET', `/api/audit${query}`)
    expect(answer.statusCode, answer.body).toBe(200)
    return answer.data.data as { result: number; entries: Array<Record<string, any>> }
  }

  /** Moves the account's entries of `resource` to `at` (the journal writes "now"). */
  async function backdate(accountId: number, resource: string, at: string) {
    await context.database.db.updateTable('audit_log').set({ created_at: at }).where('account_id', '=', accountId).where('resource', '=', resource).execute()
  }

  it('answers each change with who, what, when and from where, newest first, in the list envelope', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://audit.example/a', custom: 'audit-a' })
    await api('PUT', `/api/url/${created.data.id}/update`, { url: 'https://audit.example/b', metatitle: 'B' })
    // With teams (ADR 016) a key acts as the person who made it: the entry names both.
    const { keyId, personId } = await context.services.apiKeys.authenticate(owner.apiKey)

    const answer = await api('GET', '/api/audit?resource=link')
    expect(answer.data).toMatchObject({ error: '0', data: { result: 2, perpage: 15, currentpage: 1, nextpage: null, maxpage: 1 } })
    const [updated, made] = answer.data.data.entries
    expect(updated).toEqual({
      id: expect.any(Number), date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), via: 'api', person: personId,
      key: { id: keyId, name: expect.any(String) }, address: '127.0.0.1',
      action: 'link.updated', resource: 'link', resourceId: created.data.id, fields: ['url', 'metatitle'],
    })
    expect(made).toMatchObject({ action: 'link.created', resourceId: created.data.id })
    expect(updated.id).toBeGreaterThan(made.id)
  })

  it('filters by the key, by the way in, by the resource and by time; pages like every list', async () => {
    const person = await createAccount(context, { password: PASSWORD })
    const key = apiClient(context.app, person.apiKey)
    const { client: dashboard } = await signedInClient(context.app, person.username, PASSWORD)
    const second = await key('POST', '/api/key/add', { name: 'Second key' })
    const secondKey = apiClient(context.app, second.data.key)
    await key('POST', '/api/campaign/add', { name: 'By the first key' })
    await secondKey('POST', '/api/channel/add', { name: 'By the second key' })
    await dashboard('POST', '/api/pixel/add', { type: 'gtmpixel', name: 'From the dashboard', tag: 'GTM-AB12CD' })
    const keyId = (await context.services.apiKeys.authenticate(person.apiKey)).keyId!

    const all = await entries('', key)
    expect(all.entries.map((entry) => entry.action)).toEqual(['pixel.created', 'channel.created', 'campaign.created', 'key.created', 'account.created'])

    expect((await entries(`?actor=key:${keyId}`, key)).entries.map((entry) => entry.action)).toEqual(['campaign.created', 'key.created'])
    expect((await entries(`?actor=key:${second.data.id}`, key)).entries).toEqual([expect.objectContaining({ action: 'channel.created', key: { id: second.data.id, name: 'Second key' } })])
    expect((await entries('?actor=dashboard', key)).entries).toEqual([expect.objectContaining({ action: 'pixel.created', via: 'dashboard', key: null })])
    expect((await entries('?actor=cli', key)).entries).toEqual([])
    // The account itself was made by the test's factory, as the server's first start makes one.
    expect((await entries('?actor=system', key)).entries).toEqual([expect.objectContaining({ action: 'account.created', via: 'system', key: null, address: null })])
    expect((await entries('?resource=channel', key)).entries.map((entry) => entry.action)).toEqual(['channel.created'])

    await backdate(person.id, 'campaign', '2026-01-10 12:00:00')
    await backdate(person.id, 'key', '2026-01-11 00:00:00')
    expect((await entries('?from=2026-01-10&to=2026-01-10', key)).entries.map((entry) => entry.action)).toEqual(['campaign.created'])
    expect((await entries('?from=2026-01-10 12:00:01&to=2026-01-11', key)).entries.map((entry) => entry.action)).toEqual(['key.created'])
    // Newest written first (the backdated times are out of that order on purpose).
    expect((await entries('?to=2026-01-11 00:00:00', key)).entries.map((entry) => entry.action)).toEqual(['campaign.created', 'key.created'])

    const page = await key('GET', '/api/audit?limit=3&page=2')
    expect(page.data.data).toMatchObject({ result: 5, perpage: 3, currentpage: 2, nextpage: null, maxpage: 2 })
    expect(page.data.data.entries.map((entry: { action: string }) => entry.action)).toEqual(['key.created', 'account.created'])

    // A deleted key's entries stay, without its name.
    await key('DELETE', `/api/key/${second.data.id}/delete`)
    expect((await entries(`?actor=key:${second.data.id}`, key)).entries).toEqual([expect.objectContaining({ key: { id: second.data.id, name: null } })])
  })

  it('never shows another account\'s entries', async () => {
    await otherApi('POST', '/api/campaign/add', { name: 'Someone else\'s' })
    const mine = await entries('?resource=campaign')
    expect(mine.entries.some((entry) => entry.fields.includes('name') && entry.resource === 'campaign')).toBe(false)
    expect((await entries('?resource=campaign', otherApi)).entries).toHaveLength(1)
  })

  it.each([
    ['?actor=someone', 'actor'],
    ['?actor=key:0', 'actor'],
    ['?actor=key:x', 'actor'],
    ['?resource=Link%20s', 'resource'],
    ['?from=yesterday', 'from'],
    ['?from=2026-02-30', 'from'],
    ['?to=2026-13-01 00:00:00', 'to'],
    ['?from=2026-03-02&to=2026-03-01', 'to'],
    ['?limit=0', 'limit'],
  ])('refuses %s naming %s', async (query, field) => {
    const answer = await api('GET', `/api/audit${query}`)
    expect(answer.statusCode).toBe(400)
    expect(answer.data).toMatchObject({ error: 1, code: 'validation_failed', field })
    expect(answer.data.message).toContain(`"${field}"`)
  })

  it('is refused to a key limited to other resources, and answered to a read-only key', async () => {
    const links = await api('POST', '/api/key/add', { name: 'Links only', scopes: ['links'] })
    expect((await apiClient(context.app, links.data.key)('GET', '/api/audit')).statusCode).toBe(403)
    const reader = await api('POST', '/api/key/add', { name: 'Reader', readonly: true })
    expect((await apiClient(context.app, reader.data.key)('GET', '/api/audit')).statusCode).toBe(200)
  })
})

describe('pruning the audit log', () => {
  const { context, owner, api } = useTestApp()

  it('deletes entries older than the retention, every account\'s, and keeps the rest', async () => {
    await api('POST', '/api/campaign/add', { name: 'Old' })
    await api('POST', '/api/channel/add', { name: 'Recent' })
    const old = nowTimestamp(new Date(Date.now() - 40 * 86_400_000))
    await context.database.db.updateTable('audit_log').set({ created_at: old }).where('account_id', '=', owner.id).where('resource', '=', 'campaign').execute()

    const pruned = await context.services.audit.prune(30)
    expect(pruned.deleted).toBe(1)
    expect(pruned.before > old).toBe(true)
    const left = await api('GET', '/api/audit')
    expect(left.data.data.entries.map((entry: { action: string }) => entry.action)).toEqual(['channel.created', 'account.created'])
    expect((await context.services.audit.prune(30)).deleted).toBe(0)
  })
})
