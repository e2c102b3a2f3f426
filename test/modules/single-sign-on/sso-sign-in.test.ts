// Single sign-on against a real OpenID provider (issue 38, ADR 033): `oidc-provider` on loopback
// with its own keys, signed in through its login form over HTTP; the app answers through inject.
// Matching by subject and by verified e-mail, creation by domain and invitation, groups to roles at
// sign-in and by the recheck, and the callback's bad input: each refused with a page, no session,
// an audit entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'
import { dashboardClient, sessionCookieOf, signIn } from '../../helpers/dashboard-client.js'
import { apiClient, createAccount, createTestApp, PUBLIC_URL, type TestAccount, type TestContext } from '../../helpers/test-app.js'
import { createMember } from '../../helpers/factories.js'
import { SSO_EXPLANATIONS, type SingleSignOnReason } from '../../../src/core/sso-reasons.js'
import { createCookieJar, signInAtProvider, startIdentityProvider, type IdentityProvider, type ProviderAccount } from '../../helpers/identity-provider.js'

const CALLBACK = `${PUBLIC_URL}/api/auth/oidc/callback`
const SECRETS_KEY = 'a'.repeat(64)

let idp: IdentityProvider
let context: TestContext
let administration: TestAccount

beforeAll(async () => {
  idp = await startIdentityProvider(CALLBACK)
  context = await createTestApp({
    env: { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_ALLOWED_DOMAINS: 'corp.test', OIDC_ALLOW_HTTP: '1', SECRETS_KEY },
  })
  // The instance's administration: where refusals nobody else can be told of are recorded.
  administration = await createAccount(context, { isAdmin: true, password: 'administrator password' })
})
afterAll(async () => {
  await context?.close()
  await idp?.close()
})

let counter = 0
/** A person at the provider (not yet at Linkwell). */
function providerAccount(overrides: Partial<ProviderAccount> = {}): ProviderAccount {
  counter += 1
  const account = { sub: `subject-${counter}-${Date.now()}`, password: `provider password ${counter}`, email: `person${counter}.${Date.now()}@corp.test`, email_verified: true, groups: [], ...overrides }
  idp.accounts.set(account.sub, account)
  return account
}

/** GET /api/auth/oidc/start: the provider's URL and the state cookie. */
async function start(query = '') {
  const response = await context.app.inject({ method: 'GET', url: `/api/auth/oidc/start${query}` })
  expect(response.statusCode, response.body).toBe(302)
  const stateCookie = String(response.headers['set-cookie']).split(';')[0]!
  return { location: String(response.headers.location), stateCookie }
}

/** Back at the callback with `url`'s query (the provider's redirect) and `cookie`. */
async function callback(url: URL | string, cookie?: string) {
  const target = typeof url === 'string' ? url : `${url.pathname}${url.search}`
  return context.app.inject({ method: 'GET', url: target, headers: cookie ? { cookie } : {} })
}

/** A whole sign-in: start, the provider's login form, the callback. */
async function signInWithProvider(account: ProviderAccount) {
  const started = await start()
  const back = await signInAtProvider(started.location, { login: account.email, password: account.password }, createCookieJar())
  const response = await callback(back, started.stateCookie)
  return { response, back, stateCookie: started.stateCookie, cookie: sessionCookieOf(response) }
}

/** A refused sign-in: back to the sign-in page naming the reason, no session cookie. */
function expectSentBack(response: { statusCode: number; headers: Record<string, unknown>; body: string }, reason: string) {
  expect(response.statusCode, response.body).toBe(302)
  expect(response.headers.location).toBe(`${PUBLIC_URL}/app/signin?sso_error=${reason}`)
  expect(String(response.headers['set-cookie'] ?? '')).not.toMatch(/linkwell_session=[^;]/)
  expect(sessionCookieOf(response as never)).toBeUndefined()
}

async function refusalsRecorded(reason: string): Promise<number> {
  const rows = await context.database.db.selectFrom('audit_log').select('fields').where('account_id', '=', administration.id).where('action', '=', 'sso.sign_in_refused').execute()
  return rows.filter((row) => JSON.parse(row.fields).includes(reason)).length
}

/** Sets the workspace's mapping as its owner would. */
async function mapGroups(owner: TestAccount, mapping: Array<{ group: string; role: string }>, required = false) {
  const response = await apiClient(context.app, owner.apiKey)('PUT', '/api/workspace/sso', { provider: 'default', required, mapping })
  expect(response.statusCode, response.body).toBe(200)
}

describe('signing in with the provider', () => {
  it('links a person once by a verified e-mail address, then finds them by subject, with a session opened by single sign-on', async () => {
    const workspace = await createAccount(context, { password: 'owner password 1' })
    const person = await createMember(context, workspace, 'editor')
    const account = providerAccount({ email: person.email })

    const first = await signInWithProvider(account)
    expect(first.response.statusCode, first.response.body).toBe(302)
    expect(first.response.headers.location).toBe(`${PUBLIC_URL}/app/`)
    expect(first.cookie).toBeDefined()
    const me = await dashboardClient(context.app, first.cookie!)('GET', '/api/account')
    expect(me.statusCode).toBe(200)
    expect(me.data.data.id).toBe(workspace.id)
    const identity = await context.database.db.selectFrom('sso_identities').selectAll().where('subject', '=', account.sub).executeTakeFirstOrThrow()
    expect(identity.person_id).toBe(person.personId)
    // The refresh token is kept sealed (SECRETS_KEY).
    expect(identity.refresh_token).toMatch(/^sealed:v1:/)
    const sessions = await context.database.db.selectFrom('sessions').select('signed_in_with').where('person_id', '=', person.personId).execute()
    expect(sessions.map((row) => row.signed_in_with)).toEqual(['sso'])

    // The provider's address changes: the subject still finds the same person.
    account.email = `renamed.${account.email}`
    const second = await signInWithProvider(account)
    expect(second.response.statusCode).toBe(302)
    expect((await dashboardClient(context.app, second.cookie!)('GET', '/api/account')).data.data.id).toBe(workspace.id)
    expect(await context.database.db.selectFrom('sessions').select('id').where('person_id', '=', person.personId).execute()).toHaveLength(2)
    expect(await context.database.db.selectFrom('sso_identities').select('id').where('person_id', '=', person.personId).execute()).toHaveLength(1)
  })

  it('refuses to link by an address the provider has not verified, with a page, no session and an audit entry', async () => {
    const workspace = await createAccount(context)
    const person = await createMember(context, workspace, 'viewer')
    const account = providerAccount({ email: person.email, email_verified: false })
    const before = await refusalsRecorded('unverified_email')
    const { response } = await signInWithProvider(account)
    expectSentBack(response, 'unverified_email')
    expect(await refusalsRecorded('unverified_email')).toBe(before + 1)
    expect(await context.database.db.selectFrom('sso_identities').select('id').where('subject', '=', account.sub).execute()).toEqual([])
  })

  it('creates a person of an allowed domain whose group a workspace maps, and refuses one of another domain', async () => {
    const workspace = await createAccount(context)
    await mapGroups(workspace, [{ group: 'marketing', role: 'editor' }])
    const allowed = providerAccount({ groups: ['marketing'] })
    const created = await signInWithProvider(allowed)
    expect(created.response.statusCode, created.response.body).toBe(302)
    const person = await context.database.db.selectFrom('people').selectAll().where('email', '=', allowed.email).executeTakeFirstOrThrow()
    expect(person.password_hash).toBeNull()
    const membership = await context.database.db.selectFrom('memberships').select('role').where('account_id', '=', workspace.id).where('person_id', '=', person.id).executeTakeFirstOrThrow()
    expect(membership.role).toBe('editor')

    const stranger = providerAccount({ email: `someone.${Date.now()}@elsewhere.test`, groups: ['marketing'] })
    const refused = await signInWithProvider(stranger)
    expectSentBack(refused.response, 'not_allowed')
    expect(await context.database.db.selectFrom('people').select('id').where('email', '=', stranger.email).execute()).toEqual([])

    // An allowed domain with no group any workspace maps and no invitation: nowhere to land.
    const unmapped = providerAccount({ groups: ['nobody-maps-this'] })
    const nowhere = await signInWithProvider(unmapped)
    expectSentBack(nowhere.response, 'no_workspace')
  })

  it('two first sign-ins of one person at once make one person and one identity, and both sign in', async () => {
    const workspace = await createAccount(context)
    await mapGroups(workspace, [{ group: 'twice', role: 'viewer' }])
    const account = providerAccount({ groups: ['twice'] })
    // Both browsers are back from the provider before either callback is answered.
    const first = await start()
    const second = await start()
    const backFirst = await signInAtProvider(first.location, { login: account.email, password: account.password }, createCookieJar())
    const backSecond = await signInAtProvider(second.location, { login: account.email, password: account.password }, createCookieJar())
    const answers = await Promise.all([callback(backFirst, first.stateCookie), callback(backSecond, second.stateCookie)])
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(302)
      expect(sessionCookieOf(answer)).toBeDefined()
    }
    const people = await context.database.db.selectFrom('people').select('id').where('email', '=', account.email).execute()
    expect(people).toHaveLength(1)
    expect(await context.database.db.selectFrom('sso_identities').select('id').where('person_id', '=', people[0]!.id).execute()).toHaveLength(1)
  })

  it('creates a person invited from another domain, and accepts the invitation', async () => {
    const workspace = await createAccount(context)
    const email = `guest.${Date.now()}@partner.test`
    const invited = await apiClient(context.app, workspace.apiKey)('POST', '/api/member/invite', { email, role: 'viewer' })
    expect(invited.statusCode, invited.body).toBeLessThan(300)
    const account = providerAccount({ email })
    const { response, cookie } = await signInWithProvider(account)
    expect(response.statusCode, response.body).toBe(302)
    const me = await dashboardClient(context.app, cookie!)('GET', '/api/account')
    expect(me.data.data.id).toBe(workspace.id)
    expect(await context.database.db.selectFrom('invitations').select('id').where('email', '=', email).execute()).toEqual([])
  })
})

describe('groups to roles', () => {
  it('changes the role at each sign-in and takes it away (with the keys made there) when the group is removed at the provider', async () => {
    const workspace = await createAccount(context)
    await mapGroups(workspace, [{ group: 'writers', role: 'editor' }, { group: 'leads', role: 'admin' }])
    const account = providerAccount({ groups: ['writers'] })
    const first = await signInWithProvider(account)
    const personId = (await context.database.db.selectFrom('people').select('id').where('email', '=', account.email).executeTakeFirstOrThrow()).id
    const roleNow = async () => (await context.database.db.selectFrom('memberships').select('role').where('account_id', '=', workspace.id).where('person_id', '=', personId).executeTakeFirst())?.role
    expect(first.response.statusCode).toBe(302)
    expect(await roleNow()).toBe('editor')
    // A key the person makes acts in their role.
    const { key } = await context.services.apiKeys.createNamedKey({ ...commandLineActor(workspace.id), personId }, { name: 'their key' })

    account.groups = ['writers', 'leads']
    await signInWithProvider(account)
    expect(await roleNow()).toBe('admin')

    account.groups = []
    const last = await signInWithProvider(account)
    expect(await roleNow()).toBeUndefined()
    // Nowhere left to land: no session.
    expectSentBack(last.response, 'no_workspace')
    expect((await apiClient(context.app, key)('GET', '/api/account')).statusCode).toBe(401)
    // The session opened while they were a member does not reach the workspace any more.
    expect((await dashboardClient(context.app, first.cookie!)('GET', '/api/account')).statusCode).toBe(401)
  })

  it('the recheck reads the groups again with the refresh token: a group removed at the provider takes the role away, a person gone there loses their sessions', async () => {
    const workspace = await createAccount(context)
    const home = await createAccount(context)
    await mapGroups(workspace, [{ group: 'analysts', role: 'viewer' }])
    const account = providerAccount({ groups: ['analysts'] })
    const signedIn = await signInWithProvider(account)
    const personId = (await context.database.db.selectFrom('people').select('id').where('email', '=', account.email).executeTakeFirstOrThrow()).id
    // A second workspace, not mapped, keeps the person after the first lets them go.
    await context.services.members.addMember(commandLineActor(home.id), personId, 'viewer')
    const client = dashboardClient(context.app, signedIn.cookie!)
    expect((await client('GET', '/api/account')).data.data.id).toBe(workspace.id)

    // Not due yet: nothing is read.
    expect(await context.services.singleSignOn.recheckDue('2000-01-01 00:00:00')).toBe(0)
    account.groups = []
    expect(await context.services.singleSignOn.recheckDue('2999-01-01 00:00:00')).toBeGreaterThanOrEqual(1)
    expect(await context.database.db.selectFrom('memberships').select('role').where('account_id', '=', workspace.id).where('person_id', '=', personId).execute()).toEqual([])
    // The session moves to the workspace the person still has.
    expect((await client('GET', '/api/account')).data.data.id).toBe(home.id)

    // The person leaves the company: the provider refuses the refresh token, every session ends.
    idp.accounts.delete(account.sub)
    await context.services.singleSignOn.recheckDue('2999-01-01 00:00:00')
    expect((await client('GET', '/api/account')).statusCode).toBe(401)
    expect(await context.database.db.selectFrom('sessions').select('id').where('person_id', '=', personId).execute()).toEqual([])
  })

  it('the recheck loop takes only the people whose last check is older than OIDC_RECHECK', async () => {
    const workspace = await createAccount(context)
    await mapGroups(workspace, [{ group: 'loopers', role: 'editor' }])
    const account = providerAccount({ groups: ['loopers'] })
    await signInWithProvider(account)
    const personId = (await context.database.db.selectFrom('people').select('id').where('email', '=', account.email).executeTakeFirstOrThrow()).id
    account.groups = []
    // One round now: checked a moment ago, not due (OIDC_RECHECK is an hour).
    await context.services.ssoRecheck.runOnce()
    expect(await context.database.db.selectFrom('memberships').select('role').where('account_id', '=', workspace.id).where('person_id', '=', personId).execute()).toHaveLength(1)
    await context.database.db.updateTable('sso_identities').set({ checked_at: '2000-01-01 00:00:00' }).where('person_id', '=', personId).execute()
    await context.services.ssoRecheck.runOnce()
    expect(await context.database.db.selectFrom('memberships').select('role').where('account_id', '=', workspace.id).where('person_id', '=', personId).execute()).toEqual([])
  })

  it('the recheck of a person without a refresh token ends their single sign-on sessions and keeps their password sessions', async () => {
    const workspace = await createAccount(context, { password: 'a workspace owner password' })
    await mapGroups(workspace, [{ group: 'owners', role: 'owner' }])
    const account = providerAccount({ groups: ['owners'], email: workspace.email })
    const viaProvider = await signInWithProvider(account)
    const viaPassword = await signIn(context.app, workspace.username, 'a workspace owner password')
    expect(viaPassword.statusCode).toBe(200)
    const personId = (await context.database.db.selectFrom('people').select('id').where('email', '=', workspace.email).executeTakeFirstOrThrow()).id
    // A provider that gave no refresh token: the person cannot be asked about again.
    await context.database.db.updateTable('sso_identities').set({ refresh_token: null, checked_at: '2000-01-01 00:00:00' }).where('person_id', '=', personId).execute()
    expect(await context.services.singleSignOn.recheckDue('2001-01-01 00:00:00')).toBe(1)
    expect((await dashboardClient(context.app, viaProvider.cookie!)('GET', '/api/account')).statusCode).toBe(401)
    expect((await dashboardClient(context.app, sessionCookieOf(viaPassword)!)('GET', '/api/account')).data.data.id).toBe(workspace.id)
    // Their membership is not touched: nothing was learned of their groups.
    expect(await context.database.db.selectFrom('memberships').select('role').where('account_id', '=', workspace.id).where('person_id', '=', personId).execute()).toEqual([{ role: 'owner' }])
  })

  it('two recheck rounds at once (two instances) read each due person once', async () => {
    const workspace = await createAccount(context)
    await mapGroups(workspace, [{ group: 'twice', role: 'editor' }])
    const account = providerAccount({ groups: ['twice'] })
    const signedIn = await signInWithProvider(account)
    const personId = (await context.database.db.selectFrom('people').select('id').where('email', '=', account.email).executeTakeFirstOrThrow()).id
    await context.database.db.updateTable('sso_identities').set({ checked_at: '2000-01-01 00:00:00' }).where('person_id', '=', personId).execute()
    const rounds = await Promise.all([
      context.services.singleSignOn.recheckDue('2001-01-01 00:00:00'),
      context.services.singleSignOn.recheckDue('2001-01-01 00:00:00'),
    ])
    expect(rounds.sort()).toEqual([0, 1])
    // Read once and mapped as the provider says: the session and the role stay.
    expect((await dashboardClient(context.app, signedIn.cookie!)('GET', '/api/account')).statusCode).toBe(200)
    expect(await context.database.db.selectFrom('memberships').select('role').where('account_id', '=', workspace.id).where('person_id', '=', personId).execute()).toEqual([{ role: 'editor' }])
  })
})

describe('a workspace that requires single sign-on', () => {
  it('refuses its members\' passwords there, keeps single sign-on working, and lets the administrator in with a password, audited', async () => {
    const workspace = await createAccount(context, { password: 'workspace owner password' })
    const member = await createMember(context, workspace, 'editor')
    const passwordSession = await signIn(context.app, member.username, member.password)
    const passwordCookie = sessionCookieOf(passwordSession)!
    const account = providerAccount({ email: member.email })
    await mapGroups(workspace, [], true)

    const refused = await signIn(context.app, member.username, member.password)
    expect(refused.statusCode).toBe(403)
    expect(refused.data).toEqual({ error: 1, code: 'sso_required', message: expect.stringContaining('single sign-on') })
    // A password session opened before: refused from its next request on.
    const old = await dashboardClient(context.app, passwordCookie)('GET', '/api/account')
    expect(old.statusCode).toBe(403)
    expect(old.data.code).toBe('sso_required')

    const sso = await signInWithProvider(account)
    expect(sso.response.statusCode).toBe(302)
    expect((await dashboardClient(context.app, sso.cookie!)('GET', '/api/account')).data.data.id).toBe(workspace.id)
    // Keys go on (ADR 033): scripts are no sign-in.
    expect((await apiClient(context.app, member.apiKey)('GET', '/api/account')).statusCode).toBe(200)

    // Break-glass: the instance administrator, a member here, signs in with a password, and it is recorded.
    const administratorPerson = await context.database.db.selectFrom('memberships').select('person_id').where('account_id', '=', administration.id).executeTakeFirstOrThrow()
    await context.services.members.addMember(commandLineActor(workspace.id), administratorPerson.person_id, 'admin')
    const glass = await signIn(context.app, administration.username, 'administrator password')
    expect(glass.statusCode).toBe(200)
    const switched = await dashboardClient(context.app, sessionCookieOf(glass)!)('PUT', `/api/workspace/${workspace.id}/switch`)
    expect(switched.statusCode, switched.body).toBe(200)
    const audit = await context.database.db.selectFrom('audit_log').select(['action', 'person_id']).where('account_id', '=', workspace.id).where('action', '=', 'sso.break_glass').execute()
    expect(audit).toEqual([{ action: 'sso.break_glass', person_id: administratorPerson.person_id }])
  })
})

describe('bad input at the callback', () => {
  async function expectRefused(response: Awaited<ReturnType<typeof callback>>, reason: string, words: string) {
    expectSentBack(response, reason)
    // The state cookie is forgotten, and the page says what to do.
    expect(String(response.headers['set-cookie'])).toMatch(/linkwell_oidc_state=; Max-Age=0/)
    expect(SSO_EXPLANATIONS[reason as SingleSignOnReason].title + SSO_EXPLANATIONS[reason as SingleSignOnReason].advice).toContain(words)
  }

  it('refuses a missing, wrong or used state, and a replayed code', async () => {
    const account = providerAccount({ email: `${Date.now()}.state@corp.test` })
    const workspace = await createAccount(context)
    await createMember(context, workspace, 'viewer')
    await mapGroups(workspace, [{ group: 'state-testers', role: 'viewer' }])
    account.groups = ['state-testers']
    const before = await refusalsRecorded('state')

    await expectRefused(await callback('/api/auth/oidc/callback'), 'state', 'This sign-in link is not valid any more')
    const started = await start()
    const back = await signInAtProvider(started.location, { login: account.email, password: account.password })
    // Another browser's state cookie (or none) does not finish this sign-in.
    const other = await start()
    await expectRefused(await callback(back, other.stateCookie), 'state', 'not valid any more')
    await expectRefused(await callback(back), 'state', 'not valid any more')
    expect(await refusalsRecorded('state')).toBe(before + 3)

    // The right one signs in, once.
    const first = await callback(back, started.stateCookie)
    expect(first.statusCode, first.body).toBe(302)
    await expectRefused(await callback(back, started.stateCookie), 'state', 'not valid any more')

    // The used code under a fresh state of this browser: the provider refuses it.
    const fresh = await start()
    const freshState = fresh.stateCookie.split('=')[1]!
    const replay = new URL(back)
    replay.searchParams.set('state', freshState)
    await expectRefused(await callback(replay, fresh.stateCookie), 'code', 'The sign-in code was used already or has expired')
  })

  it.each([
    ['signed by another key', 'token_signature', 'could not be verified', (payload: Record<string, unknown>) => ({ payload, key: 'other' as const })],
    ['for another audience', 'token_audience', 'meant for another application', (payload: Record<string, unknown>) => ({ payload: { ...payload, aud: 'another-client' }, key: 'provider' as const })],
    ['expired', 'token_expired', 'has expired', (payload: Record<string, unknown>) => ({ payload: { ...payload, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }, key: 'provider' as const })],
    ['with another nonce', 'token_nonce', 'belongs to another sign-in', (payload: Record<string, unknown>) => ({ payload: { ...payload, nonce: 'not the nonce we sent' }, key: 'provider' as const })],
  ])('refuses an ID token %s', async (_case, reason, words, tamper) => {
    const workspace = await createAccount(context)
    const member = await createMember(context, workspace, 'viewer')
    const account = providerAccount({ email: member.email })
    const before = await refusalsRecorded(reason)
    const started = await start()
    const back = await signInAtProvider(started.location, { login: account.email, password: account.password })
    idp.tamper = tamper
    try {
      await expectRefused(await callback(back, started.stateCookie), reason, words)
    } finally {
      idp.tamper = null
    }
    expect(await refusalsRecorded(reason)).toBe(before + 1)
    expect(await context.database.db.selectFrom('sessions').select('id').where('person_id', '=', member.personId).execute()).toEqual([])
    expect(await context.database.db.selectFrom('sso_identities').select('id').where('subject', '=', account.sub).execute()).toEqual([])
  })

  it('refuses an error the provider answered with', async () => {
    const started = await start()
    const state = started.stateCookie.split('=')[1]!
    await expectRefused(await callback(`/api/auth/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(idp.issuer)}`, started.stateCookie), 'provider_refused', 'did not sign you in')
  })

  it('sends an unknown provider back to the sign-in page, and lists the provider as available', async () => {
    expectSentBack(await context.app.inject({ method: 'GET', url: '/api/auth/oidc/start?provider=nobody' }), 'unknown_provider')
    const list = await context.app.inject({ method: 'GET', url: '/api/auth/oidc/providers' })
    expect(JSON.parse(list.body)).toEqual({ error: 0, data: [{ name: 'default', label: new URL(idp.issuer).host, available: true, start: `${PUBLIC_URL}/api/auth/oidc/start?provider=default` }] })
  })
})

describe('the settings', () => {
  it('answers a bad workspace setting with the envelope, and only an owner may change it', async () => {
    const workspace = await createAccount(context)
    const api = apiClient(context.app, workspace.apiKey)
    const bad = await api('PUT', '/api/workspace/sso', { provider: 'default', required: 'yes', mapping: [] })
    expect(bad.statusCode).toBe(400)
    expect(bad.data).toMatchObject({ error: 1, code: 'validation_failed' })
    const unknown = await api('PUT', '/api/workspace/sso', { provider: 'nobody', required: false, mapping: [] })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'provider' })
    const twice = await api('PUT', '/api/workspace/sso', { provider: 'default', required: false, mapping: [{ group: 'a', role: 'viewer' }, { group: 'a', role: 'admin' }] })
    expect(twice.statusCode).toBe(400)
    const role = await api('PUT', '/api/workspace/sso', { provider: 'default', required: false, mapping: [{ group: 'a', role: 'god' }] })
    expect(role.statusCode).toBe(400)
    const editor = await createMember(context, workspace, 'editor')
    expect((await apiClient(context.app, editor.apiKey)('PUT', '/api/workspace/sso', { provider: 'default', required: true, mapping: [] })).statusCode).toBe(403)
    const read = await api('GET', '/api/workspace/sso')
    expect(read.data.data).toEqual({ provider: null, required: false, mapping: [], providers: [{ name: 'default', label: new URL(idp.issuer).host }] })
  })

  it('keeps providers for the administrator, the client secret sealed; refuses others and bad input', async () => {
    const admin = apiClient(context.app, administration.apiKey)
    const added = await admin('POST', '/api/admin/sso/provider/add', { name: 'second', label: 'Second', issuer: idp.issuer, clientid: 'x', clientsecret: 'the second secret' })
    expect(added.statusCode, added.body).toBe(201)
    const stored = await context.database.db.selectFrom('sso_providers').select('client_secret').where('name', '=', 'second').executeTakeFirstOrThrow()
    expect(stored.client_secret).toMatch(/^sealed:v1:/)
    expect(added.body).not.toContain('the second secret')
    expect((await admin('POST', '/api/admin/sso/provider/add', { name: 'second', label: 'Again', issuer: idp.issuer, clientid: 'x', clientsecret: 's' })).statusCode).toBe(400)
    expect((await admin('POST', '/api/admin/sso/provider/add', { name: 'Bad Name', label: 'x', issuer: idp.issuer, clientid: 'x', clientsecret: 's' })).statusCode).toBe(400)
    expect((await admin('POST', '/api/admin/sso/provider/add', { name: 'third', label: 'x', issuer: 'ftp://idp', clientid: 'x', clientsecret: 's' })).data).toMatchObject({ code: 'validation_failed', field: 'issuer' })
    expect((await apiClient(context.app, (await createAccount(context)).apiKey)('GET', '/api/admin/sso/providers')).statusCode).toBe(403)
    const list = await admin('GET', '/api/admin/sso/providers')
    expect(list.data.data.callback).toBe(CALLBACK)
    expect(list.data.data.providers.map((provider: { name: string }) => provider.name)).toEqual(['second'])
    expect((await admin('DELETE', `/api/admin/sso/provider/${added.data.data.id}/delete`)).statusCode).toBe(200)
    expect((await admin('DELETE', `/api/admin/sso/provider/${added.data.data.id}/delete`)).statusCode).toBe(404)
  })
})

describe('a provider that is down', () => {
  it('is listed as unavailable, its start goes back to the sign-in page that says so, and passwords keep working', async () => {
    const down = await startIdentityProvider(CALLBACK)
    const issuer = down.issuer
    await down.close()
    const app = await createTestApp({ env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y', OIDC_ALLOW_HTTP: '1' } })
    try {
      const list = await app.app.inject({ method: 'GET', url: '/api/auth/oidc/providers' })
      expect(list.statusCode).toBe(200)
      expect(JSON.parse(list.body).data[0].available).toBe(false)
      expectSentBack(await app.app.inject({ method: 'GET', url: '/api/auth/oidc/start' }), 'unavailable')
      const owner = await createAccount(app, { password: 'a password that works' })
      expect((await signIn(app.app, owner.username, 'a password that works')).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })

  it('refuses an http issuer that is not on a loopback address, and one on loopback without OIDC_ALLOW_HTTP', async () => {
    const app = await createTestApp({ env: { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret } })
    try {
      expectSentBack(await app.app.inject({ method: 'GET', url: '/api/auth/oidc/start' }), 'insecure_issuer')
    } finally {
      await app.close()
    }
  })
})
