// The members API (issue 20): invitations (a single-use link valid 7 days, mailed when SMTP_URL is
// set: received here by an in-process SMTP server), accepting as a new person or as one signed in,
// members listed, re-roled and removed, invitations withdrawn; workspaces made and switched.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DASHBOARD_HEADERS, dashboardClient, sessionCookieOf, signedInClient } from '../../helpers/dashboard-client.js'
import { createMember } from '../../helpers/factories.js'
import { apiClient, createAccount, createTestApp, PUBLIC_URL, useTestApp, withJsonData, type TestContext } from '../../helpers/test-app.js'

const PASSWORD = 'members api password'
// The token rides in the fragment, which no server logs (issue 36).
const TOKEN_URL = new RegExp(`^${PUBLIC_URL}/app/invitation#([A-Za-z0-9_-]{43})$`)

/** POST /api/invitation/accept as the dashboard sends it, with a session cookie or without. */
async function accept(context: TestContext, body: Record<string, unknown>, cookie?: string) {
  const response = await context.app.inject({
    method: 'POST',
    url: '/api/invitation/accept',
    headers: { 'content-type': 'application/json', ...DASHBOARD_HEADERS, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  })
  return withJsonData(response)
}

/** POST /api/invitation/details as the dashboard sends it. */
async function detailsOf(context: TestContext, token: string) {
  const response = await context.app.inject({ method: 'POST', url: '/api/invitation/details', headers: { 'content-type': 'application/json', ...DASHBOARD_HEADERS }, payload: JSON.stringify({ token }) })
  return withJsonData(response)
}

function tokenOf(url: string): string {
  const match = TOKEN_URL.exec(url)
  if (!match) throw new Error(`not an invitation link: ${url}`)
  return match[1]!
}

describe('members and invitations', () => {
  // People here make workspaces of their own (who may is workspace-creation.test.ts).
  const { context } = useTestApp({ env: { WORKSPACE_CREATION: 'anyone' } })

  it('invites an address: a link to copy, listed as pending; a new person accepts once and is signed in with the role', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const api = apiClient(context.app, owner.apiKey)
    const invited = await api('POST', '/api/member/invite', { email: ' New.Editor@Example.com ', role: 'editor' })
    expect(invited.statusCode).toBe(201)
    expect(invited.data).toEqual({ error: 0, id: expect.any(Number), url: expect.stringMatching(TOKEN_URL), expires: expect.any(String), mailed: false })
    const token = tokenOf(invited.data.url)

    const listed = await api('GET', '/api/members')
    expect(listed.data.data).toEqual({
      members: [{ id: expect.any(Number), username: owner.username, email: owner.email, role: 'owner', twofactor: false, lastsignin: null, joined: expect.any(String), you: true }],
      invitations: [{ id: invited.data.id, email: 'new.editor@example.com', role: 'editor', created: expect.any(String), expires: invited.data.expires }],
    })

    const details = await detailsOf(context, token)
    expect(details.data).toEqual({ error: 0, data: { workspace: owner.username, email: 'new.editor@example.com', role: 'editor', expires: invited.data.expires, registered: false } })

    const joined = await accept(context, { token, username: 'new_editor', password: PASSWORD })
    expect(joined.statusCode, joined.body).toBe(200)
    expect(joined.data.data).toMatchObject({ id: owner.id, username: owner.username })
    const editor = dashboardClient(context.app, sessionCookieOf(joined)!)
    expect((await editor('POST', '/api/url/add', { url: 'https://example.com/by-the-editor' })).statusCode).toBe(201)
    expect((await editor('POST', '/api/domain/add', { domain: 'https://editor.example.com' })).statusCode).toBe(403)

    // Single use: the link is spent, and no longer pending.
    expect((await accept(context, { token, username: 'second_try', password: PASSWORD })).statusCode).toBe(404)
    expect((await detailsOf(context, token)).statusCode).toBe(404)
    const after = (await api('GET', '/api/members')).data.data
    expect(after.invitations).toEqual([])
    expect(after.members.map((member: { username: string; role: string }) => [member.username, member.role])).toEqual([[owner.username, 'owner'], ['new_editor', 'editor']])
    // They sign in with their own password from now on.
    expect((await signedInClient(context.app, 'new.editor@example.com', PASSWORD)).cookie).toBeTruthy()
  })

  it('adds a person who is signed in, and makes the workspace their session\'s current one', async () => {
    const team = await createAccount(context)
    const person = await createAccount(context, { password: PASSWORD })
    const invited = await apiClient(context.app, team.apiKey)('POST', '/api/member/invite', { email: person.email, role: 'viewer' })
    const { client, cookie } = await signedInClient(context.app, person.username, PASSWORD)
    const details = await detailsOf(context, tokenOf(invited.data.url))
    expect(details.data.data.registered).toBe(true)
    const joined = await accept(context, { token: tokenOf(invited.data.url) }, cookie)
    expect(joined.statusCode, joined.body).toBe(200)
    expect((await client('GET', '/api/account')).data.data.id).toBe(team.id)
    const workspaces = (await client('GET', '/api/workspaces')).data.data.workspaces as Array<{ id: number }>
    expect(workspaces.sort((a, b) => a.id - b.id)).toEqual([
      { id: team.id, name: team.username, role: 'viewer', current: true },
      { id: person.id, name: person.username, role: 'owner', current: false },
    ])
    expect((await client('POST', '/api/url/add', { url: 'https://example.com/viewer' })).data.message).toBe('You do not have permission to access this endpoint.')
    expect((await client('PUT', `/api/workspace/${person.id}/switch`)).data.data.id).toBe(person.id)
    expect((await client('POST', '/api/url/add', { url: 'https://example.com/home' })).statusCode).toBe(201)
  })

  it('refuses an invitation accepted with a key, without a username or password, or to a taken address', async () => {
    const team = await createAccount(context)
    const someone = await createAccount(context)
    const api = apiClient(context.app, team.apiKey)
    const token = tokenOf((await api('POST', '/api/member/invite', { email: someone.email, role: 'editor' })).data.url)
    expect((await apiClient(context.app, someone.apiKey)('POST', '/api/invitation/accept', { token })).statusCode).toBe(403)
    expect((await accept(context, { token, password: PASSWORD })).data).toMatchObject({ code: 'validation_failed', field: 'username' })
    const taken = await accept(context, { token, username: 'taken_address', password: PASSWORD })
    expect(taken.data).toMatchObject({ code: 'duplicate', field: 'email' })
    // Accepting needs the dashboard's proof of origin, like signing in.
    const crossSite = await context.app.inject({ method: 'POST', url: '/api/invitation/accept', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ token, username: 'cross_site', password: PASSWORD }) })
    expect(crossSite.statusCode).toBe(403)
    expect(crossSite.json()).toMatchObject({ code: 'csrf_failed' })
    expect((await accept(context, { token: 'x'.repeat(43), username: 'nobody_here', password: PASSWORD })).statusCode).toBe(404)
  })

  it('withdraws an invitation, and lets an expired one go', async () => {
    const team = await createAccount(context)
    const api = apiClient(context.app, team.apiKey)
    const withdrawn = await api('POST', '/api/member/invite', { email: 'withdrawn@example.com', role: 'viewer' })
    expect((await api('DELETE', `/api/invitation/${withdrawn.data.id}/delete`)).statusCode).toBe(200)
    expect((await accept(context, { token: tokenOf(withdrawn.data.url), username: 'withdrawn_one', password: PASSWORD })).statusCode).toBe(404)
    expect((await api('DELETE', `/api/invitation/${withdrawn.data.id}/delete`)).statusCode).toBe(404)
    const expired = await api('POST', '/api/member/invite', { email: 'late@example.com', role: 'viewer' })
    await context.database.db.updateTable('invitations').set({ expires_at: '2001-01-01 00:00:00' }).where('id', '=', expired.data.id).execute()
    expect((await accept(context, { token: tokenOf(expired.data.url), username: 'late_one', password: PASSWORD })).statusCode).toBe(404)
    expect((await api('GET', '/api/members')).data.data.invitations).toEqual([])
    const other = await createAccount(context)
    const foreign = await apiClient(context.app, other.apiKey)('POST', '/api/member/invite', { email: 'foreign@example.com', role: 'viewer' })
    expect((await api('DELETE', `/api/invitation/${foreign.data.id}/delete`)).statusCode).toBe(404)
  })

  it('changes roles and removes members; keeps the last owner; only an owner makes an owner', async () => {
    const team = await createAccount(context)
    const api = apiClient(context.app, team.apiKey)
    const admin = await createMember(context, team, 'admin', PASSWORD)
    const editor = await createMember(context, team, 'editor', PASSWORD)
    const adminApi = apiClient(context.app, admin.apiKey)
    const ownerId = (await context.services.apiKeys.authenticate(team.apiKey)).personId!
    expect((await adminApi('PUT', `/api/member/${editor.personId}/update`, { role: 'viewer' })).statusCode).toBe(200)
    expect((await adminApi('PUT', `/api/member/${editor.personId}/update`, { role: 'owner' })).statusCode).toBe(403)
    expect((await adminApi('POST', '/api/member/invite', { email: 'future-owner@example.com', role: 'owner' })).statusCode).toBe(403)
    expect((await apiClient(context.app, editor.apiKey)('POST', '/api/member/invite', { email: 'nope@example.com', role: 'viewer' })).data.message).toBe('You do not have access to this endpoint with this API key.')
    const lastOwner = await api('PUT', `/api/member/${ownerId}/update`, { role: 'admin' })
    expect(lastOwner.statusCode).toBe(400)
    expect(lastOwner.data).toEqual({ error: 1, code: 'last_owner', message: 'A workspace must keep at least one owner. Make another member an owner first.', field: 'role' })
    expect((await api('DELETE', `/api/member/${ownerId}/delete`)).data.code).toBe('last_owner')
    expect((await api('PUT', `/api/member/${editor.personId}/update`, { role: 'boss' })).statusCode).toBe(400)
    expect((await api('DELETE', `/api/member/${editor.personId}/delete`)).statusCode).toBe(200)
    expect((await apiClient(context.app, editor.apiKey)('GET', '/api/urls')).statusCode).toBe(401)
    // Another workspace's member is not found.
    const other = await createAccount(context)
    const otherId = (await context.services.apiKeys.authenticate(other.apiKey)).personId!
    expect((await api('PUT', `/api/member/${otherId}/update`, { role: 'viewer' })).statusCode).toBe(404)
    expect((await api('DELETE', `/api/member/${otherId}/delete`)).statusCode).toBe(404)
  })

  it('makes a new workspace its maker owns, and switches the session to it', async () => {
    const person = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, person.username, PASSWORD)
    const created = await client('POST', '/api/workspace/add', { name: `${person.username}-team` })
    expect(created.statusCode).toBe(201)
    expect(created.data).toEqual({ error: 0, id: expect.any(Number), name: `${person.username}-team` })
    expect((await client('POST', '/api/workspace/add', { name: `${person.username}-team` })).data).toMatchObject({ code: 'duplicate', field: 'name' })
    expect((await client('POST', '/api/workspace/add', { name: 'x' })).data).toMatchObject({ code: 'validation_failed', field: 'name' })
    const switched = await client('PUT', `/api/workspace/${created.data.id}/switch`)
    expect(switched.data.data).toMatchObject({ id: created.data.id, username: `${person.username}-team`, email: person.email })
    expect((await client('GET', '/api/links')).statusCode).toBe(404)
    expect((await client('GET', '/api/urls')).data.data.urls).toEqual([])
    expect((await client('GET', '/api/members')).data.data.members).toEqual([expect.objectContaining({ username: person.username, role: 'owner', you: true })])
    const stranger = await createAccount(context)
    expect((await client('PUT', `/api/workspace/${stranger.id}/switch`)).statusCode).toBe(404)
    // A key acts for its own workspace: it has no session to switch.
    expect((await apiClient(context.app, person.apiKey)('PUT', `/api/workspace/${created.data.id}/switch`)).statusCode).toBe(403)
  })

  it('deletes the workspace its owner is in, with its records, keys and only members; the session moves to another workspace', async () => {
    const team = await createAccount(context, { password: PASSWORD })
    const editor = await createMember(context, team, 'editor', PASSWORD)
    const made = await apiClient(context.app, team.apiKey)('POST', '/api/url/add', { url: 'https://example.com/gone-with-the-team', custom: `gone-${team.id}` })
    expect(made.statusCode).toBe(201)
    const { client: owner } = await signedInClient(context.app, team.username, PASSWORD)

    // Nowhere to go: the owner's only workspace stays.
    const only = await owner('DELETE', `/api/workspace/${team.id}/delete`)
    expect(only.statusCode).toBe(400)
    expect(only.data).toEqual({ error: 1, code: 'workspace_kept', message: 'This is your only workspace. Create another one first, or ask the instance\'s administrator to delete your account.' })
    const spare = (await owner('POST', '/api/workspace/add', { name: `${team.username}-spare` })).data as { id: number; name: string }
    // Only an owner, and only the workspace the session is in.
    const { client: asEditor } = await signedInClient(context.app, editor.username, PASSWORD)
    expect((await asEditor('DELETE', `/api/workspace/${team.id}/delete`)).data).toEqual({ error: 1, code: 'forbidden', message: 'You do not have permission to access this endpoint.' })
    expect((await owner('DELETE', `/api/workspace/${spare.id}/delete`)).data).toMatchObject({ code: 'validation_failed', field: 'id' })
    const stranger = await createAccount(context)
    expect((await owner('DELETE', `/api/workspace/${stranger.id}/delete`)).statusCode).toBe(404)

    const deleted = await owner('DELETE', `/api/workspace/${team.id}/delete`)
    expect(deleted.statusCode, deleted.body).toBe(200)
    expect(deleted.data).toEqual({ error: 0, message: 'Workspace deleted.', workspace: { id: spare.id, name: spare.name } })
    // The owner's session is in the spare workspace now, where the deletion is logged.
    expect((await owner('GET', '/api/workspaces')).data.data.workspaces).toEqual([{ id: spare.id, name: spare.name, role: 'owner', current: true }])
    expect((await owner('GET', '/api/urls')).data.data.urls).toEqual([])
    const log = (await owner('GET', '/api/audit?resource=account')).data.data.entries as Array<Record<string, unknown>>
    expect(log[0]).toMatchObject({ action: 'workspace.deleted', resourceId: team.id, via: 'dashboard', key: null })
    // Its link no longer answers, its keys are refused, and the editor who belonged nowhere else is gone.
    expect((await context.app.inject({ method: 'GET', url: `/gone-${team.id}` })).statusCode).toBe(404)
    expect((await apiClient(context.app, team.apiKey)('GET', '/api/urls')).statusCode).toBe(401)
    expect((await apiClient(context.app, editor.apiKey)('GET', '/api/urls')).statusCode).toBe(401)
    expect((await asEditor('GET', '/api/urls')).statusCode).toBe(401)
    expect(await context.database.db.selectFrom('people').select('id').where('id', '=', editor.personId).executeTakeFirst()).toBeUndefined()
  })

  it('keeps the instance\'s administration workspace', async () => {
    const admin = await createAccount(context, { password: PASSWORD, isAdmin: true })
    const { client } = await signedInClient(context.app, admin.username, PASSWORD)
    await client('POST', '/api/workspace/add', { name: `${admin.username}-side` })
    const refused = await client('DELETE', `/api/workspace/${admin.id}/delete`)
    expect(refused.statusCode).toBe(400)
    expect(refused.data).toEqual({ error: 1, code: 'workspace_kept', message: 'This workspace holds the instance\'s administration and cannot be deleted.' })
  })
})

describe('invitations by e-mail', () => {
  const received: Array<{ to: string; body: string }> = []
  let server: SMTPServer
  let context: TestContext

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), body: Buffer.concat(chunks).toString('utf8') })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.server.address() as AddressInfo
    context = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'Linkwell <team@lw.test>' } })
  })
  afterAll(async () => {
    await context?.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('mails the link to the invited address', async () => {
    const team = await createAccount(context)
    const invited = await apiClient(context.app, team.apiKey)('POST', '/api/member/invite', { email: 'mailed@example.com', role: 'admin' })
    expect(invited.data).toMatchObject({ error: 0, mailed: true })
    expect(received).toHaveLength(1)
    expect(received[0]!.to).toBe('mailed@example.com')
    // Quoted-printable may fold long lines: the link is read back unfolded.
    const body = received[0]!.body.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
    expect(body).toContain(invited.data.url)
    expect(body).toContain(`workspace ${team.username}`)
    expect(body).toContain('From: Linkwell <team@lw.test>')
  })
})
