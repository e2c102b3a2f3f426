// A fresh, migrated database for one test file: an in-memory SQLite database copied from one the
// worker migrated, or a new PostgreSQL database copied from a migrated template and dropped afterwards
// (TEST_DIALECT chooses; see vitest.config.ts).
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { copyOfTemplate } from './postgres-template.js'

export const testDialect = process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite'

export interface TestDatabase extends DatabaseHandle {
  /** The URL a separate process would use to reach the same data (SQLite: a file). */
  url: string
  /** Closes and removes everything this test database created. */
  destroy(): Promise<void>
}

/** `migrateTo`: the last migration to apply (default: all of them). */
export async function createTestDatabase(options: { migrateTo?: string } = {}): Promise<TestDatabase> {
  if (testDialect === 'postgres') {
    const baseUrl = process.env.TEST_DATABASE_URL
    if (!baseUrl) throw new Error('TEST_DIALECT=postgres needs TEST_DATABASE_URL')
    const name = `lw_test_${randomBytes(6).toString('hex')}`
    // The whole schema: a copy of the migrated template (test/global-setup.ts made it). An earlier
    // migration only: a database of its own, migrated that far.
    if (options.migrateTo === undefined) {
      const copy = await copyOfTemplate(baseUrl, name)
      const handle = openDatabase(copy.url, { poolMax: 5 })
      return { ...handle, url: copy.url, destroy: async () => { await handle.close(); await copy.drop() } }
    }
    const schema = name
    const admin = new pg.Client({ connectionString: baseUrl })
    await admin.connect()
    await admin.query(`create schema ${schema}`)
    await admin.end()
    const handle = openDatabase(baseUrl, { schema, poolMax: 5 })
    await migrateToLatest(handle, options.migrateTo)
    const url = new URL(baseUrl)
    url.searchParams.set('options', `-c search_path=${schema}`)
    return {
      ...handle,
      url: url.toString(),
      async destroy() {
        await handle.close()
        const cleanup = new pg.Client({ connectionString: baseUrl })
        await cleanup.connect()
        await cleanup.query(`drop schema if exists ${schema} cascade`)
        await cleanup.end()
      },
    }
  }
  const handle = openDatabase('file::memory:')
  // The whole schema: a copy of the worker's migrated image. An earlier migration only: migrated that far.
  if (options.migrateTo === undefined) await copySqliteImage(handle, await sqliteImage())
  else await migrateToLatest(handle, options.migrateTo)
  return { ...handle, url: 'file::memory:', destroy: () => handle.close() }
}

/** What a migrated SQLite database holds: its schema's statements in order, and the rows the migrations wrote. */
export interface SqliteImage {
  statements: string[]
  rows: Array<{ table: string; rows: Record<string, unknown>[] }>
}

let knownImage: Promise<SqliteImage> | undefined

/**
 * The SQLite counterpart of the PostgreSQL template (test/helpers/postgres-template.ts): the
 * worker runs every migration once, on an in-memory database, and reads back its schema (tables,
 * then indexes, views and triggers, each in the order SQLite recorded them) and the rows the
 * migrations wrote (Kysely's migration list among them). Replaying that took a few milliseconds
 * where migrating each file's database took ~0.6 s of CPU. test/db/test-database-copy.test.ts checks the
 * copy is the migrated database.
 */
export function sqliteImage(): Promise<SqliteImage> {
  knownImage ??= (async () => {
    const migrated = openDatabase('file::memory:')
    try {
      await migrateToLatest(migrated)
      return await readSqliteImage(migrated)
    } finally {
      await migrated.close()
    }
  })()
  return knownImage
}

const OBJECT_ORDER = ['table', 'index', 'view', 'trigger']

/** The schema's statements and every table's rows of an SQLite database. */
export async function readSqliteImage(handle: DatabaseHandle): Promise<SqliteImage> {
  const { rows: objects } = await sql<{ type: string; name: string; sql: string | null }>`select type, name, sql from sqlite_master order by rowid`.execute(handle.db)
  // SQLite makes its own tables itself (sqlite_sequence with the first AUTOINCREMENT table): only their rows are copied.
  const statements = OBJECT_ORDER.flatMap((type) => objects.filter((object) => object.type === type && object.sql !== null && !object.name.startsWith('sqlite_')).map((object) => object.sql!))
  const rows: SqliteImage['rows'] = []
  for (const { name } of objects.filter((object) => object.type === 'table')) {
    const { rows: tableRows } = await sql<Record<string, unknown>>`select * from ${sql.id(name)}`.execute(handle.db)
    if (tableRows.length > 0) rows.push({ table: name, rows: tableRows })
  }
  // sqlite_sequence last: inserting the other tables' rows writes it.
  rows.sort((a, b) => Number(a.table === 'sqlite_sequence') - Number(b.table === 'sqlite_sequence'))
  return { statements, rows }
}

/** Writes `image` into an empty SQLite database, in one transaction (foreign keys checked at the end). */
export async function copySqliteImage(handle: DatabaseHandle, image: SqliteImage): Promise<void> {
  await sql`begin`.execute(handle.db)
  try {
    await sql`pragma defer_foreign_keys = on`.execute(handle.db)
    for (const statement of image.statements) await sql.raw(statement).execute(handle.db)
    for (const { table, rows } of image.rows) {
      // AUTOINCREMENT's counters: the rows just inserted moved them; they end as the migrated database's.
      if (table === 'sqlite_sequence') await sql`delete from sqlite_sequence`.execute(handle.db)
      for (const row of rows) {
        const columns = Object.keys(row)
        await sql`insert into ${sql.id(table)} (${sql.join(columns.map((column) => sql.id(column)))}) values (${sql.join(columns.map((column) => row[column]))})`.execute(handle.db)
      }
    }
    await sql`commit`.execute(handle.db)
  } catch (error) {
    await sql`rollback`.execute(handle.db)
    throw error
  }
}
