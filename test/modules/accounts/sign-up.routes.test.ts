// Sign-up (issue 38, ADR 036) in each SIGNUP mode, with the mail received by a real SMTP server on
// loopback: closed refuses; open mails a confirmation link that makes the person and their own
// workspace on the default plan and signs them in, once; a taken address or username gets the
// same answer and a mail that says so; domains refuses other domains naming the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DASHBOARD_HEADERS, dashboardClient, sessionCookieOf, signIn } from '../../helpers/dashboard-client.js'
import { linkTokenOf, startMailCatcher, type MailCatcher } from '../../helpers/mail-catcher.js'
import { apiClient, createAccount, createTestApp, PUBLIC_URL, withJsonData, type TestContext } from '../../helpers/test-app.js'
import { createSignInThrottle } from '../../../src/http/sign-in-throttle.js'
import { loadConfig } from '../../../src/config.js'

const PASSWORD = 'a sign-up password'
const ANSWER = { error: 0, message: 'Check your inbox: we have sent a message to this address. Open its link within 24 hours to finish.' }

let addresses = 0
function nextAddress(): string {
  addresses += 1
  return `10.8.0.${addresses}`
}

async function post(context: TestContext, url: string, body: unknown, remoteAddress = nextAddress()) {
  return withJsonData(await context.app.inject({ method: 'POST', url, remoteAddress, headers: { 'content-type': 'application/json', ...DASHBOARD_HEADERS }, payload: JSON.stringify(body) }))
}

async function optionsOf(context: TestContext) {
  return withJsonData(await context.app.inject({ method: 'GET', url: '/api/auth/options' })).data
}

describe('sign-up closed (the default)', () => {
  let context: TestContext
  beforeAll(async () => {
    context = await createTestApp()
  })
  afterAll(async () => {
    await context?.close()
  })

  it('refuses with a 403 that says so, whatever the address, and the sign-in page is told', async () => {
    const refused = await post(context, '/api/auth/signup', { email: 'new@example.com', password: PASSWORD })
    expect(refused.statusCode).toBe(403)
    expect(refused.data).toEqual({ error: 1, code: 'forbidden', message: 'Sign-up is closed on this server. Ask its administrator for an invitation.' })
    expect((await post(context, '/api/auth/signup', { email: 'not an address', password: 'x' })).statusCode).toBe(403)
    expect(await optionsOf(context)).toEqual({ error: 0, data: { signup: 'closed', mail: false } })
  })

  it('needs a mail server to open (a configuration error at start)', () => {
    expect(() => loadConfig({ SIGNUP: 'open' })).toThrow(/SMTP_URL/)
    expect(() => loadConfig({ SIGNUP: 'domains', SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(/SIGNUP_DOMAINS/)
    expect(() => loadConfig({ SIGNUP: 'sometimes' })).toThrow(/closed, open or domains/)
    expect(() => loadConfig({ SIGNUP: 'domains', SIGNUP_DOMAINS: 'example.com, not a domain', SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(/not a domain/)
  })
})

describe('sign-up open', () => {
  let mail: MailCatcher
  let context: TestContext
  beforeAll(async () => {
    mail = await startMailCatcher()
    context = await createTestApp({ env: { SMTP_URL: mail.url, SIGNUP: 'open' }, signInThrottle: () => createSignInThrottle({ mailLimits: { perSubject: 2, perAddress: 3 } }) })
  })
  afterAll(async () => {
    await context?.close()
    await mail?.close()
  })

  it('mails a link that makes the person and their own workspace on the default plan, signs them in, once', async () => {
    expect(await optionsOf(context)).toEqual({ error: 0, data: { signup: 'open', mail: true } })
    const answer = await post(context, '/api/auth/signup', { username: 'new_signer', email: ' New.Signer@Example.com ', password: PASSWORD })
    expect(answer.statusCode, answer.body).toBe(200)
    expect(answer.data).toEqual(ANSWER)
    // Nothing is made before the address is confirmed.
    expect((await signIn(context.app, 'new_signer', PASSWORD)).statusCode).toBe(401)
    const received = await mail.mailTo('new.signer@example.com')
    expect(received.body).toContain(`${PUBLIC_URL}/app/confirm-sign-up#token=`)
    const token = linkTokenOf(received, 'confirm-sign-up')

    const confirmed = await post(context, '/api/auth/signup/confirm', { token })
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(confirmed.data.data).toMatchObject({ username: 'new_signer', email: 'new.signer@example.com' })
    const client = dashboardClient(context.app, sessionCookieOf(confirmed)!)
    const workspaces = await client('GET', '/api/workspaces')
    expect(workspaces.data.data.workspaces).toEqual([expect.objectContaining({ name: 'new_signer', role: 'owner', current: true })])
    const defaultPlan = (await context.services.plans.resolvePlan()).id
    expect((await client('GET', '/api/account')).data.data.planid).toBe(defaultPlan)
    expect((await client('POST', '/api/url/add', { url: 'https://example.com/first-link' })).statusCode).toBe(201)
    expect((await signIn(context.app, 'new.signer@example.com', PASSWORD)).statusCode).toBe(200)

    const again = await post(context, '/api/auth/signup/confirm', { token })
    expect(again.statusCode).toBe(410)
    expect(again.data).toMatchObject({ error: 1, code: 'link_expired', field: 'token' })
    const altered = await post(context, '/api/auth/signup/confirm', { token: token.replace(/^./, (first) => (first === 'a' ? 'b' : 'a')) })
    expect(altered.statusCode).toBe(400)
    expect(altered.data).toMatchObject({ error: 1, code: 'link_invalid', field: 'token' })
  })

  it('makes a username from the address when none is given', async () => {
    await post(context, '/api/auth/signup', { email: 'jane.doe@example.org', password: PASSWORD })
    const token = linkTokenOf(await mail.mailTo('jane.doe@example.org'), 'confirm-sign-up')
    const confirmed = await post(context, '/api/auth/signup/confirm', { token })
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(confirmed.data.data.username).toBe('jane-doe')
  })

  it('answers a taken address and a taken username the same, and mails what happened instead', async () => {
    const existing = await createAccount(context, { password: 'existing password' })
    const takenAddress = await post(context, '/api/auth/signup', { email: existing.email.toUpperCase(), password: PASSWORD })
    const takenName = await post(context, '/api/auth/signup', { username: existing.username, email: 'fresh-address@example.com', password: PASSWORD })
    const free = await post(context, '/api/auth/signup', { email: 'free-address@example.com', password: PASSWORD })
    for (const answer of [takenAddress, takenName, free]) {
      expect(answer.statusCode).toBe(200)
      expect(answer.data).toEqual(ANSWER)
    }
    const already = await mail.mailTo(existing.email)
    expect(already.body).toContain('Subject: You already have a Linkwell account')
    expect(already.body).toContain(`${PUBLIC_URL}/app/forgot-password`)
    expect(already.body).not.toContain('#token=')
    const otherName = await mail.mailTo('fresh-address@example.com')
    expect(otherName.body).toContain(`the username "${existing.username}", which is taken`)
    expect(otherName.body).not.toContain('#token=')
    // The existing account is untouched.
    expect((await signIn(context.app, existing.username, 'existing password')).statusCode).toBe(200)
    expect((await apiClient(context.app, existing.apiKey)('GET', '/api/account')).data.data.email).toBe(existing.email)
  })

  it('refuses bad input with the envelope naming the field, and throttles per address and per client address', async () => {
    const badEmail = await post(context, '/api/auth/signup', { email: 'not-an-address', password: PASSWORD })
    expect(badEmail.statusCode).toBe(400)
    expect(badEmail.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'email' })
    const shortPassword = await post(context, '/api/auth/signup', { email: 'short@example.com', password: 'short' })
    expect(shortPassword.data).toMatchObject({ code: 'validation_failed', field: 'password' })
    const badName = await post(context, '/api/auth/signup', { username: 'a b', email: 'name@example.com', password: PASSWORD })
    expect(badName.data).toMatchObject({ code: 'validation_failed', field: 'username' })
    expect((await post(context, '/api/auth/signup', { password: PASSWORD })).data).toMatchObject({ code: 'validation_failed', field: 'email' })

    // Per address: two asks from two client addresses; the third is refused.
    expect((await post(context, '/api/auth/signup', { email: 'often@example.com', password: PASSWORD })).statusCode).toBe(200)
    expect((await post(context, '/api/auth/signup', { email: 'OFTEN@example.com', password: PASSWORD })).statusCode).toBe(200)
    const refused = await post(context, '/api/auth/signup', { email: 'often@example.com', password: PASSWORD })
    expect(refused.statusCode).toBe(429)
    expect(refused.data).toMatchObject({ error: 1, code: 'rate_limited' })
    // Per client address: three asks for three addresses, the fourth refused.
    const from = nextAddress()
    for (const email of ['one@example.net', 'two@example.net', 'three@example.net']) expect((await post(context, '/api/auth/signup', { email, password: PASSWORD }, from)).statusCode).toBe(200)
    expect((await post(context, '/api/auth/signup', { email: 'four@example.net', password: PASSWORD }, from)).statusCode).toBe(429)
  })
})

describe('sign-up for some domains', () => {
  let mail: MailCatcher
  let context: TestContext
  beforeAll(async () => {
    mail = await startMailCatcher()
    context = await createTestApp({ env: { SMTP_URL: mail.url, SIGNUP: 'domains', SIGNUP_DOMAINS: 'team.example, @Partner.example' } })
  })
  afterAll(async () => {
    await context?.close()
    await mail?.close()
  })

  it('takes addresses at the listed domains and refuses others naming the rule', async () => {
    expect(await optionsOf(context)).toEqual({ error: 0, data: { signup: 'domains', domains: ['team.example', 'partner.example'], mail: true } })
    const refused = await post(context, '/api/auth/signup', { email: 'someone@elsewhere.example', password: PASSWORD })
    expect(refused.statusCode).toBe(403)
    expect(refused.data).toEqual({ error: 1, code: 'forbidden', message: 'Sign-up on this server is only for addresses at team.example, partner.example. Ask its administrator for an invitation.' })
    // A subdomain is another domain.
    expect((await post(context, '/api/auth/signup', { email: 'someone@sub.team.example', password: PASSWORD })).statusCode).toBe(403)
    expect(mail.received).toEqual([])

    expect((await post(context, '/api/auth/signup', { email: 'member@Partner.example', password: PASSWORD })).statusCode).toBe(200)
    const token = linkTokenOf(await mail.mailTo('member@partner.example'), 'confirm-sign-up')
    const confirmed = await post(context, '/api/auth/signup/confirm', { token })
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(confirmed.data.data).toMatchObject({ username: 'member', email: 'member@partner.example' })
  })
})
