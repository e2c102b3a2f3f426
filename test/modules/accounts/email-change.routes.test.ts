// E-mail changes from the dashboard (issue 38, ADR 036), with the mail received by a real SMTP
// server on loopback: the current password is needed (wrong ones throttled like sign-ins), a link
// to the new address confirms the change, once; only then does the address change, and the old
// address is told. A key keeps the spec's direct change through PUT /api/account/update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dashboardClient, DASHBOARD_HEADERS, signIn, signedInClient } from '../../helpers/dashboard-client.js'
import { MINUTE_MS, nowTimestamp } from '../../../src/core/time.js'
import { linkTokenOf, startMailCatcher, type MailCatcher } from '../../helpers/mail-catcher.js'
import { apiClient, createAccount, createTestApp, PUBLIC_URL, withJsonData, type TestContext } from '../../helpers/test-app.js'

const PASSWORD = 'an e-mail change password'

async function confirm(context: TestContext, token: string) {
  return withJsonData(await context.app.inject({ method: 'POST', url: '/api/auth/email/confirm', headers: { 'content-type': 'application/json', ...DASHBOARD_HEADERS }, payload: JSON.stringify({ token }) }))
}

describe('e-mail changes', () => {
  let mail: MailCatcher
  let context: TestContext
  beforeAll(async () => {
    mail = await startMailCatcher()
    context = await createTestApp({ env: { SMTP_URL: mail.url } })
  })
  afterAll(async () => {
    await context?.close()
    await mail?.close()
  })

  it('needs the current password, confirms the new address by a mailed link, once, and tells the old address', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, owner.username, PASSWORD)
    const newAddress = `moved-${owner.id}@example.net`

    const noPassword = await client('POST', '/api/account/email', { email: newAddress })
    expect(noPassword.statusCode).toBe(400)
    expect(noPassword.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'current' })
    const wrong = await client('POST', '/api/account/email', { email: newAddress, current: 'not the password' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.data).toEqual({ error: 1, code: 'wrong_password', field: 'current', message: 'The current password is incorrect.' })
    expect(mail.mailsTo(newAddress)).toEqual([])

    const asked = await client('POST', '/api/account/email', { email: ` ${newAddress.toUpperCase()} `, current: PASSWORD })
    expect(asked.statusCode, asked.body).toBe(200)
    expect(asked.data).toEqual({ error: 0, message: `We have sent a link to ${newAddress}. Your address changes when you open it (within 24 hours).` })
    // Nothing changes until the link is opened.
    expect((await client('GET', '/api/account')).data.data.email).toBe(owner.email)
    expect((await signIn(context.app, newAddress, PASSWORD)).statusCode).toBe(401)
    const received = await mail.mailTo(newAddress)
    expect(received.body).toContain(`${PUBLIC_URL}/app/confirm-email#token=`)
    const token = linkTokenOf(received, 'confirm-email')

    const confirmed = await confirm(context, token)
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(confirmed.data).toEqual({ error: 0, message: `Your sign-in address is now ${newAddress}.` })
    expect((await signIn(context.app, newAddress, PASSWORD)).statusCode).toBe(200)
    expect((await signIn(context.app, owner.email, PASSWORD)).statusCode).toBe(401)
    // The workspace the person owns had their old address as its contact address: it follows.
    expect((await client('GET', '/api/account')).data.data.email).toBe(newAddress)
    const notice = await mail.mailTo(owner.email)
    expect(notice.body).toContain('Subject: Your Linkwell sign-in address was changed')
    expect(notice.body).toContain(newAddress)
    expect(notice.body).not.toContain('#token=')
    const audit = await client('GET', '/api/audit')
    expect(JSON.stringify(audit.data)).toContain('account.email_changed')

    const again = await confirm(context, token)
    expect(again.statusCode).toBe(410)
    expect(again.data).toMatchObject({ code: 'link_expired', field: 'token' })
    expect((await confirm(context, 'x'.repeat(43))).data).toMatchObject({ code: 'link_invalid', field: 'token' })
  })

  it('takes a single sign-on of the last ten minutes instead of the password, and not an older one', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const person = await context.database.db.selectFrom('people').innerJoin('memberships', 'memberships.person_id', 'people.id').select('people.id').where('memberships.account_id', '=', owner.id).executeTakeFirstOrThrow()
    const opened = await context.services.sessions.openSession(person.id, owner.id, { ip: '127.0.0.1', userAgent: 'test' }, new Date(), false, 'sso')
    const client = dashboardClient(context.app, `__Host-linkwell_session=${opened.token}`)
    const newAddress = `sso-moved-${owner.id}@example.net`
    const asked = await client('POST', '/api/account/email', { email: newAddress })
    expect(asked.statusCode, asked.body).toBe(200)
    expect((await mail.mailTo(newAddress)).body).toContain(`${PUBLIC_URL}/app/confirm-email#token=`)
    // Eleven minutes on, the sign-in proves nothing any more: the password is asked again.
    await context.database.db.updateTable('sessions').set({ created_at: nowTimestamp(new Date(Date.now() - 11 * MINUTE_MS)) }).where('id', '=', opened.sessionId).execute()
    const stale = await client('POST', '/api/account/email', { email: `later-${newAddress}` })
    expect(stale.statusCode).toBe(400)
    expect(stale.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'current' })
    expect(mail.mailsTo(`later-${newAddress}`)).toEqual([])
  })

  it('retires an earlier link when another address is asked for, and refuses an address someone signs in with', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const other = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, owner.username, PASSWORD)
    const taken = await client('POST', '/api/account/email', { email: other.email, current: PASSWORD })
    expect(taken.statusCode).toBe(400)
    expect(taken.data).toMatchObject({ code: 'duplicate', field: 'email' })
    const same = await client('POST', '/api/account/email', { email: owner.email, current: PASSWORD })
    expect(same.data).toMatchObject({ code: 'validation_failed', field: 'email' })

    const typo = `typo-${owner.id}@example.nett`
    const right = `right-${owner.id}@example.net`
    expect((await client('POST', '/api/account/email', { email: typo, current: PASSWORD })).statusCode).toBe(200)
    expect((await client('POST', '/api/account/email', { email: right, current: PASSWORD })).statusCode).toBe(200)
    const typoToken = linkTokenOf(await mail.mailTo(typo), 'confirm-email')
    expect((await confirm(context, typoToken)).statusCode).toBe(410)
    expect((await confirm(context, linkTokenOf(await mail.mailTo(right), 'confirm-email'))).statusCode).toBe(200)
  })

  it('throttles wrong passwords like sign-ins', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, owner.username, PASSWORD)
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await client('POST', '/api/account/email', { email: `guess-${owner.id}@example.net`, current: `wrong ${attempt}` })).statusCode).toBe(400)
    }
    const refused = await client('POST', '/api/account/email', { email: `guess-${owner.id}@example.net`, current: PASSWORD })
    expect(refused.statusCode).toBe(429)
  })

  it('keeps the spec\'s direct change for API keys, and refuses this route to them', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const api = apiClient(context.app, owner.apiKey)
    const direct = await api('PUT', '/api/account/update', { email: `script-${owner.id}@example.net` })
    expect(direct.statusCode).toBe(200)
    expect((await api('GET', '/api/account')).data.data.email).toBe(`script-${owner.id}@example.net`)
    const refused = await api('POST', '/api/account/email', { email: `other-${owner.id}@example.net`, current: PASSWORD })
    expect(refused.statusCode).toBe(403)
    expect(refused.data).toMatchObject({ error: 1, code: 'forbidden' })
  })
})

describe('e-mail changes without a mail server', () => {
  let context: TestContext
  beforeAll(async () => {
    context = await createTestApp()
  })
  afterAll(async () => {
    await context?.close()
  })

  it('refuses with a message that says why', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, owner.username, PASSWORD)
    const refused = await client('POST', '/api/account/email', { email: `new-${owner.id}@example.net`, current: PASSWORD })
    expect(refused.statusCode).toBe(403)
    expect(refused.data.message).toContain('cannot send mail')
  })
})
