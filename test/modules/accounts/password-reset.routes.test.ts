// Forgotten passwords (issue 38, ADR 036), with the mail received by a real SMTP server on
// loopback: the same answer for a login that exists and one that does not, the mailed link
// resets once, within 30 minutes, and ends every session; an altered, used or expired link is
// refused with its own code; asking is throttled per account and per client address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DASHBOARD_HEADERS, signIn, signedInClient, sessionCookieOf, dashboardClient } from '../../helpers/dashboard-client.js'
import { linkTokenOf, startMailCatcher, type MailCatcher } from '../../helpers/mail-catcher.js'
import { apiClient, createAccount, createTestApp, PUBLIC_URL, withJsonData, type TestContext } from '../../helpers/test-app.js'
import { createSignInThrottle } from '../../../src/http/sign-in-throttle.js'
import { createMailedLinkRepository } from '../../../src/modules/accounts/mailed-link.repository.js'
import { hashApiKey } from '../../../src/core/secrets.js'
import { nowTimestamp } from '../../../src/core/time.js'

const PASSWORD = 'the old password'
const FORGOT_ANSWER = { error: 0, message: 'If this username or address has an account, we have sent a link to reset its password. It works for 30 minutes.' }

let addresses = 0

/** A client address of its own for each test: the throttle's count per address stays the throttle test's. */
function nextAddress(): string {
  addresses += 1
  return `10.9.0.${addresses}`
}

async function post(context: TestContext, url: string, body: unknown, remoteAddress = '127.0.0.1') {
  return withJsonData(await context.app.inject({ method: 'POST', url, remoteAddress, headers: { 'content-type': 'application/json', ...DASHBOARD_HEADERS }, payload: JSON.stringify(body) }))
}

describe('forgotten passwords', () => {
  let mail: MailCatcher
  let context: TestContext

  beforeAll(async () => {
    mail = await startMailCatcher()
    // The mail counts are low here so that the throttle's test reaches them; other tests ask from addresses of their own.
    context = await createTestApp({ env: { SMTP_URL: mail.url }, signInThrottle: () => createSignInThrottle({ mailLimits: { perSubject: 3, perAddress: 6 } }) })
  })
  afterAll(async () => {
    await context?.close()
    await mail?.close()
  })

  it('answers the same for a login that exists and one that does not, and mails only the one that exists', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const address = nextAddress()
    const known = await post(context, '/api/auth/password/forgot', { login: owner.email }, address)
    const unknown = await post(context, '/api/auth/password/forgot', { login: 'nobody-at-all@example.com' }, address)
    const unknownName = await post(context, '/api/auth/password/forgot', { login: 'nobody_at_all' }, address)
    for (const answer of [known, unknown, unknownName]) {
      expect(answer.statusCode).toBe(200)
      expect(answer.data).toEqual(FORGOT_ANSWER)
      expect(answer.headers['set-cookie']).toBeUndefined()
    }
    const received = await mail.mailTo(owner.email)
    expect(received.body).toContain(`${PUBLIC_URL}/app/reset-password#token=`)
    expect(received.body).toContain('Subject: Reset your Linkwell password')
    expect(mail.mailsTo('nobody-at-all@example.com')).toEqual([])
    // Only the hash of the token is stored.
    const token = linkTokenOf(received, 'reset-password')
    const rows = await context.database.db.selectFrom('mailed_links').selectAll().where('person_id', 'is not', null).execute()
    expect(rows.some((row) => row.token_hash === hashApiKey(token))).toBe(true)
    expect(rows.some((row) => JSON.stringify(row).includes(token))).toBe(false)
  })

  it('resets with the mailed link, once: every session ends, keys go on, the new password signs in, the audit log says so', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const first = await signedInClient(context.app, owner.username, PASSWORD)
    const second = await signedInClient(context.app, owner.email, PASSWORD)
    expect((await post(context, '/api/auth/password/forgot', { login: owner.username }, nextAddress())).statusCode).toBe(200)
    const token = linkTokenOf(await mail.mailTo(owner.email), 'reset-password')

    const tooShort = await post(context, '/api/auth/password/reset', { token, password: 'short' })
    expect(tooShort.statusCode).toBe(400)
    expect(tooShort.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'password' })

    const reset = await post(context, '/api/auth/password/reset', { token, password: 'the new password' })
    expect(reset.statusCode, reset.body).toBe(200)
    expect(reset.data).toEqual({ error: 0, message: 'Your password has been changed. Sign in with the new one.' })
    for (const client of [first.client, second.client]) expect((await client('GET', '/api/auth/sessions')).statusCode).toBe(401)
    expect((await apiClient(context.app, owner.apiKey)('GET', '/api/account')).statusCode).toBe(200)
    expect((await signIn(context.app, owner.username, PASSWORD)).statusCode).toBe(401)
    const signedIn = await signIn(context.app, owner.username, 'the new password')
    expect(signedIn.statusCode).toBe(200)

    const again = await post(context, '/api/auth/password/reset', { token, password: 'a third password' })
    expect(again.statusCode).toBe(410)
    expect(again.data).toEqual({ error: 1, code: 'link_expired', field: 'token', message: 'This link has expired or has already been used. Ask for a new one.' })

    const audit = await dashboardClient(context.app, sessionCookieOf(signedIn)!)('GET', '/api/audit')
    expect(JSON.stringify(audit.data)).toContain('account.password_reset')
  })

  it('refuses an altered link (400) and one past its 30 minutes (410), and a newer link retires none but is retired by a reset', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const address = nextAddress()
    await post(context, '/api/auth/password/forgot', { login: owner.email }, address)
    const token = linkTokenOf(await mail.mailTo(owner.email), 'reset-password')
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    for (const bad of [altered, token.slice(0, 20), `${token}x`, '']) {
      const refused = await post(context, '/api/auth/password/reset', { token: bad, password: 'the new password' })
      expect(refused.statusCode, bad).toBe(400)
      expect(refused.data.code, bad).toMatch(/^(link_invalid|validation_failed)$/)
    }
    expect((await post(context, '/api/auth/password/reset', { token: altered, password: 'the new password' })).data).toMatchObject({ code: 'link_invalid', field: 'token' })

    // The link runs out: its expiry moved to a moment ago through its repository.
    const links = createMailedLinkRepository(context.database.db)
    const row = await links.findByTokenHash('password_reset', hashApiKey(token))
    await links.setExpiry(row!.id, nowTimestamp(new Date(Date.now() - 1000)))
    const expired = await post(context, '/api/auth/password/reset', { token, password: 'the new password' })
    expect(expired.statusCode).toBe(410)
    expect(expired.data.code).toBe('link_expired')
    expect((await signIn(context.app, owner.username, PASSWORD)).statusCode).toBe(200)

    // Two links asked for: using one retires the other.
    await post(context, '/api/auth/password/forgot', { login: owner.email }, address)
    await post(context, '/api/auth/password/forgot', { login: owner.email }, address)
    const second = linkTokenOf(await mail.mailTo(owner.email, 2), 'reset-password')
    const third = linkTokenOf(await mail.mailTo(owner.email, 3), 'reset-password')
    expect((await post(context, '/api/auth/password/reset', { token: third, password: 'the newest password' })).statusCode).toBe(200)
    expect((await post(context, '/api/auth/password/reset', { token: second, password: 'the other password' })).statusCode).toBe(410)
  })

  it('refuses requests from another site (CSRF), and a body without its fields, with the envelope', async () => {
    const crossSite = withJsonData(await context.app.inject({ method: 'POST', url: '/api/auth/password/forgot', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, payload: JSON.stringify({ login: 'someone' }) }))
    expect(crossSite.statusCode).toBe(403)
    expect(crossSite.data.code).toBe('csrf_failed')
    const empty = await post(context, '/api/auth/password/forgot', {})
    expect(empty.statusCode).toBe(400)
    expect(empty.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'login' })
    const noToken = await post(context, '/api/auth/password/reset', { password: 'the new password' })
    expect(noToken.statusCode).toBe(400)
    expect(noToken.data).toMatchObject({ error: 1, field: 'token' })
  })

  it('throttles asking per account (however named) and per client address, the same for an unknown login', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const from = (address: string) => ({ remoteAddress: address })
    const ask = async (login: string, address: string) => withJsonData(await context.app.inject({ method: 'POST', url: '/api/auth/password/forgot', ...from(address), headers: { 'content-type': 'application/json', ...DASHBOARD_HEADERS }, payload: JSON.stringify({ login }) }))
    // Per account: three asks from three addresses, by username and e-mail alike; the fourth is refused.
    expect((await ask(owner.username, '10.1.0.1')).statusCode).toBe(200)
    expect((await ask(owner.email, '10.1.0.2')).statusCode).toBe(200)
    expect((await ask(owner.email.toUpperCase(), '10.1.0.3')).statusCode).toBe(200)
    const refused = await ask(owner.username, '10.1.0.4')
    expect(refused.statusCode).toBe(429)
    expect(refused.data).toEqual({ error: 1, code: 'rate_limited', message: 'Too many requests for e-mails. Please wait before trying again.' })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // An unknown login is counted by its text, exactly like a known one.
    for (const address of ['10.2.0.1', '10.2.0.2', '10.2.0.3']) expect((await ask('no-such-person@example.com', address)).statusCode).toBe(200)
    expect((await ask('no-such-person@example.com', '10.2.0.4')).statusCode).toBe(429)
    // Per client address: six asks for six logins, the seventh refused.
    for (let index = 0; index < 6; index += 1) expect((await ask(`stranger${index}@example.com`, '10.3.0.1')).statusCode).toBe(200)
    expect((await ask('stranger-seven@example.com', '10.3.0.1')).statusCode).toBe(429)
    await mail.mailTo(owner.email, 3)
    expect(mail.mailsTo(owner.email)).toHaveLength(3)
  })
})

describe('forgotten passwords without a mail server', () => {
  let context: TestContext
  beforeAll(async () => {
    context = await createTestApp()
  })
  afterAll(async () => {
    await context?.close()
  })

  it('answers the public the same and sends nothing', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const known = await post(context, '/api/auth/password/forgot', { login: owner.email })
    const unknown = await post(context, '/api/auth/password/forgot', { login: 'unknown@example.com' })
    expect(known.statusCode).toBe(200)
    expect(known.data).toEqual(FORGOT_ANSWER)
    expect(unknown.data).toEqual(FORGOT_ANSWER)
    const options = await withJsonData(await context.app.inject({ method: 'GET', url: '/api/auth/options' }))
    expect(options.data).toEqual({ error: 0, data: { signup: 'closed', mail: false } })
  })
})
