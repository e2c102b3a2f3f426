// Signing in to the dashboard (issue 10): the session cookie, the gate accepting it, the CSRF rule
// for its unsafe requests, listing and revoking sessions, signing out, expiry.
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashApiKey } from '../../../src/core/secrets.js'
import { DASHBOARD_HEADERS, dashboardClient, sessionCookieOf, signedInClient, signIn } from '../../helpers/dashboard-client.js'
import { apiClient, createAccount, createTestApp, PUBLIC_URL, useTestApp, type TestAccount, type TestContext } from '../../helpers/test-app.js'


const PASSWORD = 'correct horse battery'
const WRONG_CREDENTIALS = { error: 1, code: 'invalid_credentials', message: 'The username, e-mail address or password is incorrect.' }
const SESSION_ENDED = { error: 1, code: 'invalid_session', message: 'Your session has ended. Please sign in again.' }

describe('dashboard sign-in', () => {
  const { context } = useTestApp()
  // The session's owner needs a password, which useTestApp's accounts have not.
  let owner: TestAccount
  beforeAll(async () => {
    owner = await createAccount(context, { password: PASSWORD })
  })

  const storedSessions = (accountId: number) =>
    context.database.db.selectFrom('sessions').selectAll().where('account_id', '=', accountId).execute()

  it('signs in with the username and answers the account, setting a Secure HttpOnly SameSite=Lax cookie on an https PUBLIC_URL', async () => {
    const response = await signIn(context.app, owner.username, PASSWORD)
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({ error: 0, data: expect.objectContaining({ id: owner.id, username: owner.username, email: owner.email }) })
    const header = String(response.headers['set-cookie'])
    expect(header).toMatch(/^__Host-linkwell_session=[A-Za-z0-9_-]{43}; /)
    expect(header).toContain('HttpOnly')
    expect(header).toContain('SameSite=Lax')
    expect(header).toContain('Path=/')
    expect(header).toContain('Secure')
    expect(header).toContain(`Max-Age=${14 * 86_400}`)
    expect(response.body).not.toContain('scrypt')

    // The cookie alone now reaches the API, and the table holds only the token's hash.
    const cookie = sessionCookieOf(response)!
    const account = await dashboardClient(context.app, cookie)('GET', '/api/account')
    expect(account.statusCode).toBe(200)
    expect(account.data.data.id).toBe(owner.id)
    const token = cookie.split('=')[1]!
    const rows = await storedSessions(owner.id)
    expect(rows.map((row) => row.id)).toContain(hashApiKey(token))
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  it('signs in with the e-mail address in any case, and keeps the browser and address with the session', async () => {
    const response = await signIn(context.app, `  ${owner.email.toUpperCase()} `, PASSWORD, { 'user-agent': `Agent ${'x'.repeat(400)}` })
    expect(response.statusCode).toBe(200)
    const id = hashApiKey(sessionCookieOf(response)!.split('=')[1]!)
    const row = (await storedSessions(owner.id)).find((session) => session.id === id)!
    expect(row.user_agent).toHaveLength(200)
    expect(row.ip).toBe('127.0.0.1')
    // SESSION_DAYS (14 by default) from sign-in.
    expect(Date.parse(`${row.expires_at}Z`) - Date.parse(`${row.created_at}Z`)).toBe(14 * 86_400_000)
  })

  it.each([
    ['a wrong password', () => owner.username, 'not the password'],
    ['an unknown username', () => 'nobody-by-this-name', PASSWORD],
    ['an unknown e-mail address', () => 'nobody@example.com', PASSWORD],
  ])('refuses %s with 401 and the same words, setting no cookie', async (_case, login, password) => {
    const response = await signIn(context.app, login(), password)
    expect(response.statusCode).toBe(401)
    expect(response.data).toEqual(WRONG_CREDENTIALS)
    expect(response.headers['set-cookie']).toBeUndefined()
  })

  it('refuses an account that has no password yet, and a suspended account with 403', async () => {
    const keyOnly = await createAccount(context)
    expect((await signIn(context.app, keyOnly.username, 'anything at all')).data).toEqual(WRONG_CREDENTIALS)
    const suspended = await createAccount(context, { password: PASSWORD })
    await context.services.accounts.setSuspended(commandLineActor(suspended.id), suspended.id, true)
    const response = await signIn(context.app, suspended.username, PASSWORD)
    expect(response.statusCode).toBe(403)
    expect(response.data.code).toBe('forbidden')
  })

  it.each([
    [{ login: 'x' }, 'password'],
    [{ password: 'x' }, 'login'],
    [{ login: '', password: 'x' }, 'login'],
    [{ login: 'x', password: 'p'.repeat(257) }, 'password'],
    [{ login: 42, password: 'x' }, 'login'],
  ])('answers a malformed sign-in body %j with 400 naming %s', async (body, field) => {
    const response = await context.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json', ...DASHBOARD_HEADERS }, payload: JSON.stringify(body) })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ error: 1, code: 'validation_failed', message: expect.stringContaining(field) })
  })

  it.each([
    ['without the X-Linkwell-CSRF header', { 'x-linkwell-csrf': '' }],
    ['from another origin', { origin: 'https://evil.test' }],
    ['from the same host over http', { origin: 'http://lw.test' }],
    ['from an opaque origin', { origin: 'null', referer: `${PUBLIC_URL}/app/` }],
  ])('refuses signing in %s with 403 (no session is opened)', async (_case, headers) => {
    const before = (await storedSessions(owner.id)).length
    const response = await signIn(context.app, owner.username, PASSWORD, headers)
    expect(response.statusCode).toBe(403)
    expect(response.data).toMatchObject({ error: 1, code: 'csrf_failed' })
    expect(response.headers['set-cookie']).toBeUndefined()
    expect(await storedSessions(owner.id)).toHaveLength(before)
  })

  it('accepts the Referer when the browser sent no Origin', async () => {
    const response = await signIn(context.app, owner.username, PASSWORD, { origin: '', referer: `${PUBLIC_URL}/app/sign-in?next=%2F` })
    expect(response.statusCode).toBe(200)
  })

  describe('requests made with the session', () => {
    it('needs the dashboard origin and header for every unsafe method, never for reads; nothing is done when refused', async () => {
      const { client } = await signedInClient(context.app, owner.username, PASSWORD)
      expect((await client('GET', '/api/campaigns', undefined, { origin: 'https://evil.test', 'x-linkwell-csrf': '' })).statusCode).toBe(200)

      const forged = await client('POST', '/api/campaign/add', { name: 'Forged campaign' }, { origin: 'https://evil.test' })
      expect(forged.statusCode).toBe(403)
      expect(forged.data).toEqual({ error: 1, code: 'csrf_failed', message: `Requests signed in with a session must come from ${PUBLIC_URL} and carry the header X-Linkwell-CSRF: 1.` })
      expect((await client('POST', '/api/campaign/add', { name: 'No header' }, { 'x-linkwell-csrf': '' })).statusCode).toBe(403)
      expect((await client('POST', '/api/campaign/add', { name: 'No origin' }, { origin: '' })).statusCode).toBe(403)
      expect((await client('DELETE', '/api/campaign/1/delete', undefined, { 'x-linkwell-csrf': 'yes' })).statusCode).toBe(403)
      const campaigns = await context.database.db.selectFrom('campaigns').select('name').where('account_id', '=', owner.id).execute()
      expect(campaigns).toEqual([])

      const made = await client('POST', '/api/campaign/add', { name: 'From the dashboard' })
      expect(made.statusCode).toBe(201)
    })

    it('prefers an Authorization header to the cookie: keys need no CSRF header', async () => {
      const { cookie } = await signedInClient(context.app, owner.username, PASSWORD)
      const response = await apiClient(context.app, owner.apiKey)('POST', '/api/channel/add', { name: 'Scripted channel' }, { cookie })
      expect(response.statusCode).toBe(201)
      const wrongKey = await apiClient(context.app, 'lw_not-a-real-key-at-all-not-a-real-key-at-all')('GET', '/api/account', undefined, { cookie })
      expect(wrongKey.statusCode).toBe(401)
      expect(wrongKey.data.code).toBe('invalid_api_key')
    })

    it('counts a session in its own rate-limit bucket, at least 120 a minute', async () => {
      const { client } = await signedInClient(context.app, owner.username, PASSWORD)
      const response = await client('GET', '/api/account')
      expect(Number(response.headers['x-ratelimit-limit'])).toBeGreaterThanOrEqual(120)
    })

    it('answers an unknown or malformed cookie with 401 and tells the browser to forget it', async () => {
      for (const cookie of ['__Host-linkwell_session=not-a-session', `__Host-linkwell_session=${'a'.repeat(500)}`]) {
        const response = await dashboardClient(context.app, cookie)('GET', '/api/account')
        expect(response.statusCode).toBe(401)
        expect(response.data).toEqual(SESSION_ENDED)
        expect(String(response.headers['set-cookie'])).toMatch(/^__Host-linkwell_session=; Max-Age=0;/)
      }
    })

    it('ends at its expiry', async () => {
      const { client, cookie } = await signedInClient(context.app, owner.username, PASSWORD)
      await context.database.db.updateTable('sessions').set({ expires_at: '2001-01-01 00:00:00' }).where('id', '=', hashApiKey(cookie.split('=')[1]!)).execute()
      const response = await client('GET', '/api/account')
      expect(response.statusCode).toBe(401)
      expect(response.data).toEqual(SESSION_ENDED)
    })

    it('signs in again past an old cookie', async () => {
      const response = await signIn(context.app, owner.username, PASSWORD, { cookie: '__Host-linkwell_session=long-gone' })
      expect(response.statusCode).toBe(200)
    })
  })

  describe('the session probe, GET /api/auth/session', () => {
    const probe = (headers: Record<string, string> = {}) => apiClient(context.app, null)('GET', '/api/auth/session', undefined, headers)

    it('answers 200 with no account, and sets no cookie, for a browser that never signed in', async () => {
      const response = await probe()
      expect(response.statusCode).toBe(200)
      expect(response.data).toEqual({ error: 0, data: null })
      expect(response.headers['set-cookie']).toBeUndefined()
    })

    it('answers the signed-in account for a live session, as GET /api/account does', async () => {
      const { client } = await signedInClient(context.app, owner.username, PASSWORD)
      const response = await client('GET', '/api/auth/session')
      expect(response.statusCode).toBe(200)
      expect(response.data).toEqual({ error: 0, data: (await client('GET', '/api/account')).data.data })
      expect(response.data.data).toMatchObject({ id: owner.id, username: owner.username })
    })

    it('answers 200 with no account for an unknown, malformed or ended session, and tells the browser to forget it', async () => {
      const { cookie } = await signedInClient(context.app, owner.username, PASSWORD)
      await context.database.db.updateTable('sessions').set({ expires_at: '2001-01-01 00:00:00' }).where('id', '=', hashApiKey(cookie.split('=')[1]!)).execute()
      for (const sent of [cookie, '__Host-linkwell_session=not-a-session', `__Host-linkwell_session=${'a'.repeat(500)}`]) {
        const response = await probe({ cookie: sent })
        expect(response.statusCode, sent).toBe(200)
        expect(response.data).toEqual({ error: 0, data: null })
        expect(String(response.headers['set-cookie'])).toMatch(/^__Host-linkwell_session=; Max-Age=0;/)
      }
    })

    it('checks an Authorization header as everywhere: the key\'s account, a bad key refused', async () => {
      const keyed = await apiClient(context.app, owner.apiKey)('GET', '/api/auth/session')
      expect(keyed.statusCode).toBe(200)
      expect(keyed.data.data).toMatchObject({ id: owner.id })
      const wrongKey = await apiClient(context.app, 'lw_not-a-real-key-at-all-not-a-real-key-at-all')('GET', '/api/auth/session')
      expect(wrongKey.statusCode).toBe(401)
      expect(wrongKey.data.code).toBe('invalid_api_key')
    })

    it('lets nothing else through without a credential: the same cookie on another endpoint is a 401', async () => {
      expect((await apiClient(context.app, null)('GET', '/api/account')).statusCode).toBe(401)
      expect((await probe({ cookie: '__Host-linkwell_session=not-a-session' })).statusCode).toBe(200)
      expect((await dashboardClient(context.app, '__Host-linkwell_session=not-a-session')('GET', '/api/auth/sessions')).statusCode).toBe(401)
    })
  })

  describe('sessions list, revoke and sign out', () => {
    it('lists the live sessions with the current one marked, never the token', async () => {
      const account = await createAccount(context, { password: PASSWORD })
      const first = await signedInClient(context.app, account.username, PASSWORD)
      const second = await signedInClient(context.app, account.username, PASSWORD)
      const response = await second.client('GET', '/api/auth/sessions')
      expect(response.statusCode).toBe(200)
      const sessions = response.data.data.sessions
      expect(sessions).toHaveLength(2)
      expect(sessions.filter((session: { current: boolean }) => session.current)).toHaveLength(1)
      const current = sessions.find((session: { current: boolean }) => session.current)
      expect(current).toEqual({
        id: hashApiKey(second.cookie.split('=')[1]!),
        created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        lastseen: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        expires: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        useragent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0',
        ip: '127.0.0.1',
        current: true,
      })
      expect(response.body).not.toContain(first.cookie.split('=')[1])
      expect(response.body).not.toContain(second.cookie.split('=')[1])
      // With a key, no session is current.
      const byKey = await apiClient(context.app, account.apiKey)('GET', '/api/auth/sessions')
      expect(byKey.data.data.sessions.map((session: { current: boolean }) => session.current)).toEqual([false, false])
    })

    it('revokes another session at once; another account\'s session is not found; a malformed id is a 400', async () => {
      const account = await createAccount(context, { password: PASSWORD })
      const laptop = await signedInClient(context.app, account.username, PASSWORD)
      const phone = await signedInClient(context.app, account.username, PASSWORD)
      const phoneId = hashApiKey(phone.cookie.split('=')[1]!)

      const stranger = await signedInClient(context.app, owner.username, PASSWORD)
      const notYours = await stranger.client('DELETE', `/api/auth/session/${phoneId}/delete`)
      expect(notYours.statusCode).toBe(404)
      expect(notYours.data).toEqual({ error: 1, code: 'not_found', message: 'Session not found. Please try again.' })
      expect((await phone.client('GET', '/api/account')).statusCode).toBe(200)

      const forged = await laptop.client('DELETE', `/api/auth/session/${phoneId}/delete`, undefined, { origin: 'https://evil.test' })
      expect(forged.statusCode).toBe(403)

      const revoked = await laptop.client('DELETE', `/api/auth/session/${phoneId}/delete`)
      expect(revoked.statusCode).toBe(200)
      expect(revoked.data).toEqual({ error: 0, message: 'The session has been signed out.' })
      expect(revoked.headers['set-cookie']).toBeUndefined()
      expect((await phone.client('GET', '/api/account')).data).toEqual(SESSION_ENDED)
      expect((await laptop.client('GET', '/api/account')).statusCode).toBe(200)
      expect((await laptop.client('DELETE', `/api/auth/session/${phoneId}/delete`)).statusCode).toBe(404)

      const malformed = await laptop.client('DELETE', '/api/auth/session/not-a-hash/delete')
      expect(malformed.statusCode).toBe(400)
      expect(malformed.data.code).toBe('validation_failed')
    })

    it('revoking the current session clears its cookie', async () => {
      const { client, cookie } = await signedInClient(context.app, owner.username, PASSWORD)
      const response = await client('DELETE', `/api/auth/session/${hashApiKey(cookie.split('=')[1]!)}/delete`)
      expect(response.statusCode).toBe(200)
      expect(String(response.headers['set-cookie'])).toMatch(/^__Host-linkwell_session=; Max-Age=0;/)
    })

    it('signs out: the session ends, the cookie is cleared; signing out needs the CSRF proof too', async () => {
      const { client } = await signedInClient(context.app, owner.username, PASSWORD)
      expect((await client('POST', '/api/auth/logout', undefined, { 'x-linkwell-csrf': '' })).statusCode).toBe(403)
      const response = await client('POST', '/api/auth/logout')
      expect(response.statusCode).toBe(200)
      expect(response.data).toEqual({ error: 0, message: 'You have been signed out.' })
      expect(String(response.headers['set-cookie'])).toMatch(/^__Host-linkwell_session=; Max-Age=0;/)
      expect((await client('GET', '/api/account')).data).toEqual(SESSION_ENDED)
      expect((await client('POST', '/api/auth/logout')).statusCode).toBe(401)
    })

    it('needs a credential for everything but signing in', async () => {
      for (const [method, url] of [['GET', '/api/auth/sessions'], ['POST', '/api/auth/logout'], ['PUT', '/api/account/password'], ['GET', '/api/keys']]) {
        const response = await apiClient(context.app, null)(method!, url!, method === 'GET' ? undefined : {}, DASHBOARD_HEADERS)
        expect(response.statusCode, `${method} ${url}`).toBe(401)
        expect(response.data.code).toBe('invalid_api_key')
      }
    })
  })
})

describe('sessions on a plain-http PUBLIC_URL, with SESSION_DAYS', () => {
  let context: TestContext
  afterAll(() => context?.close())

  it('sets a cookie without Secure (it would never come back over http) that lives SESSION_DAYS', async () => {
    context = await createTestApp({ env: { PUBLIC_URL: 'http://localhost:3000', SESSION_DAYS: '2' } })
    const account = await createAccount(context, { password: PASSWORD })
    const response = await signIn(context.app, account.username, PASSWORD, { origin: 'http://localhost:3000' })
    expect(response.statusCode).toBe(200)
    const header = String(response.headers['set-cookie'])
    expect(header).toMatch(/^linkwell_session=[A-Za-z0-9_-]{43}; Max-Age=172800; Path=\/; HttpOnly; SameSite=Lax$/)
    const row = await context.database.db.selectFrom('sessions').selectAll().where('account_id', '=', account.id).executeTakeFirstOrThrow()
    expect(Date.parse(`${row.expires_at}Z`) - Date.parse(`${row.created_at}Z`)).toBe(2 * 86_400_000)
  })
})
