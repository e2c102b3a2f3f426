// The role matrix (issue 20): every API endpoint of the OpenAPI document × every role, with a key
// the role's person made and with their dashboard session. Refused: 403 with the exact envelope
// (the key's words, the session's words). Allowed: past the gate, and a read answers what the
// owner's does. Another workspace's record: 404. An endpoint without a rule in http/api-roles.ts
// fails the first test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPEN_ROUTES, ROLE_OF_ROUTE } from '../../src/http/api-roles.js'
import { roleAllows, ROLES, type Role } from '../../src/modules/access/roles.js'
import { signedInClient } from '../helpers/dashboard-client.js'
import {
  actingAs, createBioPage, createCampaign, createChannel, createDomain, createLink, createMember, createOverlay, createPixel, createQrCode, createSplashPage, uniqueName,
} from '../helpers/factories.js'
import { apiClient, createAccount, createTestApp, type ApiClient, type TestAccount, type TestContext } from '../helpers/test-app.js'
import { eventually } from '../helpers/eventually.js'

const KEY_REFUSED = { error: 1, code: 'forbidden', message: 'You do not have access to this endpoint with this API key.' }
const SESSION_REFUSED = { error: 1, code: 'forbidden', message: 'You do not have permission to access this endpoint.' }
const PASSWORD = 'role matrix password'

/** One of each record an endpoint's path can name. */
interface Fixtures {
  tag: number
  link: number
  qr: number
  bio: number
  campaign: number
  channel: number
  pixel: number
  splash: number
  overlay: number
  domain: number
  key: number
  user: number
  plan: number
  member: number
  invitation: number
  workspace: number
  webhook: number
  delivery: number
  template: number
  import: number
}

/** Bodies that pass validation, so that what answers is the rule or the record, not the schema. */
const BODY_OF_ROUTE: Record<string, unknown | (() => unknown)> = {
  'POST /api/member/invite': { email: 'matrix@example.com', role: 'viewer' },
  'PUT /api/member/:id/update': { role: 'viewer' },
  'POST /api/workspace/add': () => ({ name: uniqueName('ws') }),
  'PUT /api/url/:id/update': { url: 'https://example.com/changed' },
  'PUT /api/qr/:id/update': { data: 'changed' },
  'POST /api/qr/:id/preview': { data: 'preview' },
  'PUT /api/bio/:id/update': { name: 'Renamed bio page' },
  'PUT /api/campaign/:id/update': { name: 'Renamed campaign' },
  'PUT /api/channel/:id/update': { name: 'Renamed channel' },
  'PUT /api/pixel/:id/update': { name: 'Renamed pixel' },
  'PUT /api/splash/:id/update': { name: 'Renamed splash page' },
  'PUT /api/overlay/:id/update': { name: 'Renamed overlay' },
  'PUT /api/domain/:id/update': { redirectroot: 'https://example.com/home' },
  'POST /api/webhook/add': { url: 'https://hooks.example/new', events: ['link.created'] },
  'POST /api/utm-template/add': () => ({ name: uniqueName('template'), utm: { source: 'new' } }),
  'PUT /api/utm-template/:id/update': { name: 'Renamed template' },
  'PUT /api/tag/:id/update': { color: '#123456' },
  'POST /api/url/:id/winner': { variant: 0 },
  'PUT /api/webhook/:id/update': { description: 'Renamed webhook' },
  // A code no enrolment expects: answered 400 by the service, past the gate.
  'POST /api/auth/two-factor/enable': { code: '000000' },
  'POST /api/auth/two-factor/disable': { code: '000000' },
  'POST /api/auth/two-factor/verify': { code: '000000' },
  'PUT /api/workspace/two-factor': { required: false },
  'POST /api/urls/bulk': () => ({ urls: [{ url: 'https://example.com/bulk' }] }),
}

/** Endpoints whose answer is the caller's own (their sessions, what they may do): not compared with the owner's. */
const PERSONAL = new Set(['GET /api/auth/sessions', 'GET /api/account/limits', 'GET /api/members', 'GET /api/workspaces', 'GET /api/auth/two-factor'])

/** Endpoints of a session only (a key has no current workspace to switch): a key meets its own 403. */
const SESSION_ONLY = new Set(['PUT /api/workspace/:id/switch', 'POST /api/auth/two-factor/setup', 'POST /api/auth/two-factor/enable', 'POST /api/auth/two-factor/disable'])

/**
 * Deleting the workspace the matrix runs in would end the matrix: its administration workspace is
 * kept (400 workspace_kept), which is past the gate all the same.
 */
const DELETES_THE_WORKSPACE = 'DELETE /api/workspace/:id/delete'

/** Endpoints that end the caller's session or credential: sent with a throwaway one. */
const ENDS_THE_CREDENTIAL = new Set(['POST /api/auth/logout'])

/** The instance's administration names other accounts, not the workspace's records: no cross-workspace case. */
function namesWorkspaceRecords(route: string): boolean {
  return /:/.test(route) && !/\/api\/(user|plan|auth|admin)\//.test(route)
}

/** The record an endpoint's `:id` names, by the path's first segment. */
const resourceOfSegment: Record<string, keyof Fixtures> = {
  url: 'link', qr: 'qr', bio: 'bio', campaign: 'campaign', channel: 'channel', pixel: 'pixel', splash: 'splash', overlay: 'overlay', domain: 'domain', key: 'key', user: 'user', plan: 'plan',
  member: 'member', invitation: 'invitation', workspace: 'workspace', webhook: 'webhook', delivery: 'delivery', utm: 'template', import: 'import', tag: 'tag',
}

function pathOf(route: string, fixtures: Fixtures): string {
  const [, url] = route.split(' ') as [string, string]
  const segment = /^\/api\/(\w+)/.exec(url)![1]!
  return url
    .replace(':campaignid', String(fixtures.campaign))
    .replace(':channelid', String(fixtures.channel))
    .replace(':linkid', String(fixtures.link))
    .replace(':itemid', String(fixtures.link))
    .replace(':type', 'links')
    .replace(':userid', String(fixtures.user))
    // A session id no session has (64 hex digits).
    .replace(/\/session\/:id/, `/session/${'0'.repeat(64)}`)
    .replace(':id', String(fixtures[resourceOfSegment[segment]!]))
}

describe('the role matrix', () => {
  let context: TestContext
  let owner: TestAccount
  let stranger: TestAccount
  let ownFixtures: Fixtures
  let strangerFixtures: Fixtures
  const keys = {} as Record<Role, ApiClient>
  const sessions = {} as Record<Role, ApiClient>
  const logins = {} as Record<Role, { username: string; password: string }>

  /** How each record an endpoint's path can name is made. */
  function creatorsOf(account: TestAccount): Record<keyof Fixtures, () => Promise<number>> {
    const operator = { id: account.id, keyId: null, personId: null, via: 'cli' as const, address: null }
    return {
      link: async () => (await createLink(context, account)).id,
      qr: async () => (await createQrCode(context, account)).id,
      bio: async () => (await createBioPage(context, account)).id,
      campaign: () => createCampaign(context, account),
      channel: () => createChannel(context, account),
      pixel: () => createPixel(context, account),
      splash: () => createSplashPage(context, account),
      overlay: () => createOverlay(context, account),
      domain: async () => (await createDomain(context, account)).id,
      key: async () => (await context.services.apiKeys.createNamedKey(operator, { name: 'spare' })).id,
      user: async () => (await createAccount(context)).id,
      plan: async () => (await context.services.plans.createPlan(null, { name: uniqueName('plan'), code: uniqueName('code') })).id,
      member: async () => (await createMember(context, account, 'viewer')).personId,
      invitation: async () => (await context.services.invitations.invite(operator, { email: `${uniqueName('invited')}@example.com`, role: 'viewer' })).id,
      workspace: async () => account.id,
      // A tag is made by the first link that names it.
      tag: async () => {
        const name = uniqueName('tag')
        await context.services.links.createLink(await actingAs(context, account), { url: 'https://example.com/tagged', tags: [name] })
        return (await context.database.db.selectFrom('tags').select('id').where('account_id', '=', account.id).where('name', '=', name).executeTakeFirstOrThrow()).id
      },
      template: async () => (await context.services.utmTemplates.createTemplate(await actingAs(context, account), { name: uniqueName('template'), utm: { source: 'matrix' } })).id,
      webhook: async () => (await context.services.webhooks.createWebhook(await actingAs(context, account), { url: 'https://hooks.example/matrix', events: ['link.created'] })).webhook.id,
      // The served worker runs the job: the matrix reads it once it has ended, so every role is
      // answered the same record (read while it ran, two answers could differ by its progress).
      import: async () => {
        const id = await context.services.imports.startFileImport(await actingAs(context, account), { source: 'csv', fileName: 'matrix.csv', content: 'url\nhttps://example.com/matrix\n', options: { onconflict: 'skip' } })
        const readState = async () => (await context.database.db.selectFrom('import_jobs').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state
        await eventually(readState, (state) => state === 'done' || state === 'failed')
        return id
      },
      // A test event's delivery (never sent: the matrix stops the delivery worker, beforeAll).
      delivery: async () => {
        const acting = await actingAs(context, account)
        const { webhook } = await context.services.webhooks.createWebhook(acting, { url: 'https://hooks.example/matrix', events: ['link.created'] })
        return context.services.webhooks.sendTest(acting, webhook.id)
      },
    }
  }

  async function fixturesOf(account: TestAccount): Promise<Fixtures> {
    const fixtures = {} as Fixtures
    for (const [name, create] of Object.entries(creatorsOf(account))) fixtures[name as keyof Fixtures] = await create()
    return fixtures
  }

  beforeAll(async () => {
    // Every role's person makes a workspace of their own: the matrix is about roles, not about who
    // may create workspaces (test/modules/members/workspace-creation.test.ts).
    context = await createTestApp({ env: { WORKSPACE_CREATION: 'anyone', WORKSPACE_CREATION_LIMIT: '1000' } })
    // The matrix compares what each role reads, so nothing may change a record between two reads:
    // the delivery worker, left running, would attempt the deliveries the matrix's links cause and
    // their webhook's test events, and move their attempts, next try and failing-since between
    // the owner's read and a role's. Sending is the worker's own tests' business.
    await context.services.webhookDelivery.stop()
    // An administrator's workspace, so that the instance's administration answers its owner.
    owner = await createAccount(context, { isAdmin: true, password: PASSWORD })
    stranger = await createAccount(context)
    keys.owner = apiClient(context.app, owner.apiKey)
    sessions.owner = (await signedInClient(context.app, owner.username, PASSWORD)).client
    logins.owner = { username: owner.username, password: PASSWORD }
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      const member = await createMember(context, owner, role, PASSWORD)
      keys[role] = apiClient(context.app, member.apiKey)
      sessions[role] = (await signedInClient(context.app, member.username, PASSWORD)).client
      logins[role] = { username: member.username, password: PASSWORD }
    }
    ownFixtures = await fixturesOf(owner)
    strangerFixtures = await fixturesOf(stranger)
  })
  afterAll(() => context.close())

  it('has a rule for every documented endpoint, and documents every endpoint it has a rule for; open ones need no credential', () => {
    const document = context.app.swagger() as { paths: Record<string, Record<string, { security?: unknown[] }>> }
    // The API's endpoints (visitors' documented addresses, /qr/… and the rest, are no API: no gate).
    const operations = Object.entries(document.paths).filter(([path]) => path.startsWith('/api/')).flatMap(([path, byMethod]) =>
      Object.entries(byMethod)
        .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
        .map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, open: Array.isArray(operation.security) && operation.security.length === 0 })),
    )
    // Signing in and opening an invitation need no credential (security: []): no role to check.
    expect(operations.filter((operation) => operation.open).map((operation) => operation.route).sort()).toEqual([...OPEN_ROUTES].sort())
    const documented = operations.filter((operation) => !operation.open).map((operation) => operation.route)
    expect(documented.filter((route) => !(route in ROLE_OF_ROUTE)), 'endpoints without a role rule').toEqual([])
    expect(Object.keys(ROLE_OF_ROUTE).filter((route) => !documented.includes(route)), 'rules of no endpoint').toEqual([])
  })

  it.each(Object.entries(ROLE_OF_ROUTE))('%s needs %s', async (route, needed) => {
    const [method] = route.split(' ') as [string, string]
    const given = BODY_OF_ROUTE[route]
    const bodyOf = () => (typeof given === 'function' ? given() : given ?? (method === 'GET' || method === 'DELETE' ? undefined : {}))
    // A deletion is made on a record of its own each time, so that every allowed role meets one.
    const deletes = /^DELETE \/api\/(\w+)\/:id\/delete$/.exec(route)
    const deleted = deletes && namesWorkspaceRecords(route) && route !== DELETES_THE_WORKSPACE ? resourceOfSegment[deletes[1]!]! : undefined
    const fixturesFor = async () => (deleted ? { ...ownFixtures, [deleted]: await creatorsOf(owner)[deleted]() } : ownFixtures)
    const ownersRead = () => keys.owner(method, pathOf(route, ownFixtures))
    let ownersAnswer = method === 'GET' ? await ownersRead() : undefined

    for (const role of ROLES) {
      const allowed = roleAllows(role, needed)
      for (const [credential, refused] of [['key', KEY_REFUSED], ['session', SESSION_REFUSED]] as const) {
        let client = credential === 'key' ? keys[role] : sessions[role]
        if (credential === 'session' && ENDS_THE_CREDENTIAL.has(route)) client = (await signedInClient(context.app, logins[role].username, logins[role].password)).client
        const response = await client(method, pathOf(route, await fixturesFor()), bodyOf())
        const what = `${role} ${credential}: ${route} → ${response.statusCode} ${response.body.slice(0, 200)}`
        if (!allowed) {
          expect(response.statusCode, what).toBe(403)
          expect(response.data, what).toEqual(refused)
          continue
        }
        if (credential === 'key' && SESSION_ONLY.has(route)) {
          expect(response.statusCode, what).toBe(403)
          expect(response.data.message, what).not.toBe(refused.message)
          continue
        }
        expect([401, 403], what).not.toContain(response.statusCode)
        expect(response.statusCode, what).toBeLessThan(500)
        if (deleted) expect(response.statusCode, what).toBe(200)
        if (route === DELETES_THE_WORKSPACE) expect(response.data.code, what).toBe('workspace_kept')
        if (ownersAnswer && !PERSONAL.has(route)) {
          // A read that follows the clock (the live statistics' last 60 minutes move at every
          // minute) may pass a boundary between the owner's read and this one: it then answers
          // what the owner reads right after it. At most one boundary passes in that span, so a
          // role that is shown more or less than the owner still fails.
          if (response.body !== ownersAnswer.body) ownersAnswer = await ownersRead()
          expect(response.statusCode, what).toBe(ownersAnswer.statusCode)
          if (!route.includes('/api/keys')) expect(response.body, what).toBe(ownersAnswer.body)
        }
      }
      // Another workspace's record is not found, whoever asks.
      if (allowed && namesWorkspaceRecords(route)) {
        const client = SESSION_ONLY.has(route) ? sessions[role] : keys[role]
        const response = await client(method, pathOf(route, strangerFixtures), bodyOf())
        expect(response.statusCode, `${role} key on another workspace's record: ${route} → ${response.body.slice(0, 200)}`).toBe(404)
      }
    }
  })
})
