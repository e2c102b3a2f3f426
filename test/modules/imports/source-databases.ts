// Scratch source databases for the importers' tests: a temporary SQLite file, a PostgreSQL schema
// of the test's own (TEST_DATABASE_URL, reached through `options=-c search_path=…` as a user of
// that system would hand a schema over) or MariaDB tables under a prefix of the test's own
// (TEST_MYSQL_URL). Each is dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import mysql from 'mysql2/promise'

export type ScratchKind = 'sqlite' | 'postgres' | 'mysql'

export interface ScratchSource {
  kind: ScratchKind
  /** The address the importer is given. */
  url: string
  /** Table names' prefix (MariaDB only: the tests share one database). */
  prefix: string
  /** Runs statements (`;`-separated) as the source system would have. */
  exec(sql: string): Promise<void>
  drop(): Promise<void>
  /** The SQLite file, to check it is not written. */
  file?: string
}

export const POSTGRES_URL = process.env.TEST_DATABASE_URL
export const MYSQL_URL = process.env.TEST_MYSQL_URL

export async function openScratchSource(kind: ScratchKind): Promise<ScratchSource> {
  const tag = `${process.pid}_${randomBytes(3).toString('hex')}`
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'lw-source-'))
    const file = path.join(dir, 'source.db')
    const database = new SQLite(file)
    return {
      kind, url: `sqlite:${file}`, prefix: '', file,
      async exec(sql) {
        database.exec(sql)
      },
      async drop() {
        database.close()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  if (kind === 'postgres') {
    const schema = `lw_source_${tag}`
    const client = new pg.Client({ connectionString: POSTGRES_URL! })
    await client.connect()
    await client.query(`create schema ${schema}; set search_path to ${schema}`)
    const url = new URL(POSTGRES_URL!)
    url.searchParams.set('options', `-c search_path=${schema}`)
    return {
      kind, url: url.toString(), prefix: '',
      async exec(sql) {
        await client.query(sql)
      },
      async drop() {
        await client.query(`drop schema if exists ${schema} cascade`)
        await client.end()
      },
    }
  }
  const prefix = `lws_${tag}_`
  const connection = await mysql.createConnection({ uri: MYSQL_URL!, multipleStatements: true })
  const tables: string[] = []
  return {
    kind, url: MYSQL_URL!, prefix,
    async exec(sql) {
      for (const match of sql.matchAll(/create table `?(\w+)`?/gi)) tables.push(match[1]!)
      await connection.query(sql)
    },
    async drop() {
      if (tables.length > 0) await connection.query(`SET FOREIGN_KEY_CHECKS = 0; DROP TABLE IF EXISTS ${tables.map((table) => `\`${table}\``).join(', ')}; SET FOREIGN_KEY_CHECKS = 1`)
      await connection.end()
    },
  }
}

/** Totals of one link's clicks per dimension, from the aggregates the statistics read. */
export async function totalsOf(db: import('../../../src/db/database.js').DB, linkId: number): Promise<Record<string, Record<string, number>>> {
  const rows = await db.selectFrom('click_totals').select(['dimension', 'value', 'clicks']).where('item_type', '=', 'link').where('item_id', '=', linkId)
    .where('dimension', 'in', ['country', 'referrer', 'browser', 'os']).execute()
  const totals: Record<string, Record<string, number>> = { country: {}, referrer: {}, browser: {}, os: {} }
  for (const row of rows) if (Number(row.clicks) !== 0) totals[row.dimension]![row.value] = Number(row.clicks)
  return totals
}
