// A fresh, migrated database for one test file: an in-memory SQLite database, or a new
// PostgreSQL database copied from a migrated template and dropped afterwards (TEST_DIALECT chooses; see vitest.config.ts).
import { randomBytes } from 'node:crypto'
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
  await migrateToLatest(handle, options.migrateTo)
  return { ...handle, url: 'file::memory:', destroy: () => handle.close() }
}
