// An online copy of a SQLite database (`linkwell backup FILE`) while the server keeps running,
// through SQLite's backup API (better-sqlite3's `backup`). PostgreSQL has pg_dump (README).
import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'

export interface BackupResult {
  file: string
  pages: number
  /** SQLite's own check of the copy: "ok". */
  integrity: string
}

/** Copies the SQLite database of `databaseUrl` (`file:PATH`) to `destination`, which must not exist yet. */
export async function backupSqliteDatabase(databaseUrl: string, destination: string): Promise<BackupResult> {
  if (!databaseUrl.startsWith('file:')) throw new Error('backup copies SQLite databases; for PostgreSQL use pg_dump (see README, Backups)')
  const source = databaseUrl.slice('file:'.length)
  const target = path.resolve(destination)
  // Never overwrite: a backup written over the only other copy is how data is lost.
  if (fs.existsSync(target)) throw new Error(`${target} already exists; choose a new file name`)
  if (!fs.existsSync(source)) throw new Error(`the database ${source} does not exist`)
  const database = new SQLite(source, { fileMustExist: true })
  try {
    // The server may hold a write lock for a moment; wait for it rather than fail.
    database.pragma('busy_timeout = 5000')
    // Every page in one step, under one read transaction: the copy is the database as of one
    // instant, however busy the server is (smaller steps restart whenever the server writes).
    const progress = await database.backup(target, { progress: () => 0x7fffffff })
    const copy = new SQLite(target, { readonly: true })
    try {
      const integrity = String(copy.pragma('integrity_check', { simple: true }))
      return { file: target, pages: progress.totalPages, integrity }
    } finally {
      copy.close()
    }
  } finally {
    database.close()
  }
}
