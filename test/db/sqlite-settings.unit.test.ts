// What the embedded database is opened with (db/database.ts): every connection of a SQLite file
// gets the same journal, durability, cache and checkpoint settings, whoever opens it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/database.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-sqlite-settings-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

async function pragma(db: ReturnType<typeof openDatabase>['db'], name: string): Promise<unknown> {
  const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(db)
  return Object.values(rows[0] ?? {})[0]
}

describe('a SQLite database as Linkwell opens it', () => {
  it('logs ahead (WAL), syncs at checkpoints, checks foreign keys, and bounds its page cache to 8 MB', async () => {
    const handle = openDatabase(`file:${path.join(dir, 'settings.db')}`)
    try {
      expect(await pragma(handle.db, 'journal_mode')).toBe('wal')
      // 1 = NORMAL: a commit survives a crash of the process, not always a power loss.
      expect(await pragma(handle.db, 'synchronous')).toBe(1)
      expect(await pragma(handle.db, 'foreign_keys')).toBe(1)
      // Negative: KiB. better-sqlite3's own default is 16 MB, which resident memory paid for.
      expect(await pragma(handle.db, 'cache_size')).toBe(-8000)
      expect(await pragma(handle.db, 'wal_autocheckpoint')).toBe(10000)
    } finally {
      await handle.close()
    }
  })
})
