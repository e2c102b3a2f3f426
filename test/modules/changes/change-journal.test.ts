// The change journal: a change and its audit row land together or not at all, and the row says who
// (key, session, command line), what (action, resource, id, field names) and from where.
import { afterEach, describe, expect, it } from 'vitest'
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'
import { signedInClient } from '../../helpers/dashboard-client.js'
import { createAccount } from '../../helpers/factories.js'
import { useTestApp } from '../../helpers/test-app.js'

const PASSWORD = 'correct horse battery'

describe('the change journal', () => {
  const { context, owner, api } = useTestApp()
  const listeners: Array<() => void> = []
  afterEach(() => listeners.splice(0).forEach((stop) => stop()))

  async function auditRows(accountId: number, resource?: string) {
    let query = context.database.db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId)
    if (resource) query = query.where('resource', '=', resource)
    const rows = await query.orderBy('id').execute()
    return rows.map((row) => ({ ...row, fields: JSON.parse(row.fields) as string[] }))
  }

  it('records a change made with a key: action, resource, id, field names, the key and the address', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://journal.example/a', custom: 'journal-a', metatitle: 'A' })
    expect(created.statusCode).toBe(201)
    // The key acts as the person who made it (the account's owner): both are recorded.
    const { keyId, personId } = await context.services.apiKeys.authenticate(owner.apiKey)
    expect(personId).toEqual(expect.any(Number))
    const [row] = (await auditRows(owner.id, 'link')).filter((entry) => entry.resource_id === created.data.id)
    expect(row).toMatchObject({ action: 'link.created', resource: 'link', resource_id: created.data.id, via: 'api', key_id: keyId, person_id: personId, address: '127.0.0.1' })
    expect(row!.fields.sort()).toEqual(['custom', 'metatitle', 'url'])
    expect(row!.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

    await api('PUT', `/api/url/${created.data.id}/update`, { url: 'https://journal.example/b' })
    await api('DELETE', `/api/url/${created.data.id}/delete`)
    const actions = (await auditRows(owner.id, 'link')).filter((entry) => entry.resource_id === created.data.id).map((entry) => [entry.action, entry.fields])
    expect(actions).toEqual([['link.created', expect.any(Array)], ['link.updated', ['url']], ['link.deleted', []]])
  })

  it('records a change made in the dashboard as the session\'s, without a key', async () => {
    const person = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, person.username, PASSWORD)
    const created = await client('POST', '/api/campaign/add', { name: 'From the dashboard' })
    expect(created.statusCode).toBe(201)
    const { personId } = await context.services.apiKeys.authenticate(person.apiKey)
    expect(await auditRows(person.id, 'campaign')).toEqual([expect.objectContaining({ action: 'campaign.created', via: 'dashboard', key_id: null, person_id: personId, resource_id: created.data.id, fields: ['name'] })])
  })

  it('records nothing for a refused change, and nothing of a change a later step rolls back', async () => {
    const before = (await auditRows(owner.id)).length
    expect((await api('POST', '/api/campaign/add', { name: 'x' })).statusCode).toBe(400)
    expect((await auditRows(owner.id)).length).toBe(before)

    // A listener that fails inside the change's transaction takes the change and its row with it.
    listeners.push(context.services.journal.listen(async (_trx, _actor, changes) => {
      if (changes.some((change) => change.action === 'channel.created')) throw new Error('listener failed')
    }))
    const refused = await api('POST', '/api/channel/add', { name: 'Rolled back' })
    expect(refused.statusCode).toBe(500)
    const channels = await context.database.db.selectFrom('channels').select('id').where('account_id', '=', owner.id).where('name', '=', 'Rolled back').execute()
    expect(channels).toEqual([])
    expect((await auditRows(owner.id)).length).toBe(before)
  })

  it('hands listeners the actor and the changes with their records, in the change\'s transaction', async () => {
    const seen: unknown[] = []
    listeners.push(context.services.journal.listen(async (trx, actor, changes) => {
      // The row is visible to the transaction it was written in.
      const stored = await trx.selectFrom('pixels').select('name').where('id', '=', changes[0]!.resourceId!).executeTakeFirst()
      seen.push({ actor: actor.id, via: actor.via, changes: changes.map(({ action, record }) => ({ action, record })), stored })
    }))
    const created = await api('POST', '/api/pixel/add', { type: 'gtmpixel', name: 'Journal pixel', tag: 'GTM-JRNL123' })
    expect(seen.at(-1)).toEqual({
      actor: owner.id,
      via: 'api',
      changes: [{ action: 'pixel.created', record: { id: created.data.id, type: 'gtmpixel', name: 'Journal pixel', tag: 'GTM-JRNL123', date: expect.any(String) } }],
      stored: { name: 'Journal pixel' },
    })
  })

  it('records what the command line changes, and an administrator\'s changes to other accounts in the administrator\'s log', async () => {
    const target = await createAccount(context)
    await context.services.accounts.setSuspended(commandLineActor(owner.id), target.id, true)
    expect((await auditRows(owner.id, 'user')).at(-1)).toMatchObject({ action: 'user.suspended', resource_id: target.id, via: 'cli', key_id: null, address: null })
    expect(await auditRows(target.id, 'user')).toEqual([])
  })

  it('records the first start\'s account as created by the system, in its own log', async () => {
    const created = await context.services.accounts.createAccount({ email: 'system-made@example.com', username: 'system_made' })
    expect(await auditRows(created.id)).toEqual([expect.objectContaining({ action: 'account.created', resource: 'account', resource_id: created.id, via: 'system' })])
  })
})
