// The people of a workspace (issue 20): roles change and members leave through one service; the
// last owner stays; only an owner makes an owner; a demoted or removed person's keys and open
// sessions lose the right at once, with the key cache on, on this instance and (through Redis)
// on every other.
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config.js'
import { openDatabase, type DatabaseHandle } from '../../../src/db/database.js'
import type { App } from '../../../src/http/app-instance.js'
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'
import { hashApiKey } from '../../../src/core/secrets.js'
import { connectRedis } from '../../../src/redis/connection.js'
import type { Services } from '../../../src/services.js'
import { signedInClient } from '../../helpers/dashboard-client.js'
import { eventually } from '../../helpers/eventually.js'
import { createMember, uniqueName } from '../../helpers/factories.js'
import { apiClient, buildAppOn, createAccount, PUBLIC_URL, useTestApp, type TestAccount } from '../../helpers/test-app.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../../helpers/test-database.js'

const PASSWORD = 'members test password'
const KEY_REFUSED = { error: 1, code: 'forbidden', message: 'You do not have access to this endpoint with this API key.' }
const SESSION_REFUSED = { error: 1, code: 'forbidden', message: 'You do not have permission to access this endpoint.' }

describe('members of a workspace', () => {
  // The key cache on, as in production: role changes must reach it.
  const { context } = useTestApp({ env: { KEY_CACHE_MS: '1000' } })

  async function workspace(): Promise<TestAccount> {
    return createAccount(context, { password: PASSWORD })
  }

  async function ownerOf(account: TestAccount) {
    return context.services.apiKeys.authenticate(account.apiKey)
  }

  it('keeps the last owner: not demoted, not removed, cannot leave; with a second owner, either may go', async () => {
    const account = await workspace()
    const owner = await ownerOf(account)
    // Each refusal awaited as it is made: a rejection created before its turn went unhandled.
    const refusals = [
      () => context.services.members.changeRole(owner, owner.personId!, 'admin'),
      () => context.services.members.removeMember(owner, owner.personId!),
      () => context.services.members.removeMember(commandLineActor(account.id), owner.personId!),
    ]
    for (const refusal of refusals) await expect(refusal()).rejects.toMatchObject({ code: 'last_owner', field: 'role' })
    expect((await apiClient(context.app, account.apiKey)('GET', '/api/account')).statusCode).toBe(200)

    const second = await createMember(context, account, 'admin', PASSWORD)
    await context.services.members.changeRole(owner, second.personId, 'owner')
    await context.services.members.changeRole(owner, owner.personId!, 'viewer')
    const roles = (await context.services.members.listMembers(account.id)).map((member) => [member.person.id, member.role])
    expect(roles).toEqual([[owner.personId, 'viewer'], [second.personId, 'owner']])
    // The first key now acts as a viewer: it reads, and writes nothing.
    const firstKey = apiClient(context.app, account.apiKey)
    expect((await firstKey('GET', '/api/urls')).statusCode).toBe(200)
    expect((await firstKey('POST', '/api/url/add', { url: 'https://example.com/no' })).data).toEqual(KEY_REFUSED)
  })

  it('lets only an owner make or unmake an owner', async () => {
    const account = await workspace()
    const admin = await createMember(context, account, 'admin', PASSWORD)
    const editor = await createMember(context, account, 'editor', PASSWORD)
    const asAdmin = await context.services.apiKeys.authenticate(admin.apiKey)
    await expect(context.services.members.changeRole(asAdmin, editor.personId, 'owner')).rejects.toMatchObject({ code: 'forbidden' })
    await expect(context.services.members.changeRole(asAdmin, (await ownerOf(account)).personId!, 'editor')).rejects.toMatchObject({ code: 'forbidden' })
    await context.services.members.changeRole(asAdmin, editor.personId, 'viewer')
    expect((await context.services.members.listMembers(account.id)).find((member) => member.person.id === editor.personId)?.role).toBe('viewer')
  })

  it('cuts a demoted editor\'s key and open session at once, cache or not', async () => {
    const account = await workspace()
    const editor = await createMember(context, account, 'editor', PASSWORD)
    const key = apiClient(context.app, editor.apiKey)
    const { client: session } = await signedInClient(context.app, editor.username, PASSWORD)
    expect((await key('POST', '/api/url/add', { url: 'https://example.com/by-key' })).statusCode).toBe(201)
    expect((await session('POST', '/api/url/add', { url: 'https://example.com/by-session' })).statusCode).toBe(201)

    await context.services.members.changeRole(await ownerOf(account), editor.personId, 'viewer')
    const byKey = await key('POST', '/api/url/add', { url: 'https://example.com/too-late' })
    expect(byKey.statusCode).toBe(403)
    expect(byKey.data).toEqual(KEY_REFUSED)
    const bySession = await session('POST', '/api/url/add', { url: 'https://example.com/too-late' })
    expect(bySession.data).toEqual(SESSION_REFUSED)
    // Reading is still theirs.
    expect((await key('GET', '/api/urls')).statusCode).toBe(200)
    expect((await session('GET', '/api/urls')).statusCode).toBe(200)
  })

  it('removes a member with the keys they made there; their session ends with their last workspace', async () => {
    const account = await workspace()
    const editor = await createMember(context, account, 'editor', PASSWORD)
    const { client: session } = await signedInClient(context.app, editor.username, PASSWORD)
    expect((await apiClient(context.app, editor.apiKey)('GET', '/api/urls')).statusCode).toBe(200)
    await context.services.members.removeMember(await ownerOf(account), editor.personId)
    expect((await apiClient(context.app, editor.apiKey)('GET', '/api/urls')).statusCode).toBe(401)
    expect((await session('GET', '/api/urls')).statusCode).toBe(401)
    expect(await context.database.db.selectFrom('api_keys').select('id').where('person_id', '=', editor.personId).execute()).toEqual([])
    await expect(context.services.members.removeMember(await ownerOf(account), editor.personId)).rejects.toMatchObject({ code: 'not_found' })
  })

  it('moves the open session of a person removed from its workspace to another of theirs', async () => {
    const home = await workspace()
    const person = await ownerOf(home)
    const team = await workspace()
    await context.services.members.addMember(commandLineActor(team.id), person.personId!, 'editor')
    const { client: session, cookie } = await signedInClient(context.app, home.username, PASSWORD)
    // Signed in to the workspace they joined first; switched to the team's (as the switcher will).
    expect((await session('GET', '/api/account')).data.data.id).toBe(home.id)
    await context.database.db.updateTable('sessions').set({ account_id: team.id }).where('id', '=', hashApiKey(cookie.split('=')[1]!)).execute()
    expect((await session('GET', '/api/account')).data.data.id).toBe(team.id)
    await context.services.members.removeMember(commandLineActor(team.id), person.personId!)
    expect((await session('GET', '/api/account')).data.data.id).toBe(home.id)
    expect((await session('POST', '/api/url/add', { url: 'https://example.com/home-again' })).statusCode).toBe(201)
  })

  it('records who changed which member, in the workspace\'s log', async () => {
    const account = await workspace()
    const owner = await ownerOf(account)
    const viewer = await createMember(context, account, 'viewer', PASSWORD)
    await context.services.members.changeRole({ ...owner, address: '192.0.2.9' }, viewer.personId, 'editor')
    const row = await context.database.db.selectFrom('audit_log').selectAll().where('account_id', '=', account.id).where('action', '=', 'member.role_changed').executeTakeFirstOrThrow()
    expect(row).toMatchObject({ resource: 'member', resource_id: viewer.personId, person_id: owner.personId, key_id: owner.keyId, via: 'api', address: '192.0.2.9', fields: '["role"]' })
  })
})

const redisUrl = process.env.TEST_REDIS_URL

// Two instances need a database both reach: PostgreSQL; Redis carries the announcement.
describe.skipIf(testDialect !== 'postgres' || !redisUrl)('a demotion on one instance, with the key cache on', () => {
  let database: TestDatabase
  let secondHandle: DatabaseHandle
  const connections: Redis[] = []
  let first: { app: App; services: Services }
  let second: { app: App; services: Services }
  const prefix = `lwtest:${randomBytes(4).toString('hex')}:`

  beforeAll(async () => {
    database = await createTestDatabase()
    secondHandle = openDatabase(database.url, { poolMax: 3 })
    const config = loadConfig({ PUBLIC_URL, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000', KEY_CACHE_MS: '1000' })
    const redisFor = async () => {
      const redis = connectRedis(redisUrl!, prefix)
      connections.push(redis)
      await new Promise((resolve) => redis.once('ready', resolve))
      return redis
    }
    first = await buildAppOn(database, config, { redis: await redisFor(), keyCacheClock: () => 0 })
    second = await buildAppOn(secondHandle, config, { redis: await redisFor(), keyCacheClock: () => 0 })
  })
  afterAll(async () => {
    await first?.app.close()
    await second?.app.close()
    await secondHandle?.close()
    connections.forEach((redis) => redis.disconnect())
    await database?.destroy()
  })

  it('refuses the demoted editor\'s key on the other instance at once', async () => {
    const account = await createAccount(first)
    const editor = await createMember(first, account, 'editor', PASSWORD)
    const onSecond = apiClient(second.app, editor.apiKey)
    expect((await onSecond('POST', '/api/campaign/add', { name: 'Before' })).statusCode).toBe(201)
    await first.services.members.changeRole(commandLineActor(account.id), editor.personId, 'viewer')
    // The bus delivers asynchronously. The key cache's clock stands still, so its entry never
    // expires: only the announcement can explain the refusal.
    const status = await eventually(async () => (await onSecond('POST', '/api/campaign/add', { name: uniqueName('After') })).statusCode, (code) => code === 403, { intervalMs: 10 })
    expect(status).toBe(403)
  })
})
