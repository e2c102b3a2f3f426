// Migration 033 (issue 43): existing branded domains become claims awaiting proof, each with a
// token of its own and a first check due at once; their links keep being served. A hostname may
// now be claimed by two workspaces, one claim per workspace, one verified claim per name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../../src/db/database.js'
import { isUniqueViolation } from '../../src/db/errors.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'

const CREATED = '2026-01-01 00:00:00'

describe('migration 033: domains become claims with tokens', () => {
  let database: TestDatabase
  const accounts: number[] = []

  beforeAll(async () => {
    database = await createTestDatabase({ migrateTo: '032-logo-uploads' })
    const db = database.db
    const plan = await db.selectFrom('plans').select('id').executeTakeFirstOrThrow()
    for (const name of ['first', 'second']) {
      const account = await db.insertInto('accounts').values({ email: `${name}@example.com`, username: name, password_hash: null, avatar: null, plan_id: plan.id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: CREATED } as never).returning('id').executeTakeFirstOrThrow()
      accounts.push(account.id)
    }
    for (const hostname of ['go.one.example', 'go.two.example']) {
      await db.insertInto('domains').values({ account_id: accounts[0]!, domain: `https://${hostname}`, hostname, redirect_root: null, redirect_404: null, created_at: CREATED } as never).execute()
    }
    await migrateToLatest(database)
  })
  afterAll(() => database.destroy())

  it('gives every existing domain its own token, the pending state and a check due at once', async () => {
    const rows = await database.db.selectFrom('domains').selectAll().orderBy('id').execute()
    expect(rows.map((row) => ({ status: row.status, checks: row.checks_since, next: row.next_check_at, released: row.released_at }))).toEqual([
      { status: 'pending', checks: CREATED, next: CREATED, released: null },
      { status: 'pending', checks: CREATED, next: CREATED, released: null },
    ])
    expect(new Set(rows.map((row) => row.verification_token)).size).toBe(2)
    for (const row of rows) expect(row.verification_token).toMatch(/^[A-Za-z0-9_-]{24}$/)
  })

  it('lets another workspace claim a hostname, refuses a second claim in one workspace and a second verified claim', async () => {
    const db = database.db
    const claim = (accountId: number, status: 'pending' | 'verified') =>
      db.insertInto('domains').values({ account_id: accountId, domain: 'https://go.one.example', hostname: 'go.one.example', redirect_root: null, redirect_404: null, created_at: CREATED, verification_token: `t${accountId}${status}`, status }).execute()
    await claim(accounts[1]!, 'verified')
    await expect(claim(accounts[0]!, 'pending')).rejects.toSatisfy(isUniqueViolation)
    await db.updateTable('domains').set({ status: 'verified' }).where('hostname', '=', 'go.two.example').execute()
    const third = await db.insertInto('accounts').values({ email: 'third@example.com', username: 'third', password_hash: null, avatar: null, plan_id: (await db.selectFrom('plans').select('id').executeTakeFirstOrThrow()).id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: CREATED } as never).returning('id').executeTakeFirstOrThrow()
    await expect(db.insertInto('domains').values({ account_id: third.id, domain: 'https://go.two.example', hostname: 'go.two.example', redirect_root: null, redirect_404: null, created_at: CREATED, verification_token: 'x', status: 'verified' }).execute()).rejects.toSatisfy(isUniqueViolation)
  })
})
