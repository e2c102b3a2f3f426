// A test file's database is a copy (test/helpers/test-database.ts): of the PostgreSQL template, or
// of the worker's migrated SQLite image. The copy must be the migrated database, or every other
// test would run on a schema no server has.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { createTestDatabase, readSqliteImage, testDialect, type TestDatabase } from '../helpers/test-database.js'

async function schemaOf(handle: DatabaseHandle) {
  const { rows } = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`select type, name, tbl_name, sql from sqlite_master order by type, name`.execute(handle.db)
  return rows
}

describe(`a test file's database (${testDialect})`, () => {
  let database: TestDatabase

  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database.destroy())

  it('has every migration applied: migrating it finds nothing to do', async () => {
    expect(await migrateToLatest(database)).toEqual([])
  })

  it.runIf(testDialect === 'sqlite')('is, on SQLite, the database the migrations make: the same tables, indexes, views, triggers and rows, keys intact', async () => {
    const migrated = openDatabase('file::memory:')
    try {
      await migrateToLatest(migrated)
      expect(await schemaOf(database)).toEqual(await schemaOf(migrated))
      const copied = await readSqliteImage(database)
      const original = await readSqliteImage(migrated)
      expect(copied.rows.map((table) => table.table).sort()).toEqual(original.rows.map((table) => table.table).sort())
      // The times the migrations wrote (when each ran, a seeded row's creation) differ between the two databases; nothing else may.
      const time = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d/
      const withoutTimes = (image: typeof copied) => image.rows.map(({ table, rows }) => ({ table, rows: rows.map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [column, typeof value === 'string' && time.test(value) ? 'a time' : value]))) }))
      expect(withoutTimes(copied)).toEqual(withoutTimes(original))
      expect(original.rows.find((table) => table.table === 'kysely_migration')?.rows.length).toBeGreaterThan(30)
      expect((await sql`pragma foreign_key_check`.execute(database.db)).rows).toEqual([])
      expect((await sql`pragma integrity_check`.execute(database.db)).rows).toEqual([{ integrity_check: 'ok' }])
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db)).rows).toEqual([{ foreign_keys: 1 }])
    } finally {
      await migrated.close()
    }
  })
})
