// API keys limited to resources and/or to reads (issue 13): out-of-scope calls answer 403 with
// the exact message; keys without scopes keep full access; a limited key hands out no more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signIn } from '../helpers/dashboard-client.js'
import { apiClient, createAccount, createTestApp, type ApiClient, type TestAccount, type TestContext } from '../helpers/test-app.js'

const OUT_OF_SCOPE = { error: 1, code: 'forbidden', message: 'You do not have access to this endpoint with this API key.' }

describe('API key scopes', () => {
  let context: TestContext
  let account: TestAccount
  let full: ApiClient

  beforeAll(async () => {
    context = await createTestApp()
    account = await createAccount(context, { isAdmin: true })
    full = apiClient(context.app, account.apiKey)
  })
  afterAll(() => context.close())

  async function keyWith(body: Record<string, unknown>, client = full): Promise<ApiClient> {
    const created = await client('POST', '/api/key/add', body)
    expect(created.statusCode, created.body).toBe(201)
    return apiClient(context.app, created.data.key)
  }

  it('keeps full access for keys without scopes, administration included', async () => {
    for (const [method, url, body] of [['GET', '/api/urls'], ['POST', '/api/campaign/add', { name: 'Full access' }], ['GET', '/api/users'], ['GET', '/api/keys']] as const) {
      expect((await full(method, url, body)).statusCode).toBeLessThan(300)
    }
  })

  it('limits a read-only links key to reading links', async () => {
    const links = await keyWith({ name: 'reader', scopes: ['links'], readonly: true })
    expect((await links('GET', '/api/urls')).statusCode).toBe(200)
    const created = await full('POST', '/api/url/add', { url: 'https://example.com/scoped' })
    expect((await links('GET', `/api/url/${created.data.id}`)).statusCode).toBe(200)
    expect((await links('GET', `/api/url/${created.data.id}/stats`)).statusCode).toBe(200)
    for (const [method, url, body] of [
      ['POST', '/api/url/add', { url: 'https://example.com' }],
      ['PUT', `/api/url/${created.data.id}/update`, { url: 'https://example.com/changed' }],
      ['DELETE', `/api/url/${created.data.id}/delete`],
      ['GET', '/api/campaigns'],
      ['GET', '/api/account'],
      ['GET', '/api/keys'],
      ['GET', '/api/users'],
      ['GET', '/api/qr'],
    ] as const) {
      const response = await links(method, url, body)
      expect(response.statusCode, `${method} ${url}`).toBe(403)
      expect(response.data).toEqual(OUT_OF_SCOPE)
    }
    // Unknown endpoints stay unknown.
    expect((await links('GET', '/api/nothing-here')).statusCode).toBe(404)
  })

  it('lets a key of several resources write them, and nothing else', async () => {
    const client = await keyWith({ scopes: ['qr', 'campaigns'] })
    expect((await client('POST', '/api/qr/add', { type: 'text', data: 'scoped' })).statusCode).toBe(201)
    const campaign = await client('POST', '/api/campaign/add', { name: 'Scoped campaign' })
    expect(campaign.statusCode).toBe(201)
    expect((await client('GET', `/api/campaign/${campaign.data.id}/stats`)).statusCode).toBe(200)
    expect((await client('POST', '/api/pixel/add', { type: 'gtmpixel', name: 'No', tag: 'GTM-ABC123' })).data).toEqual(OUT_OF_SCOPE)
    expect((await client('GET', '/api/bio')).data).toEqual(OUT_OF_SCOPE)
  })

  it('lists keys with their scopes, and a deleted key stops working', async () => {
    const created = await full('POST', '/api/key/add', { name: 'temporary', scopes: ['bio', 'links'] })
    expect(created.data).toEqual({ error: 0, id: expect.any(Number), name: 'temporary', prefix: created.data.key.slice(0, 8), expires: null, key: expect.stringMatching(/^lw_/), scopes: ['links', 'bio'], readonly: false })
    const listed = await full('GET', '/api/keys')
    expect(listed.data.data).toContainEqual({ id: created.data.id, name: 'temporary', prefix: created.data.key.slice(0, 8), expires: null, created: expect.any(String), lastused: null, scopes: ['links', 'bio'], readonly: false })
    expect(listed.body).not.toContain(created.data.key)
    expect((await full('DELETE', `/api/key/${created.data.id}/delete`)).statusCode).toBe(200)
    expect((await apiClient(context.app, created.data.key)('GET', '/api/urls')).statusCode).toBe(401)
  })

  it('lets a limited key create only keys within its own limits', async () => {
    const manager = await keyWith({ scopes: ['account', 'links'] })
    // Nothing given: the new key inherits the creator's limits.
    const inherited = await manager('POST', '/api/key/add', {})
    expect(inherited.data).toMatchObject({ scopes: ['links', 'account'], readonly: false })
    expect((await manager('POST', '/api/key/add', { scopes: ['links'], readonly: true })).statusCode).toBe(201)
    expect((await manager('POST', '/api/key/add', { scopes: ['links', 'domains'] })).data).toEqual(OUT_OF_SCOPE)
    const readOnly = await keyWith({ scopes: ['account'], readonly: true })
    expect((await readOnly('POST', '/api/key/add', { scopes: ['account'], readonly: true })).data).toEqual(OUT_OF_SCOPE)
  })

  it('refuses unknown resources and bad expiries with a 400 naming the field', async () => {
    const unknown = await full('POST', '/api/key/add', { scopes: ['everything'] })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.data.message).toMatch(/^The field "scopes/)
    expect((await full('POST', '/api/key/add', { scopes: [] })).statusCode).toBe(400)
    expect((await full('POST', '/api/key/add', { expires: '2000-01-01' })).data.message).toBe('The field "expires" must be in the future.')
  })

  it('refuses a password or an e-mail change to every limited key, so that an integration\'s key cannot take over its maker (issue 36, ADR 027)', async () => {
    const owner = await createAccount(context, { isAdmin: true, password: 'the owner password' })
    const ownerKey = apiClient(context.app, owner.apiKey)
    const refused = { error: 1, code: 'forbidden', message: 'A key limited to some resources or to reads cannot change a password or an e-mail address. Use a key without limits, or the dashboard.' }
    const limitedKeys = [
      await keyWith({ name: 'account only', scopes: ['account'] }, ownerKey),
      await keyWith({ name: 'account and links', scopes: ['account', 'links'] }, ownerKey),
      await keyWith({ name: 'reads only', readonly: true }, ownerKey),
    ]
    for (const key of limitedKeys) {
      for (const [url, body] of [
        ['/api/account/update', { password: 'taken over password' }],
        ['/api/account/update', { email: 'attacker@example.com' }],
        ['/api/account/update', { email: 'attacker@example.com', password: 'taken over password' }],
        ['/api/account/password', { current: 'the owner password', password: 'taken over password' }],
      ] as const) {
        const response = await key('PUT', url, body)
        expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBe(403)
        // A read-only key is stopped at the gate, with the scope's message.
        expect(response.data).toEqual(response.data.message === OUT_OF_SCOPE.message ? OUT_OF_SCOPE : refused)
      }
    }
    expect((await signIn(context.app, owner.username, 'taken over password')).statusCode).toBe(401)
    expect((await signIn(context.app, 'attacker@example.com', 'the owner password')).statusCode).toBe(401)
    expect((await signIn(context.app, owner.username, 'the owner password')).statusCode).toBe(200)
    // What else of the account is the account key's stays so: the time zone, its keys (within its limits).
    expect((await limitedKeys[0]!('PUT', '/api/account/update', { timezone: 'Europe/Berlin' })).statusCode).toBe(200)
    expect((await limitedKeys[0]!('POST', '/api/key/add', { name: 'within' })).data).toMatchObject({ scopes: ['account'] })
    // Nor does an account key reach the second factor, sessions or members: those are not the account resource.
    for (const [method, url] of [['POST', '/api/auth/two-factor/setup'], ['POST', '/api/auth/two-factor/disable'], ['GET', '/api/auth/sessions'], ['GET', '/api/members'], ['GET', '/api/users']] as const) {
      expect((await limitedKeys[0]!(method, url, method === 'POST' ? { code: '123456' } : undefined)).data, `${method} ${url}`).toEqual(OUT_OF_SCOPE)
    }
    // A key without limits keeps the spec's contract: it sets the password outright.
    expect((await ownerKey('PUT', '/api/account/update', { password: 'set by a script' })).statusCode).toBe(200)
    expect((await signIn(context.app, owner.username, 'set by a script')).statusCode).toBe(200)
  })

  it('caps the expiry of a key made by a key that expires at the maker\'s: later or never is capped, earlier is kept (issue 36, ADR 027)', async () => {
    const makerExpires = '2031-01-01 00:00:00'
    const maker = await full('POST', '/api/key/add', { name: 'expiring maker', expires: makerExpires })
    expect(maker.data.expires).toBe(makerExpires)
    const expiring = apiClient(context.app, maker.data.key)
    for (const body of [{}, { expires: null }, { expires: '2099-12-31' }, { expires: '2031-01-01 00:00:01' }]) {
      const made = await expiring('POST', '/api/key/add', { name: 'made by it', ...body })
      expect(made.statusCode, JSON.stringify(body)).toBe(201)
      expect(made.data.expires, JSON.stringify(body)).toBe(makerExpires)
      const listed = (await full('GET', '/api/keys')).data.data.find((key: { id: number }) => key.id === made.data.id)
      expect(listed.expires).toBe(makerExpires)
    }
    expect((await expiring('POST', '/api/key/add', { expires: '2030-06-01' })).data.expires).toBe('2030-06-01 00:00:00')
    // A key that never expires still makes keys that never expire.
    expect((await full('POST', '/api/key/add', {})).data.expires).toBeNull()
  })
})
