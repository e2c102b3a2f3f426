// Opens the database named by DATABASE_URL: SQLite (embedded, WAL) or PostgreSQL (pooled).
import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationProvider } from 'kysely'
import type { Database } from './schema.js'
import type { DialectName } from './dialect.js'
import * as initialSchema from './migrations/001-initial-schema.js'

export type DB = Kysely<Database>

export interface DatabaseHandle {
  db: DB
  dialect: DialectName
  /** PostgreSQL schema in use when not the default one. */
  schema?: string
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>
  close(): Promise<void>
}

export interface OpenDatabaseOptions {
  poolMax?: number
  /** PostgreSQL only: schema to use as search_path (tests isolate themselves this way). */
  schema?: string
}

// Migrations are listed, not read from disk, so they run the same from src/ (tsx) and dist/.
const MIGRATIONS: Record<string, Migration> = {
  '001-initial-schema': initialSchema,
}

const staticMigrations: MigrationProvider = { getMigrations: async () => MIGRATIONS }

// pg returns int8 (count(*), sums) as strings; our counts fit comfortably in a double.
const INT8_OID = 20
const pgTypes = {
  getTypeParser(oid: number, format?: any) {
    if (oid === INT8_OID) return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  },
}

function openSqlite(url: string): DatabaseHandle {
  const file = url.slice('file:'.length)
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const sqlite = new SQLite(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
  return {
    db,
    dialect: 'sqlite',
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}

function openPostgres(url: string, options: OpenDatabaseOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    types: pgTypes,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  })
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return {
    db,
    dialect: 'postgres',
    schema: options.schema,
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}

/** Opens a connection (pool) for `file:PATH` or `postgres://…`. Does not migrate. */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): DatabaseHandle {
  if (url.startsWith('file:')) return openSqlite(url)
  return openPostgres(url, options)
}

/** Applies pending migrations; safe when several instances start together (Kysely's lock table). */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  // With a non-default schema, Kysely must be told where its own tables live, or it finds
  // another schema's migration tables through the catalogue.
  const migrator = new Migrator({
    db: handle.db,
    provider: staticMigrations,
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
