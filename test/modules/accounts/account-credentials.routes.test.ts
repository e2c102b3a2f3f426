// The dashboard's account page: the password change (with the current password) and the API keys
// (list, create with a name and an expiry, revoke), with a key and with a session.
import { describe, expect, it } from 'vitest'
import { verifyPassword } from '../../../src/core/secrets.js'
import { signedInClient, signIn } from '../../helpers/dashboard-client.js'
import { apiClient, createAccount, useTestApp } from '../../helpers/test-app.js'

const PASSWORD = 'the first password'
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe('password change', () => {
  const { context } = useTestApp()

  // Passwords are the account's person's since migration 020 (teams).
  const storedHash = async (id: number) =>
    (await context.database.db.selectFrom('people').innerJoin('memberships', 'memberships.person_id', 'people.id').select('people.password_hash').where('memberships.account_id', '=', id).executeTakeFirstOrThrow()).password_hash!

  it('changes the password with the current one; the other sessions end, this one stays', async () => {
    const account = await createAccount(context, { password: PASSWORD })
    const here = await signedInClient(context.app, account.username, PASSWORD)
    const elsewhere = await signedInClient(context.app, account.username, PASSWORD)
    const response = await here.client('PUT', '/api/account/password', { current: PASSWORD, password: 'the second password' })
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({ error: 0, message: 'Your password has been changed. Your other sessions have been signed out.' })
    expect(await verifyPassword('the second password', await storedHash(account.id))).toBe(true)
    expect((await here.client('GET', '/api/account')).statusCode).toBe(200)
    expect((await elsewhere.client('GET', '/api/account')).statusCode).toBe(401)
    expect((await signIn(context.app, account.username, PASSWORD)).statusCode).toBe(401)
    expect((await signIn(context.app, account.username, 'the second password')).statusCode).toBe(200)
    // Keys are not sessions: they keep working.
    expect((await apiClient(context.app, account.apiKey)('GET', '/api/account')).statusCode).toBe(200)
  })

  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const account = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, account.username, PASSWORD)
    const before = await storedHash(account.id)
    const response = await client('PUT', '/api/account/password', { current: 'not it at all', password: 'the second password' })
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual({ error: 1, code: 'wrong_password', message: 'The current password is incorrect.', field: 'current' })
    expect(await storedHash(account.id)).toBe(before)
  })

  it.each([
    [{ current: PASSWORD, password: 'short' }, 'The field "password" must be at least 8 characters.'],
    [{ current: PASSWORD }, 'password'],
    [{ password: 'long enough password' }, 'current'],
    [{ current: PASSWORD, password: 'x'.repeat(257) }, 'password'],
  ])('answers %j with 400 naming the field', async (body, words) => {
    const account = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, account.username, PASSWORD)
    const response = await client('PUT', '/api/account/password', body)
    expect(response.statusCode).toBe(400)
    expect(response.data.message).toContain(words)
    expect(await verifyPassword(PASSWORD, await storedHash(account.id))).toBe(true)
  })

  it('works with a key too, and says so when the account has no password yet', async () => {
    const account = await createAccount(context)
    const api = apiClient(context.app, account.apiKey)
    const none = await api('PUT', '/api/account/password', { current: 'anything', password: 'a new password' })
    expect(none.statusCode).toBe(400)
    expect(none.data.code).toBe('wrong_password')
    expect(none.data.message).toContain('no password yet')
    expect((await api('PUT', '/api/account/update', { password: PASSWORD })).statusCode).toBe(200)
    expect((await api('PUT', '/api/account/password', { current: PASSWORD, password: 'a new password' })).statusCode).toBe(200)
  })

  it('refuses a password or an e-mail through PUT /api/account/update on a session (they would skip the current password and the confirmation)', async () => {
    const account = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, account.username, PASSWORD)
    const response = await client('PUT', '/api/account/update', { password: 'taken over password' })
    expect(response.statusCode).toBe(403)
    expect(response.data.message).toContain('PUT /api/account/password')
    expect(await verifyPassword(PASSWORD, await storedHash(account.id))).toBe(true)
    // Issue 38: a session's new address is confirmed by mail (POST /api/account/email); the time zone stays the session's to set.
    const email = await client('PUT', '/api/account/update', { email: `renamed-${account.id}@example.com` })
    expect(email.statusCode).toBe(403)
    expect(email.data).toMatchObject({ error: 1, code: 'forbidden', message: expect.stringContaining('POST /api/account/email') })
    expect((await client('PUT', '/api/account/update', { timezone: 'Europe/Berlin' })).statusCode).toBe(200)
  })

  it('ends every session when a key sets the password through PUT /api/account/update', async () => {
    const account = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, account.username, PASSWORD)
    expect((await apiClient(context.app, account.apiKey)('PUT', '/api/account/update', { password: 'set by a script' })).statusCode).toBe(200)
    expect((await client('GET', '/api/account')).statusCode).toBe(401)
  })
})

describe('API keys of the account', () => {
  const { context } = useTestApp()

  it('lists keys with name, prefix, created, last used and expiry, never the key', async () => {
    const account = await createAccount(context)
    const api = apiClient(context.app, account.apiKey)
    const response = await api('GET', '/api/keys')
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({
      error: 0,
      data: [{ id: expect.any(Number), name: 'default', prefix: account.apiKey.slice(0, 8), created: expect.stringMatching(TIMESTAMP), lastused: expect.stringMatching(TIMESTAMP), expires: null, scopes: null, readonly: false }],
    })
    expect(response.body).not.toContain(account.apiKey)
    expect(response.body).not.toMatch(/[0-9a-f]{64}/)
  })

  it('creates a key with a name and an expiry, shown once; it works, and its use is recorded', async () => {
    const account = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, account.username, PASSWORD)
    const created = await client('POST', '/api/key/add', { name: '  deploy bot ', expires: '2099-12-31' })
    expect(created.statusCode).toBe(201)
    expect(created.data).toEqual({ error: 0, id: expect.any(Number), name: 'deploy bot', prefix: created.data.key.slice(0, 8), expires: '2099-12-31 00:00:00', key: expect.stringMatching(/^lw_[A-Za-z0-9_-]{43}$/), scopes: null, readonly: false })

    const before = (await client('GET', '/api/keys')).data.data
    expect(before.find((key: { id: number }) => key.id === created.data.id)).toMatchObject({ name: 'deploy bot', lastused: null, expires: '2099-12-31 00:00:00' })
    expect(JSON.stringify(before)).not.toContain(created.data.key)

    expect((await apiClient(context.app, created.data.key)('GET', '/api/account')).data.data.id).toBe(account.id)
    const after = (await client('GET', '/api/keys')).data.data
    expect(after.find((key: { id: number }) => key.id === created.data.id).lastused).toMatch(TIMESTAMP)

    const forever = await client('POST', '/api/key/add', { name: 'forever', expires: null })
    expect(forever.data.expires).toBeNull()
    expect((await client('POST', '/api/key/add', { name: 'also forever' })).data.expires).toBeNull()
    // Without a name the key is called "key"; read-only keys say so in the list.
    const reader = await client('POST', '/api/key/add', { readonly: true })
    expect(reader.data).toMatchObject({ name: 'key', readonly: true, scopes: null })
    expect((await client('GET', '/api/keys')).data.data.find((key: { id: number }) => key.id === reader.data.id)).toMatchObject({ name: 'key', readonly: true, lastused: null })
    // An empty or blank name, or null scopes, are left out (ADR 013).
    expect((await client('POST', '/api/key/add', { name: '   ', scopes: null, readonly: null })).data).toMatchObject({ name: 'key', readonly: false, scopes: null })
  })

  it('writes last use at most once a minute per key', async () => {
    const account = await createAccount(context)
    const api = apiClient(context.app, account.apiKey)
    await api('GET', '/api/account')
    const stamp = '2000-01-01 00:00:00'
    // An hour-old stamp is renewed; a fresh one is left alone.
    await context.database.db.updateTable('api_keys').set({ last_used_at: stamp }).where('account_id', '=', account.id).execute()
    await api('GET', '/api/account')
    const renewed = (await api('GET', '/api/keys')).data.data[0].lastused
    expect(renewed).not.toBe(stamp)
    const fresh = renewed
    await api('GET', '/api/account')
    expect((await api('GET', '/api/keys')).data.data[0].lastused).toBe(fresh)
  })

  it.each([
    [{ name: 5 }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'ok', expires: 'tomorrow' }, 'expires'],
    [{ name: 'ok', expires: '2099-02-30' }, 'expires'],
    [{ name: 'ok', expires: '2001-01-01 00:00:00' }, 'expires'],
    [{ name: ['key'] }, 'name'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const account = await createAccount(context)
    const response = await apiClient(context.app, account.apiKey)('POST', '/api/key/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, message: expect.stringContaining(field) })
    expect((await context.services.apiKeys.listKeys(account.id))).toHaveLength(1)
  })

  it('revokes a key at once; another account\'s key is not found', async () => {
    const account = await createAccount(context, { password: PASSWORD })
    const other = await createAccount(context)
    const { client } = await signedInClient(context.app, account.username, PASSWORD)
    const created = await client('POST', '/api/key/add', { name: 'short-lived' })
    const otherKeyId = (await context.services.apiKeys.listKeys(other.id))[0]!.id

    const notYours = await client('DELETE', `/api/key/${otherKeyId}/delete`)
    expect(notYours.statusCode).toBe(404)
    expect(notYours.data).toEqual({ error: 1, code: 'not_found', message: 'API key not found. Please try again.' })
    expect((await apiClient(context.app, other.apiKey)('GET', '/api/account')).statusCode).toBe(200)

    expect((await client('DELETE', `/api/key/${created.data.id}/delete`, undefined, { origin: 'https://evil.test' })).statusCode).toBe(403)
    const revoked = await client('DELETE', `/api/key/${created.data.id}/delete`)
    expect(revoked.statusCode).toBe(200)
    expect(revoked.data).toEqual({ error: 0, message: 'API key has been deleted.' })
    expect((await apiClient(context.app, created.data.key)('GET', '/api/account')).statusCode).toBe(401)
    expect((await client('DELETE', `/api/key/${created.data.id}/delete`)).statusCode).toBe(404)
    expect((await client('DELETE', '/api/key/abc/delete')).statusCode).toBe(400)
  })

  it('describes every new endpoint in the OpenAPI document, signing in without a credential', async () => {
    const document = (await context.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    for (const [path, method] of [
      ['/api/auth/login', 'post'], ['/api/auth/logout', 'post'], ['/api/auth/sessions', 'get'], ['/api/auth/session/{id}/delete', 'delete'],
      ['/api/account/password', 'put'], ['/api/keys', 'get'], ['/api/key/add', 'post'], ['/api/key/{id}/delete', 'delete'], ['/api/account/limits', 'get'],
    ] as const) {
      const operation = document.paths[path]?.[method]
      expect(operation, `${method} ${path}`).toBeDefined()
      expect(Object.keys(operation.responses)).toContain(method === 'post' && path.endsWith('/add') ? '201' : '200')
    }
    expect(document.paths['/api/auth/login'].post.security).toEqual([])
    expect(document.components.securitySchemes.session).toEqual({ type: 'apiKey', in: 'cookie', name: '__Host-linkwell_session' })
  })
})
