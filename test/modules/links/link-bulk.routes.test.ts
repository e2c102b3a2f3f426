import { describe, expect, it } from 'vitest'
import { apiClient, createAccount, PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'

describe('POST /api/urls/bulk', () => {
  const { context, api, otherApi } = useTestApp()

  it('creates the good rows and answers every row in order with its own envelope', async () => {
    await otherApi('POST', '/api/url/add', { url: 'https://example.com/held', custom: 'held-elsewhere' })
    const response = await api('POST', '/api/urls/bulk', {
      urls: [
        { url: 'https://example.com/one', custom: 'bulk-one', metatitle: 'One' },
        { url: 'javascript:alert(1)' },
        { url: 'https://example.com/two' },
        { url: 'https://example.com/three', custom: 'held-elsewhere' },
        { url: 'https://example.com/four', custom: 'bulk-one' },
        { url: 'https://example.com/five', expiry: '2001-01-01' },
        { url: 'https://example.com/six', campaign: 999999 },
      ],
    })
    expect(response.statusCode).toBe(200)
    const results = response.data.results
    expect(response.data.created).toBe(2)
    expect(results).toHaveLength(7)
    expect(results[0]).toEqual({ error: 0, id: expect.any(Number), shorturl: `${PUBLIC_URL}/bulk-one` })
    expect(results[1]).toMatchObject({ error: 1, code: 'validation_failed', field: 'url' })
    expect(results[2]).toEqual({ error: 0, id: expect.any(Number), shorturl: expect.stringMatching(/^https:\/\/lw\.test\/\w{6}$/) })
    expect(results[3]).toMatchObject({ error: 1, code: 'duplicate', field: 'custom' })
    expect(results[4]).toMatchObject({ error: 1, code: 'duplicate', field: 'custom' })
    expect(results[5]).toMatchObject({ error: 1, code: 'validation_failed', field: 'expiry' })
    expect(results[6]).toMatchObject({ error: 1, code: 'not_found' })

    const read = await api('GET', `/api/url/${results[0].id}`)
    expect(read.data.details).toMatchObject({ alias: 'bulk-one', longurl: 'https://example.com/one', title: 'One' })
    // Each created link has its audit row, like one made with POST /api/url/add.
    const audit = await context.database.db.selectFrom('audit_log').select('resource_id').where('action', '=', 'link.created').where('resource_id', 'in', [results[0].id, results[2].id]).execute()
    expect(audit).toHaveLength(2)
  })

  it('refuses an empty list, more than 1,000 rows and a body without a list, in the envelope', async () => {
    for (const body of [{ urls: [] }, { urls: Array.from({ length: 1001 }, (_, index) => ({ url: `https://example.com/${index}` })) }, {}]) {
      const response = await api('POST', '/api/urls/bulk', body)
      expect(response.statusCode).toBe(400)
      expect(response.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'urls' })
    }
  })

  it('writes 1,000 rows in one request', async () => {
    const response = await api('POST', '/api/urls/bulk', { urls: Array.from({ length: 1000 }, (_, index) => ({ url: `https://example.com/many/${index}` })) })
    expect(response.statusCode).toBe(200)
    expect(response.data.created).toBe(1000)
    expect(new Set(response.data.results.map((row: { shorturl: string }) => row.shorturl)).size).toBe(1000)
  })

  it('counts the plan limit over the whole request: none created when they do not all fit', async () => {
    const db = context.database.db
    const plan = await db.insertInto('plans').values({ name: 'Three links', code: 'three-bulk', apirate: null, limits: '{"links":3}', is_default: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()
    const account = await createAccount(context, { plan: plan.id })
    const limited = apiClient(context.app, account.apiKey)
    expect((await limited('POST', '/api/url/add', { url: 'https://one.example' })).statusCode).toBe(201)
    const refused = await limited('POST', '/api/urls/bulk', { urls: [{ url: 'https://two.example' }, { url: 'https://three.example' }, { url: 'https://four.example' }] })
    expect(refused.statusCode).toBe(403)
    expect(refused.data).toMatchObject({ error: 1, code: 'plan_limit_reached' })
    expect(await db.selectFrom('links').select('id').where('account_id', '=', account.id).execute()).toHaveLength(1)
    const fits = await limited('POST', '/api/urls/bulk', { urls: [{ url: 'https://two.example' }, { url: 'bad' }, { url: 'https://three.example' }] })
    expect(fits.statusCode).toBe(200)
    expect(fits.data.created).toBe(2)
  })
})
