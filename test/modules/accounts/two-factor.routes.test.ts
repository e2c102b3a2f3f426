// Two-factor sign-in (issue 20, ADR 025) through the API as the dashboard calls it: enrolment with a
// QR code and one code, recovery codes, the sign-in's second step, replayed and used codes refused,
// the throttle, turning it off, an owner's requirement, the members list and the audit log.
import { codeOf } from '../../helpers/totp.js'
import { describe, expect, it } from 'vitest'
import { hashApiKey } from '../../../src/core/secrets.js'
import { dashboardClient, sessionCookieOf, signedInClient, signIn, type DashboardClient } from '../../helpers/dashboard-client.js'
import { createMember } from '../../helpers/factories.js'
import { apiClient, createAccount, useTestApp, type ApiResponse } from '../../helpers/test-app.js'

const PASSWORD = 'two factor password'

function expectRefusal(response: ApiResponse, status: number, code: string, field?: string) {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.data).toEqual({ error: 1, message: expect.any(String), code, ...(field ? { field } : {}) })
}

describe('two-factor sign-in', () => {
  const { context } = useTestApp()

  /** A new workspace whose owner signs in with a password, and their dashboard client. */
  async function signedInOwner() {
    const owner = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, owner.username, PASSWORD)
    return { owner, client }
  }

  /** Enrols the client's person; answers the secret and the recovery codes. */
  async function enrol(client: DashboardClient): Promise<{ secret: string; codes: string[] }> {
    const setup = await client('POST', '/api/auth/two-factor/setup')
    expect(setup.statusCode, setup.body).toBe(200)
    const { secret } = setup.data.data
    const enabled = await client('POST', '/api/auth/two-factor/enable', { code: codeOf(secret) })
    expect(enabled.statusCode, enabled.body).toBe(200)
    return { secret, codes: enabled.data.data.recoverycodes }
  }

  /** Signs in with the password: the session waits for its code. */
  async function halfSignedIn(login: string) {
    const response = await signIn(context.app, login, PASSWORD)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.data).toEqual({ error: 0, data: null, step: 'code' })
    return dashboardClient(context.app, sessionCookieOf(response)!)
  }

  it('enrols with a QR code drawn by our renderer and one code, then shows ten recovery codes once, stored hashed', async () => {
    const { owner, client } = await signedInOwner()
    expect((await client('GET', '/api/auth/two-factor')).data).toEqual({ error: 0, data: { enabled: false, recoverycodes: 0, required: false } })
    const setup = await client('POST', '/api/auth/two-factor/setup')
    const { secret, uri, qr } = setup.data.data
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(uri).toBe(`otpauth://totp/${encodeURIComponent(`Linkwell (${new URL(context.services.config.publicUrl).host})`)}:${encodeURIComponent(owner.email)}?secret=${secret}&period=30&digits=6&algorithm=SHA1&issuer=${encodeURIComponent(`Linkwell (${new URL(context.services.config.publicUrl).host})`)}`)
    const svg = Buffer.from(qr.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8')
    expect(svg).toMatch(/^<svg[^>]+viewBox/)

    // A wrong code leaves it off.
    expectRefusal(await client('POST', '/api/auth/two-factor/enable', { code: String((Number(codeOf(secret)) + 500_000) % 1_000_000).padStart(6, '0') }), 400, 'wrong_code', 'code')
    expectRefusal(await client('POST', '/api/auth/two-factor/enable', { code: '' }), 400, 'validation_failed', 'code')
    expectRefusal(await client('POST', '/api/auth/two-factor/enable', {}), 400, 'validation_failed', 'code')
    expect((await client('GET', '/api/auth/two-factor')).data.data.enabled).toBe(false)

    const enabled = await client('POST', '/api/auth/two-factor/enable', { code: codeOf(secret) })
    expect(enabled.statusCode, enabled.body).toBe(200)
    const codes: string[] = enabled.data.data.recoverycodes
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/)
    expect((await client('GET', '/api/auth/two-factor')).data).toEqual({ error: 0, data: { enabled: true, recoverycodes: 10, required: false } })

    const person = (await context.database.db.selectFrom('people').selectAll().where('username', '=', owner.username).executeTakeFirstOrThrow())
    const stored = await context.database.db.selectFrom('recovery_codes').selectAll().where('person_id', '=', person.id).execute()
    expect(stored.map((row) => row.code_hash).sort()).toEqual(codes.map((code) => hashApiKey(code.replace('-', ''))).sort())
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.slice(0, 5))
    // Once on, setting up again is refused until it is turned off.
    expectRefusal(await client('POST', '/api/auth/two-factor/setup'), 400, 'bad_request')
  })

  it('ends the person\'s other sessions when the second factor is turned on; the one that turned it on and their keys go on', async () => {
    const { owner, client } = await signedInOwner()
    const { client: elsewhere } = await signedInClient(context.app, owner.username, PASSWORD)
    const otherWorkspace = await createAccount(context, { password: 'another person password' })
    const { client: stranger } = await signedInClient(context.app, otherWorkspace.username, 'another person password')
    expect((await elsewhere('GET', '/api/account')).statusCode).toBe(200)
    await enrol(client)
    expectRefusal(await elsewhere('GET', '/api/account'), 401, 'invalid_session')
    expect((await client('GET', '/api/account')).statusCode).toBe(200)
    expect((await client('GET', '/api/auth/sessions')).data.data.sessions).toHaveLength(1)
    expect((await apiClient(context.app, owner.apiKey)('GET', '/api/account')).statusCode).toBe(200)
    // Nobody else's sessions.
    expect((await stranger('GET', '/api/account')).statusCode).toBe(200)
  })

  it('signs in in two steps: the password opens a session that may only send its code; a code replaces it with a full one; a replayed code is refused', async () => {
    const { owner, client } = await signedInOwner()
    const { secret } = await enrol(client)
    const half = await halfSignedIn(owner.username)
    // Nothing of the workspace before the code.
    expect((await half('GET', '/api/auth/session')).data).toEqual({ error: 0, data: null, step: 'code' })
    expectRefusal(await half('GET', '/api/account'), 403, 'second_factor_needed')
    expectRefusal(await half('GET', '/api/urls'), 403, 'second_factor_needed')
    expectRefusal(await half('POST', '/api/auth/two-factor/setup'), 403, 'second_factor_needed')

    // The enrolment used this step's code: it cannot sign in again.
    expectRefusal(await half('POST', '/api/auth/two-factor/verify', { code: codeOf(secret) }), 400, 'wrong_code', 'code')
    expectRefusal(await half('POST', '/api/auth/two-factor/verify', { code: 'nonsense!' }), 400, 'wrong_code', 'code')
    const next = codeOf(secret, 1)
    const verified = await half('POST', '/api/auth/two-factor/verify', { code: next })
    expect(verified.statusCode, verified.body).toBe(200)
    expect(verified.data).toEqual({ error: 0, data: expect.objectContaining({ id: owner.id, username: owner.username }) })
    const full = dashboardClient(context.app, sessionCookieOf(verified)!)
    expect((await full('GET', '/api/account')).statusCode).toBe(200)
    // The half-signed-in session is gone.
    expectRefusal(await half('GET', '/api/account'), 401, 'invalid_session')

    // The same code again, in another sign-in: refused.
    const again = await halfSignedIn(owner.email)
    expectRefusal(await again('POST', '/api/auth/two-factor/verify', { code: next }), 400, 'wrong_code', 'code')
    // A full session has no second step to take.
    expectRefusal(await full('POST', '/api/auth/two-factor/verify', { code: codeOf(secret, 1) }), 400, 'bad_request')
  })

  it('signs in with a recovery code once; the used code is refused the second time', async () => {
    const { owner, client } = await signedInOwner()
    const { codes } = await enrol(client)
    const first = await halfSignedIn(owner.username)
    const used = await first('POST', '/api/auth/two-factor/verify', { code: ` ${codes[3]!.toUpperCase()} ` })
    expect(used.statusCode, used.body).toBe(200)
    expect((await client('GET', '/api/auth/two-factor')).data.data.recoverycodes).toBe(9)
    const second = await halfSignedIn(owner.username)
    expectRefusal(await second('POST', '/api/auth/two-factor/verify', { code: codes[3]! }), 400, 'wrong_code', 'code')
    expect((await second('POST', '/api/auth/two-factor/verify', { code: codes[4]!.replace('-', '') })).statusCode).toBe(200)
  })

  it('counts wrong codes apart from passwords: rounds of the right password and wrong codes meet a 429 with Retry-After (issue 36)', async () => {
    const { owner, client } = await signedInOwner()
    await enrol(client)
    let refused: ApiResponse | undefined
    // Each round: the right password, then up to nine wrong codes (a recovery code's shape: never right).
    for (let round = 0; round < 3 && !refused; round += 1) {
      const half = await halfSignedIn(owner.username)
      for (let attempt = 0; attempt < 9; attempt += 1) {
        const response = await half('POST', '/api/auth/two-factor/verify', { code: 'aaaaa-aaaaa' })
        if (response.statusCode === 429) refused = response
        if (response.statusCode !== 400) break
      }
    }
    expect(refused, 'no 429 in three rounds').toBeDefined()
    expectRefusal(refused!, 429, 'rate_limited')
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('ends a waiting session at its fifth wrong code: the person signs in again, and a right code then works', async () => {
    const { owner, client } = await signedInOwner()
    const { secret } = await enrol(client)
    const half = await halfSignedIn(owner.username)
    for (let attempt = 1; attempt < 5; attempt += 1) expectRefusal(await half('POST', '/api/auth/two-factor/verify', { code: 'aaaaa-aaaaa' }), 400, 'wrong_code', 'code')
    const ended = await half('POST', '/api/auth/two-factor/verify', { code: 'aaaaa-aaaaa' })
    expectRefusal(ended, 401, 'invalid_session')
    expect(ended.data.message).toBe('Too many wrong codes. Please sign in again.')
    expect(String(ended.headers['set-cookie'])).toMatch(/linkwell_session=;/)
    // The session is gone, the right code included.
    expectRefusal(await half('POST', '/api/auth/two-factor/verify', { code: codeOf(secret, 1) }), 401, 'invalid_session')
    const again = await halfSignedIn(owner.username)
    expect((await again('POST', '/api/auth/two-factor/verify', { code: codeOf(secret, 1) })).statusCode).toBe(200)
  })

  it('turns off with a code (not without one), and a key can neither set up nor turn off a second factor', async () => {
    const { owner, client } = await signedInOwner()
    const { secret, codes } = await enrol(client)
    expectRefusal(await client('POST', '/api/auth/two-factor/disable', { code: '000000' === codeOf(secret, 1) ? '111111' : '000000' }), 400, 'wrong_code', 'code')
    const key = apiClient(context.app, owner.apiKey)
    expectRefusal(await key('POST', '/api/auth/two-factor/disable', { code: codes[0] }), 403, 'forbidden')
    expectRefusal(await key('POST', '/api/auth/two-factor/setup'), 403, 'forbidden')
    // Keys are unaffected by a second factor.
    expect((await key('GET', '/api/account')).statusCode).toBe(200)
    expect((await client('POST', '/api/auth/two-factor/disable', { code: codes[0] })).statusCode).toBe(200)
    expect((await client('GET', '/api/auth/two-factor')).data.data).toEqual({ enabled: false, recoverycodes: 0, required: false })
    expectRefusal(await client('POST', '/api/auth/two-factor/disable', { code: codes[1] }), 400, 'bad_request')
    // Signing in is one step again.
    const response = await signIn(context.app, owner.username, PASSWORD)
    expect(response.data).toEqual({ error: 0, data: expect.objectContaining({ id: owner.id }) })
  })

  it('lets an owner require a second factor: members without one may only set it up, then work; the members list and the audit log show it', async () => {
    const { owner, client } = await signedInOwner()
    // Not before the owner has one.
    expectRefusal(await client('PUT', '/api/workspace/two-factor', { required: true }), 400, 'bad_request', 'required')
    expectRefusal(await client('PUT', '/api/workspace/two-factor', { required: 'yes' }), 400, 'validation_failed', 'required')
    const { secret } = await enrol(client)
    const editor = await createMember(context, owner, 'editor', PASSWORD)
    const editorSession = (await signedInClient(context.app, editor.username, PASSWORD)).client
    expectRefusal(await editorSession('PUT', '/api/workspace/two-factor', { required: true }), 403, 'forbidden')
    expect((await client('PUT', '/api/workspace/two-factor', { required: true })).statusCode).toBe(200)

    // The editor's open session is limited to enrolment at once, and so is their next sign-in.
    expectRefusal(await editorSession('GET', '/api/urls'), 403, 'second_factor_needed')
    const signedIn = await signIn(context.app, editor.username, PASSWORD)
    expect(signedIn.data).toEqual({ error: 0, data: expect.objectContaining({ id: owner.id }), step: 'enrol' })
    const fresh = dashboardClient(context.app, sessionCookieOf(signedIn)!)
    expect((await fresh('GET', '/api/auth/session')).data.step).toBe('enrol')
    expect((await fresh('GET', '/api/auth/two-factor')).data.data.required).toBe(true)
    // The editor's key is unaffected.
    expect((await apiClient(context.app, editor.apiKey)('GET', '/api/urls')).statusCode).toBe(200)

    const before = (await client('GET', '/api/members')).data.data.members
    expect(before.find((member: { id: number }) => member.id === editor.personId).twofactor).toBe(false)
    expect(before.find((member: { you: boolean }) => member.you).twofactor).toBe(true)
    await enrol(fresh)
    expect((await fresh('GET', '/api/urls')).statusCode).toBe(200)
    // Their other session, opened with the password alone, was signed out when the factor went on.
    expectRefusal(await editorSession('GET', '/api/urls'), 401, 'invalid_session')
    const after = (await client('GET', '/api/members')).data.data.members
    expect(after.find((member: { id: number }) => member.id === editor.personId).twofactor).toBe(true)

    expect((await client('PUT', '/api/workspace/two-factor', { required: false })).statusCode).toBe(200)
    expect((await client('POST', '/api/auth/two-factor/disable', { code: codeOf(secret, 1) })).statusCode).toBe(200)
    const actions = (await apiClient(context.app, owner.apiKey)('GET', '/api/audit?limit=50')).data.data.entries.map((entry: { action: string }) => entry.action)
    for (const action of ['two_factor.enabled', 'workspace.two_factor_required', 'workspace.two_factor_optional', 'two_factor.disabled']) expect(actions).toContain(action)
    expect(actions.filter((action: string) => action === 'two_factor.enabled')).toHaveLength(2)
  })
})
