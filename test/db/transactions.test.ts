// A transaction PostgreSQL ends to break a deadlock is run again, whole (db/transactions.ts): two
// writes that lock the same rows in opposite orders both land, where before one of them failed
// (an account's deletion meeting a click batch's commit answered 500). Other errors are not retried.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inTransaction, TRANSACTION_ATTEMPTS } from '../../src/db/transactions.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/test-database.js'

describe('transactions', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await createTestDatabase()
    await sql`create table deadlock_probe (id integer primary key, hits integer not null)`.execute(database.db)
    await sql`insert into deadlock_probe (id, hits) values (1, 0), (2, 0)`.execute(database.db)
  })
  afterAll(() => database.destroy())

  // SQLite lets one writer in at a time: two transactions cannot hold each other's rows.
  it.skipIf(testDialect !== 'postgres')('runs a transaction PostgreSQL ended for a deadlock again, so both writes land', async () => {
    let bothHoldOne!: () => void
    const met = new Promise<void>((resolve) => { bothHoldOne = resolve })
    let holding = 0
    const runs = { first: 0, second: 0 }
    // Each takes one row, waits until the other holds its row too, then wants the other's: a deadlock.
    const crossing = (name: keyof typeof runs, mine: number, theirs: number) => inTransaction(database.db, async (trx) => {
      runs[name] += 1
      await sql`update deadlock_probe set hits = hits + 1 where id = ${mine}`.execute(trx)
      holding += 1
      if (holding === 2) bothHoldOne()
      await met
      await sql`update deadlock_probe set hits = hits + 1 where id = ${theirs}`.execute(trx)
    })
    await Promise.all([crossing('first', 1, 2), crossing('second', 2, 1)])
    // PostgreSQL ended one of them once; run again, it landed: every row counted by both, once each.
    expect(runs.first + runs.second).toBe(3)
    const rows = await sql<{ id: number; hits: number }>`select id, hits from deadlock_probe order by id`.execute(database.db)
    expect(rows.rows.map((row) => Number(row.hits))).toEqual([2, 2])
  })

  it('tries a conflict a bounded number of times, and any other error once', async () => {
    let tries = 0
    const conflict = Object.assign(new Error('deadlock detected'), { code: '40P01' })
    await expect(inTransaction(database.db, async () => { tries += 1; throw conflict })).rejects.toBe(conflict)
    expect(tries).toBe(TRANSACTION_ATTEMPTS)

    tries = 0
    const broken = Object.assign(new Error('duplicate key'), { code: '23505' })
    await expect(inTransaction(database.db, async () => { tries += 1; throw broken })).rejects.toBe(broken)
    expect(tries).toBe(1)
  })

  it('runs work inside an open transaction as part of it, leaving retries to its opener', async () => {
    let tries = 0
    const conflict = Object.assign(new Error('deadlock detected'), { code: '40P01' })
    await expect(database.db.transaction().execute((trx) => inTransaction(trx, async () => { tries += 1; throw conflict }))).rejects.toBe(conflict)
    expect(tries).toBe(1)
  })
})
