// Opens the database named by DATABASE_URL: SQLite (embedded, WAL) or PostgreSQL (pooled).
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import type pg from 'pg'
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationProvider, type SqliteDatabase } from 'kysely'
import type { Database } from './schema.js'
import type { SharedCounterStore } from '../core/shared-counters.js'
import { createPostgresCounterStore } from './shared-counter-store.js'
import { dialectOf } from './dialect.js'
import * as initialSchema from './migrations/001-initial-schema.js'
import * as rateLimitTable from './migrations/002-rate-limit-table.js'
import * as linksBioClicks from './migrations/003-links-bio-clicks.js'
import * as caseInsensitiveAliases from './migrations/004-case-insensitive-aliases.js'
import * as clickAggregates from './migrations/005-click-aggregates.js'
import * as sessionsAndPasswords from './migrations/006-sessions-and-passwords.js'
import * as apiKeyScopes from './migrations/007-api-key-scopes.js'
import * as linkListVersions from './migrations/008-link-list-versions.js'
import * as unloggedRateLimits from './migrations/009-unlogged-rate-limits.js'
import * as auditLog from './migrations/010-audit-log.js'
import * as peopleAndMemberships from './migrations/020-people-and-memberships.js'
import * as sessionsAndKeysNameTheirPerson from './migrations/020b-sessions-and-keys-name-their-person.js'
import * as twoFactor from './migrations/020c-two-factor.js'
import * as importJobs from './migrations/021-import-jobs.js'
import * as webhooks from './migrations/022-webhooks.js'
import * as eventStream from './migrations/022b-event-stream.js'
import * as linkOptions from './migrations/023-link-options.js'
import * as tags from './migrations/024-tags.js'
import * as linkHealth from './migrations/025-link-health.js'
import * as clickQueryIndexes from './migrations/026-click-query-indexes.js'
import * as socialCards from './migrations/026-social-cards.js'
import * as workspaceTimeZone from './migrations/027-workspace-time-zone.js'
import * as clicksAccountTime from './migrations/029-clicks-account-time.js'
import * as importProblemAddresses from './migrations/030-import-problem-addresses.js'
import * as importProblemsByLine from './migrations/031-import-problems-by-line.js'
import * as logoUploads from './migrations/032-logo-uploads.js'
import * as domainOwnership from './migrations/033-domain-ownership.js'
import * as mailedLinks from './migrations/034-mailed-links.js'
import * as singleSignOn from './migrations/035-single-sign-on.js'
import * as conversions from './migrations/036-conversions.js'
import * as clickhouseFeed from './migrations/037-clickhouse-feed.js'

export type DB = Kysely<Database>

export interface DatabaseHandle {
  db: DB
  /**
   * How long this process may keep a copy of a row without hearing of a change when no bus
   * (Redis) carries announcements between instances: long on an embedded database that this
   * process alone writes (what it hears of changes is all there is), a second on a shared one.
   */
  cacheStaleMs: number
  /**
   * Rows a transaction of long work (an import) should write at most: SQLite answers synchronously,
   * so a transaction holds the event loop and every request waits for it (ADR 021); PostgreSQL
   * holds nothing while it writes, and fewer round trips are faster.
   */
  longWorkChunkRows: number
  /** PostgreSQL schema in use when not the default one. */
  schema?: string
  /**
   * PostgreSQL only: counters every instance on this database shares (rate limits, throttles);
   * undefined on SQLite, where one process counts alone.
   */
  sharedCounters?: SharedCounterStore
  /**
   * PostgreSQL only: the connection pool's use now (metrics); undefined on SQLite, whose one
   * connection is always there.
   */
  poolUse?(): PoolUse
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>
  close(): Promise<void>
}

export interface PoolUse {
  /** Connections open, idle among them, and queries waiting for one. */
  open: number
  idle: number
  waiting: number
  max: number
}

export interface OpenDatabaseOptions {
  poolMax?: number
  /** SQLite only: the page cache in MB (8 by default; an import's aggregates want more: `linkwell import`). */
  sqliteCacheMb?: number
  /** PostgreSQL only: schema to use as search_path (tests isolate themselves this way). */
  schema?: string
}

// Migrations are listed, not read from disk, so they run the same from src/ (tsx) and dist/.
const MIGRATIONS: Record<string, Migration> = {
  '001-initial-schema': initialSchema,
  '002-rate-limit-table': rateLimitTable,
  '003-links-bio-clicks': linksBioClicks,
  '004-case-insensitive-aliases': caseInsensitiveAliases,
  '005-click-aggregates': clickAggregates,
  '006-sessions-and-passwords': sessionsAndPasswords,
  '007-api-key-scopes': apiKeyScopes,
  '008-link-list-versions': linkListVersions,
  '009-unlogged-rate-limits': unloggedRateLimits,
  '010-audit-log': auditLog,
  '020-people-and-memberships': peopleAndMemberships,
  '020b-sessions-and-keys-name-their-person': sessionsAndKeysNameTheirPerson,
  '020c-two-factor': twoFactor,
  '021-import-jobs': importJobs,
  '022-webhooks': webhooks,
  '022b-event-stream': eventStream,
  '023-link-options': linkOptions,
  '024-tags': tags,
  '025-link-health': linkHealth,
  '026-click-query-indexes': clickQueryIndexes,
  '026-social-cards': socialCards,
  '027-workspace-time-zone': workspaceTimeZone,
  '029-clicks-account-time': clicksAccountTime,
  '030-import-problem-addresses': importProblemAddresses,
  '031-import-problems-by-line': importProblemsByLine,
  '032-logo-uploads': logoUploads,
  '033-domain-ownership': domainOwnership,
  '034-mailed-links': mailedLinks,
  '035-single-sign-on': singleSignOn,
  '036-conversions': conversions,
  '037-clickhouse-feed': clickhouseFeed,
}

const staticMigrations: MigrationProvider = { getMigrations: async () => MIGRATIONS }

/**
 * The pg driver, loaded when a PostgreSQL database is opened: an instance on SQLite never needs
 * it, and loading it costs ~15 MB of resident memory and part of the start-up time. pg is
 * CommonJS, so require() loads it synchronously and openDatabase stays synchronous.
 */
function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg
}

// pg returns int8 (count(*), sums) as strings; our counts fit comfortably in a double.
const INT8_OID = 20
function pgTypesOf(driver: typeof pg) {
  return {
    getTypeParser(oid: number, format?: any) {
      if (oid === INT8_OID) return (value: string) => Number(value)
      return driver.types.getTypeParser(oid, format)
    },
  }
}

/**
 * better-sqlite3 with prepared statements reused by SQL text: Kysely prepares every query anew,
 * and parsing a 500-row insert (the click writer's) costs more than running it. Bounded; a
 * statement is never shared by two running queries because better-sqlite3 runs each to the end
 * synchronously (Kysely only iterates for `.stream()`, which Linkwell does not use).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  // Large statements (multi-row inserts and upserts of varying sizes) get a small cache of their
  // own, so they cannot push out the everyday ones nor hold much memory.
  const caches = [
    { maxText: 4_096, size: 256, statements: new Map<string, SQLite.Statement>() },
    { maxText: Number.POSITIVE_INFINITY, size: 8, statements: new Map<string, SQLite.Statement>() },
  ]
  return {
    close: () => sqlite.close(),
    prepare(text) {
      const cache = caches.find((candidate) => text.length <= candidate.maxText)!
      // Least recently used first: a hit moves to the end, a miss evicts the first.
      let statement = cache.statements.get(text)
      if (statement) cache.statements.delete(text)
      else {
        if (cache.statements.size >= cache.size) cache.statements.delete(cache.statements.keys().next().value!)
        statement = sqlite.prepare(text)
      }
      cache.statements.set(text, statement)
      return statement
    },
  }
}

function openSqlite(url: string, options: OpenDatabaseOptions): DatabaseHandle {
  const file = url.slice('file:'.length)
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const sqlite = new SQLite(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  // Checkpoints every ~40 MB of log rather than every ~4 MB: a page rewritten by many commits
  // (the clicks index's last page, the aggregates' rows) is copied into the file once per
  // checkpoint, not once per 1,000 pages; committing a batch of clicks measured 1.7 → 0.6 µs a row.
  sqlite.pragma('wal_autocheckpoint = 10000')
  // better-sqlite3 builds SQLite with a 16 MB page cache per connection, which fills as the clicks
  // table grows: under a 5-minute redirect load resident memory crept from 141 to 152 MB with it,
  // and stayed at 133 MB with 4 MB. Pages beyond the cache come from the system's file cache.
  sqlite.pragma(`cache_size = -${Math.round((options.sqliteCacheMb ?? 8) * 1000)}`)
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) })
  return {
    db,
    cacheStaleMs: 60_000,
    longWorkChunkRows: 10,
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}

function openPostgres(url: string, options: OpenDatabaseOptions): DatabaseHandle {
  const driver = loadPg()
  const max = options.poolMax ?? 10
  const pool = new driver.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    types: pgTypesOf(driver),
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  })
  // A client losing its connection must not crash the process. Idle clients report through the
  // pool; a checked-out client between two queries has no listener of its own, so give each one.
  // Queries in flight still fail with the error, and the pool replaces broken clients.
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return {
    db,
    cacheStaleMs: 1_000,
    longWorkChunkRows: 500,
    schema: options.schema,
    sharedCounters: createPostgresCounterStore(pool, options.schema),
    poolUse: () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}

/** Opens a connection (pool) for `file:PATH` or `postgres://…`. Does not migrate. */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): DatabaseHandle {
  if (url.startsWith('file:')) return openSqlite(url, options)
  return openPostgres(url, options)
}

/**
 * Applies pending migrations (up to and including `target` when given: tests of a migration's
 * data step); safe when several instances start together.
 */
export async function migrateToLatest(handle: DatabaseHandle, target?: string): Promise<string[]> {
  if (dialectOf(handle.db) !== 'postgres') return runMigrations(handle.db, handle.schema, target)
  // Instances starting together: one migrates while the others wait on the advisory lock (held
  // by one connection), then find nothing left to do.
  return handle.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(connection)
    try {
      return await runMigrations(connection, handle.schema, target)
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(connection)
    }
  })
}

/** An arbitrary constant naming Linkwell's migration lock among PostgreSQL advisory locks. */
const MIGRATION_LOCK_ID = 7_405_022_001

async function runMigrations(db: DB, schema: string | undefined, target?: string): Promise<string[]> {
  // With a non-default schema, Kysely must be told where its own tables live, or it finds
  // another schema's migration tables through the catalogue.
  // Unordered: branches add migrations side by side (006 may arrive after 007 has run somewhere);
  // each is independent of the others' numbers, and every one still runs exactly once.
  const migrator = new Migrator({ db, provider: staticMigrations, allowUnorderedMigrations: true, ...(schema ? { migrationTableSchema: schema } : {}) })
  const { error, results } = target === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(target)
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
