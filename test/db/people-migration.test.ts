// Migrations 020 and 020b (teams): every existing account becomes a workspace whose only member is
// its owner, a person made from the account's sign-in credentials; its sessions and keys become
// that person's. Afterwards the account answers, signs in and takes its keys exactly as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../../src/db/database.js'
import { hashApiKey, hashPassword } from '../../src/core/secrets.js'
import { signIn } from '../helpers/dashboard-client.js'
import { apiClient, buildAppOn } from '../helpers/test-app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'
import { loadConfig } from '../../src/config.js'

const CREATED = '2026-01-01 00:00:00'
const KEY = 'lw_before-teams-key-of-the-first-account-0001'

describe('migrations 020 and 020b: accounts become workspaces with their owner', () => {
  let database: TestDatabase
  const ids = { first: 0, second: 0, firstKey: 0, secondKey: 0 }

  beforeAll(async () => {
    database = await createTestDatabase({ migrateTo: '010-audit-log' })
    const db = database.db
    const plan = await db.selectFrom('plans').select('id').executeTakeFirstOrThrow()
    const account = (email: string, username: string, passwordHash: string | null) =>
      db.insertInto('accounts').values({ email, username, password_hash: passwordHash, avatar: null, plan_id: plan.id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: CREATED }).returning('id').executeTakeFirstOrThrow()
    ids.first = (await account('first@example.com', 'first', await hashPassword('the first password'))).id
    ids.second = (await account('second@example.com', 'second', null)).id
    const key = (accountId: number, raw: string) =>
      db.insertInto('api_keys').values({ account_id: accountId, name: 'default', key_hash: hashApiKey(raw), key_prefix: raw.slice(0, 8), expires_at: null, created_at: CREATED, last_used_at: null, scopes: null }).returning('id').executeTakeFirstOrThrow()
    ids.firstKey = (await key(ids.first, KEY)).id
    ids.secondKey = (await key(ids.second, 'lw_before-teams-key-of-the-second-account-02')).id
    await db.insertInto('sessions').values({ id: 'a'.repeat(64), account_id: ids.first, created_at: CREATED, last_seen_at: CREATED, expires_at: '2999-01-01 00:00:00', user_agent: '', ip: '' }).execute()
    await migrateToLatest(database)
  })
  afterAll(() => database.destroy())

  it('makes a person of each account, with its credentials, as the only owner of its workspace', async () => {
    const db = database.db
    const people = await db.selectFrom('people').selectAll().orderBy('id').execute()
    expect(people.map(({ username, email, created_at }) => ({ username, email, created_at }))).toEqual([
      { username: 'first', email: 'first@example.com', created_at: CREATED },
      { username: 'second', email: 'second@example.com', created_at: CREATED },
    ])
    expect(people[0]!.password_hash).toMatch(/^scrypt\$/)
    expect(people[1]!.password_hash).toBeNull()
    const memberships = await db.selectFrom('memberships').selectAll().orderBy('account_id').execute()
    expect(memberships).toEqual([
      { account_id: ids.first, person_id: people[0]!.id, role: 'owner', created_at: CREATED },
      { account_id: ids.second, person_id: people[1]!.id, role: 'owner', created_at: CREATED },
    ])
    // The password moved: one copy, the person's.
    expect(await db.selectFrom('accounts').select('password_hash').where('password_hash', 'is not', null).execute()).toEqual([])
    const keys = await db.selectFrom('api_keys').select(['id', 'person_id']).orderBy('id').execute()
    expect(keys).toEqual([{ id: ids.firstKey, person_id: people[0]!.id }, { id: ids.secondKey, person_id: people[1]!.id }])
    expect(await db.selectFrom('sessions').select(['account_id', 'person_id']).execute()).toEqual([{ account_id: ids.first, person_id: people[0]!.id }])
  })

  it('answers the old key and the old password as before', async () => {
    const config = loadConfig({ PUBLIC_URL: 'https://lw.test', LOG_LEVEL: 'silent', KEY_CACHE_MS: '0' })
    const { app } = await buildAppOn(database, config)
    try {
      const account = await apiClient(app, KEY)('GET', '/api/account')
      expect(account.statusCode).toBe(200)
      expect(account.data.data).toMatchObject({ id: ids.first, email: 'first@example.com', username: 'first', registered: CREATED })
      expect((await apiClient(app, KEY)('POST', '/api/campaign/add', { name: 'After the migration' })).statusCode).toBe(201)
      const signedIn = await signIn(app, 'first@example.com', 'the first password')
      expect(signedIn.statusCode).toBe(200)
      expect(signedIn.data.data.id).toBe(ids.first)
    } finally {
      // The app's services close with it; the database is the test's.
      await app.close().catch(() => {})
    }
  })
})
