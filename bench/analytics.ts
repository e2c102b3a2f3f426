// Issue 24, ADR 022: how combinations of filters ("visitors from DE who came from twitter.com:
// which browsers?") are answered, three ways, on synthetic clicks spread like real traffic
// (src/analytics/click-distribution.ts):
//   raw      covering indexes over the raw clicks (per item and per account, time first, then
//            every dimension): an index-only scan of the range, filtered and grouped;
//   cube     a rollup kept beside the raw clicks: per item, hour and tuple of every dimension
//            (country, referrer, browser, os, device, language) → clicks, unique clicks;
//   duckdb   the same clicks appended to a DuckDB file beside the main database (@duckdb/node-api),
//            no index, scanned by column;
//   module   what the API runs (ADR 022's decision): the raw clicks with the migrations' indexes
//            only (003 and 026), asked through the real statistics service and its query module
//            (modules/statistics/click-query.ts), not ad-hoc SQL. `module` alone writes raw rows
//            only (no aggregates, cube or DuckDB), to reach larger sizes quickly.
// Written as the click writer writes (chunks of CHUNK clicks in one transaction: raw rows, today's
// aggregates, then the cube; DuckDB through its appender), each part timed; then the target
// answers are timed: one link, 30 days, two filters; the workspace, 90 days, no filter and two
// filters. An answer is what a statistics page needs: the day series (clicks, unique) and the six
// top lists (and the top links for the workspace). Sizes:
//   BENCH_ANALYTICS_LINK_CLICKS       clicks of the one large link (default 10,000,000)
//   BENCH_ANALYTICS_WORKSPACE_CLICKS  clicks of the workspace (default 100,000,000)
//   BENCH_ANALYTICS_LINKS             its links (default 10,000)
//   BENCH_ANALYTICS_DATABASES         sqlite,postgres (default both)
//   BENCH_ANALYTICS_READS             timed answers per query and engine (default 40, at most 30 s each)
//   BENCH_ANALYTICS_ENGINES           raw,cube,duckdb,module (default all; `duckdb` alone writes DuckDB
//                                     only, `module` alone raw rows only, to reach larger sizes quickly)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql, type Kysely } from 'kysely'
import { DuckDBInstance, DuckDBTimestampValue, type DuckDBConnection, type DuckDBAppender } from '@duckdb/node-api'
import { migrateToLatest, openDatabase, type DB, type DatabaseHandle } from '../src/db/database.js'
import { applyIncrements, incrementsOf } from '../src/analytics/click-aggregates.js'
import { insertClicks, type ClickInsertRow } from '../src/analytics/click-writer.js'
import { seedLinks, syntheticClicks } from '../src/analytics/click-seed.js'
import { nowTimestamp, daysBefore } from '../src/core/time.js'
import { createBulkInsert } from '../src/db/bulk-insert.js'
import { createStatisticsRepository } from '../src/modules/statistics/statistics.repository.js'
import { createStatisticsService } from '../src/modules/statistics/statistics.service.js'
import { createClickQuery } from '../src/modules/statistics/click-query.js'
import { withBenchDatabase } from './postgres-database.js'
import { median } from './rounds.js'

const CHUNK = 5_000
const LAST_DAY = '2026-06-30'
const DIMENSIONS = ['country', 'referrer_host', 'browser', 'os', 'device', 'language'] as const
const FILTERS: Array<[string, string]> = [['country', 'DE'], ['referrer_host', 'twitter.com']]

interface Options {
  linkClicks: number
  workspaceClicks: number
  links: number
  databases: Set<string>
  engines: Set<string>
  reads: number
}

const CUBE_KEYS = ['item_type', 'item_id', 'hour', 'country', 'referrer_host', 'browser', 'os', 'device', 'language'] as const
const addToCube = createBulkInsert('click_cube' as 'click_days', [...CUBE_KEYS, 'account_id', 'clicks', 'unique_clicks'] as never, {
  postgresTypes: { item_type: 'text', item_id: 'integer', hour: 'text', country: 'text', referrer_host: 'text', browser: 'text', os: 'text', device: 'text', language: 'text', account_id: 'integer', clicks: 'bigint', unique_clicks: 'bigint' } as never,
  onConflict: { keys: CUBE_KEYS as never, add: ['clicks', 'unique_clicks'] as never },
})

/** The extra schema of the raw and cube options (the bench's own, not a migration). */
async function createBenchSchema(db: DB): Promise<void> {
  await sql`create index clicks_item_dims_idx on clicks (item_type, item_id, created_at, country, referrer_host, browser, os, device, language, is_unique)`.execute(db)
  await sql`create index clicks_account_dims_idx on clicks (account_id, created_at, country, referrer_host, browser, os, device, language, is_unique, item_id)`.execute(db)
  await sql`create table click_cube (item_type text not null, item_id integer not null, hour text not null, country text not null, referrer_host text not null,
    browser text not null, os text not null, device text not null, language text not null, account_id integer not null, clicks bigint not null, unique_clicks bigint not null,
    primary key (item_type, item_id, hour, country, referrer_host, browser, os, device, language))`.execute(db)
  await sql`create index click_cube_account_idx on click_cube (account_id, hour)`.execute(db)
}

/** The batch reduced to one increment per (item, hour, tuple), in key order. */
function cubeRowsOf(rows: ClickInsertRow[]) {
  const cube = new Map<string, { row: Record<string, string | number>; clicks: number; unique: number }>()
  for (const click of rows) {
    const parts = [click.item_type, click.item_id, click.created_at.slice(0, 13), click.country ?? '', click.referrer_host ?? '', click.browser ?? '', click.os ?? '', click.device ?? '', click.language ?? '']
    const key = parts.join('\u0000')
    let entry = cube.get(key)
    if (!entry) cube.set(key, (entry = { row: Object.fromEntries(CUBE_KEYS.map((name, index) => [name, parts[index]!])), clicks: 0, unique: 0 }))
    entry.clicks += 1
    entry.unique += click.is_unique
    entry.row.account_id = click.account_id
  }
  return [...cube.keys()].sort().map((key) => {
    const { row, clicks, unique } = cube.get(key)!
    return { ...row, clicks, unique_clicks: unique }
  })
}

async function createDuck(file: string): Promise<{ connection: DuckDBConnection; appender: DuckDBAppender; close: () => void }> {
  const instance = await DuckDBInstance.create(file, { threads: '2' })
  const connection = await instance.connect()
  await connection.run(`create table clicks (account_id integer, item_type varchar, item_id integer, created_at timestamp, country varchar, referrer_host varchar,
    browser varchar, os varchar, device varchar, language varchar, is_unique boolean)`)
  const appender = await connection.createAppender('clicks')
  return { connection, appender, close: () => { connection.closeSync(); instance.closeSync() } }
}

function appendToDuck(appender: DuckDBAppender, rows: ClickInsertRow[]): void {
  let lastText = ''
  let lastValue = new DuckDBTimestampValue(0n)
  const text = (value: string | null) => (value === null ? appender.appendNull() : appender.appendVarchar(value))
  for (const row of rows) {
    if (row.created_at !== lastText) {
      lastText = row.created_at
      lastValue = new DuckDBTimestampValue(BigInt(Date.parse(`${row.created_at.replace(' ', 'T')}Z`)) * 1000n)
    }
    appender.appendInteger(row.account_id)
    appender.appendVarchar(row.item_type)
    appender.appendInteger(row.item_id)
    appender.appendTimestamp(lastValue)
    text(row.country); text(row.referrer_host); text(row.browser); text(row.os); text(row.device); text(row.language)
    appender.appendBoolean(row.is_unique === 1)
    appender.endRow()
  }
  appender.flushSync()
}

interface WriteTimes { raw: number; aggregates: number; cube: number; duck: number; clicks: number; cubeRows: number }

async function seed(db: DB, duck: DuckDBAppender, items: Array<{ accountId: number; itemType: 'link'; itemId: number }>, count: number, seedNumber: number, times: WriteTimes, engines: Set<string>): Promise<void> {
  let reported = 0
  for (const { rows, counted } of syntheticClicks(items, { count, days: 90, lastDay: LAST_DAY, chunk: CHUNK, seed: seedNumber })) {
    if (engines.has('module') && !engines.has('raw')) {
      const started = performance.now()
      await db.transaction().execute((trx) => insertClicks(trx, rows))
      times.raw += performance.now() - started
    }
    if (engines.has('raw')) await db.transaction().execute(async (trx) => {
      let started = performance.now()
      await insertClicks(trx, rows)
      times.raw += performance.now() - started
      started = performance.now()
      await applyIncrements(trx, incrementsOf(counted))
      times.aggregates += performance.now() - started
      if (!engines.has('cube')) return
      started = performance.now()
      const cube = cubeRowsOf(rows)
      await addToCube(trx as never, cube as never)
      times.cube += performance.now() - started
      times.cubeRows += cube.length
    })
    if (engines.has('duckdb')) {
      const started = performance.now()
      appendToDuck(duck, rows)
      times.duck += performance.now() - started
    }
    times.clicks += rows.length
    if (times.clicks - reported >= 1_000_000) {
      reported = times.clicks
      process.stderr.write(`  ${times.clicks} clicks written\n`)
    }
  }
}

type Scope = { kind: 'item'; itemId: number } | { kind: 'account'; accountId: number }
interface Question { label: string; scope: Scope; from: string; to: string; filters: Array<[string, string]> }

/** The SQL of one answer's queries (series, six top lists, top links for a workspace) for one engine. */
function answerQueries(engine: 'raw' | 'cube' | 'duckdb' | 'aggregates', question: Question): string[] {
  const quote = (value: string) => `'${value.replace(/'/g, "''")}'`
  const fromTs = `${question.from} 00:00:00`
  const toTs = `${question.to} 23:59:59`
  const where: string[] = []
  if (engine === 'cube') {
    where.push(question.scope.kind === 'item' ? `item_type = 'link' and item_id = ${question.scope.itemId}` : `account_id = ${question.scope.accountId}`)
    where.push(`hour >= ${quote(question.from)} and hour <= ${quote(`${question.to} 23`)}`)
  } else {
    where.push(question.scope.kind === 'item' ? `item_type = 'link' and item_id = ${question.scope.itemId}` : `account_id = ${question.scope.accountId}`)
    where.push(engine === 'duckdb' ? `created_at between TIMESTAMP ${quote(fromTs)} and TIMESTAMP ${quote(toTs)}` : `created_at >= ${quote(fromTs)} and created_at <= ${quote(toTs)}`)
  }
  for (const [column, value] of question.filters) where.push(`${column} = ${quote(value)}`)
  const condition = where.join(' and ')
  const clicks = engine === 'cube' ? 'sum(clicks)' : 'count(*)'
  const unique = engine === 'cube' ? 'sum(unique_clicks)' : engine === 'duckdb' ? 'count(*) filter (where is_unique)' : 'sum(is_unique)'
  const day = engine === 'cube' ? 'substr(hour, 1, 10)' : engine === 'duckdb' ? 'cast(created_at as date)' : 'substr(created_at, 1, 10)'
  const queries = [`select ${day} as day, ${clicks} as clicks, ${unique} as uniq from clicks_source where ${condition} group by 1`]
  for (const dimension of DIMENSIONS) queries.push(`select ${dimension} as value, ${clicks} as clicks from clicks_source where ${condition} group by 1 order by 2 desc, 1 limit 10`)
  if (question.scope.kind === 'account') queries.push(`select item_id, ${clicks} as clicks from clicks_source where ${condition} group by 1 order by 2 desc, 1 limit 10`)
  return queries.map((query) => query.replaceAll('clicks_source', engine === 'cube' ? 'click_cube' : 'clicks'))
}

/** Today's path (ADR 005) for a workspace without filters: click_days joined to the account's links. */
function aggregateQueries(question: Question): string[] {
  if (question.scope.kind !== 'account' || question.filters.length > 0) return []
  const join = `from click_days d join links l on l.id = d.item_id and d.item_type = 'link' where l.account_id = ${question.scope.accountId} and d.day >= '${question.from}' and d.day <= '${question.to}'`
  return [
    `select d.day, d.dimension, sum(d.clicks) ${join} and d.dimension in ('clicks', 'unique') group by d.day, d.dimension`,
    `select l.id, sum(d.clicks) as c ${join} and d.dimension = 'clicks' group by l.id order by c desc, l.id limit 10`,
  ]
}

export interface Timing { median: number; p99: number; n: number; checksum: number }

/** Up to `reads` timed answers (at least 5, at most 30 s) after one untimed; the first's number is the checksum. */
export async function timeAnswer(reads: number, answer: () => Promise<number>): Promise<Timing> {
  const checksum = await answer() // warm-up, and what the answer counted
  const samples: number[] = []
  const deadline = performance.now() + 30_000
  while (samples.length < reads && (samples.length < 5 || performance.now() < deadline)) {
    const started = performance.now()
    await answer()
    samples.push(performance.now() - started)
  }
  const sorted = [...samples].sort((a, b) => a - b)
  return { median: median(sorted), p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!, n: samples.length, checksum }
}

const sumClicks = (rows: Array<Record<string, unknown>>) => rows.reduce((total, row) => total + Number(row.clicks ?? 0), 0)

async function bytesOf(handle: DatabaseHandle, file: string | null): Promise<Record<string, number>> {
  if (file) {
    // SQLite: dbstat (compiled into better-sqlite3) gives each table's and index's pages.
    const rows = await sql<{ name: string; bytes: number }>`select name, sum(pgsize) as bytes from dbstat group by name`.execute(handle.db)
    const of = (names: string[]) => rows.rows.filter((row) => names.includes(row.name)).reduce((sum, row) => sum + Number(row.bytes), 0)
    return {
      rawTable: of(['clicks']), rawBaseIndexes: of(['clicks_item_idx', 'clicks_account_created_idx']), rawCoveringIndexes: of(['clicks_item_dims_idx', 'clicks_account_dims_idx']),
      aggregates: of(['click_days', 'click_totals', 'sqlite_autoindex_click_days_1', 'sqlite_autoindex_click_totals_1', 'click_totals_top_idx']),
      cube: of(['click_cube', 'sqlite_autoindex_click_cube_1', 'click_cube_account_idx']),
    }
  }
  const size = async (name: string) => Number((await sql<{ bytes: string }>`select pg_relation_size(${name}::regclass) as bytes`.execute(handle.db)).rows[0]!.bytes)
  return {
    rawTable: await size('clicks'), rawBaseIndexes: (await size('clicks_item_idx')) + (await size('clicks_account_created_idx')),
    rawCoveringIndexes: (await size('clicks_item_dims_idx')) + (await size('clicks_account_dims_idx')),
    aggregates: (await size('click_days')) + (await size('click_totals')) + (await size('click_days_pkey').catch(() => 0)) + (await size('click_totals_pkey').catch(() => 0)) + (await size('click_totals_top_idx')),
    cube: (await size('click_cube')) + (await size('click_cube_pkey')) + (await size('click_cube_account_idx')),
  }
}

/** The raw table and the indexes the migrations give it: what the query module reads. */
async function moduleBytesOf(handle: DatabaseHandle, sqlite: boolean): Promise<{ table: number; indexes: number }> {
  const indexes = ['clicks_item_idx', 'clicks_account_created_idx']
  if (sqlite) {
    const rows = (await sql<{ name: string; bytes: number }>`select name, sum(pgsize) as bytes from dbstat group by name`.execute(handle.db)).rows
    const of = (names: string[]) => rows.filter((row) => names.includes(row.name)).reduce((sum, row) => sum + Number(row.bytes), 0)
    return { table: of(['clicks']), indexes: of(indexes) }
  }
  const size = async (name: string) => Number((await sql<{ bytes: string }>`select pg_relation_size(${name}::regclass) as bytes`.execute(handle.db)).rows[0]!.bytes)
  let total = 0
  for (const name of indexes) total += await size(name)
  return { table: await size('clicks'), indexes: total }
}

const clicks0 = (times: WriteTimes) => Math.max(1, times.clicks)

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`
const perClick = (bytes: number, clicks: number) => `${(bytes / clicks).toFixed(1)} B/click`

async function runOn(database: 'sqlite' | 'postgres', url: string, options: Options, dir: string): Promise<void> {
  const handle = openDatabase(url)
  await migrateToLatest(handle)
  const db = handle.db as Kysely<any> as DB
  if (options.engines.has('raw') || options.engines.has('cube')) await createBenchSchema(db)
  const plan = await db.selectFrom('plans').select('id').executeTakeFirstOrThrow()
  const account = async (name: string) => (await db.insertInto('accounts').values({ email: `${name}@example.com`, username: name, password_hash: null, avatar: null, plan_id: plan.id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: nowTimestamp() }).returning('id').executeTakeFirstOrThrow()).id
  const linkAccount = await account('one-link')
  const workspace = await account('workspace')
  const [largeLink] = await seedLinks(db, linkAccount, 1)
  const workspaceLinks = await seedLinks(db, workspace, options.links)
  const duckFile = path.join(dir, `${database}.duckdb`)
  const duck = await createDuck(duckFile)
  const times: WriteTimes = { raw: 0, aggregates: 0, cube: 0, duck: 0, clicks: 0, cubeRows: 0 }
  const started = performance.now()
  console.log(`\nAnalytics (${database}): seeding ${options.linkClicks} clicks of one link and ${options.workspaceClicks} over ${options.links} links, 90 days, chunks of ${CHUNK}`)
  await seed(db, duck.appender, [{ accountId: linkAccount, itemType: 'link', itemId: largeLink! }], options.linkClicks, 1, times, options.engines)
  await seed(db, duck.appender, workspaceLinks.map((itemId) => ({ accountId: workspace, itemType: 'link' as const, itemId })), options.workspaceClicks, 2, times, options.engines)
  duck.appender.closeSync()
  await duck.connection.run('checkpoint')
  if (database === 'postgres') await sql`vacuum analyze`.execute(db)
  else await sql`analyze`.execute(db)
  const seconds = (performance.now() - started) / 1000
  const rate = (ms: number) => (ms === 0 ? '(not written)' : `${((times.clicks / ms) * 1000).toFixed(0)} clicks/s`)
  console.log(`  written in ${seconds.toFixed(0)} s; time per part, as clicks/s of that part alone:`)
  console.log(`    raw rows (${options.engines.has('raw') ? 'base + 2 covering indexes' : "the migrations' indexes only"}) ${rate(times.raw)}; today's aggregates ${rate(times.aggregates)}; cube ${rate(times.cube)} (${times.cubeRows} row increments); DuckDB append ${rate(times.duck)}`)
  if (options.engines.has('module')) {
    const moduleBytes = await moduleBytesOf(handle, database === 'sqlite')
    console.log(`  query module's storage (raw table + migrations' indexes: clicks_item_idx, clicks_account_created_idx): ${mb(moduleBytes.table + moduleBytes.indexes)}, ` +
      `${perClick(moduleBytes.table, clicks0(times))} table + ${perClick(moduleBytes.indexes, clicks0(times))} indexes = ${perClick(moduleBytes.table + moduleBytes.indexes, clicks0(times))}`)
  }
  const bytes = options.engines.has('raw') ? await bytesOf(handle, database === 'sqlite' ? url : null) : { rawTable: 0, rawBaseIndexes: 0, rawCoveringIndexes: 0, aggregates: 0, cube: 0 }
  const duckBytes = fs.statSync(duckFile).size
  const clicks = times.clicks
  if (options.engines.has('raw')) console.log(`  disk: raw table ${mb(bytes.rawTable!)} (${perClick(bytes.rawTable!, clicks)}), its base indexes ${perClick(bytes.rawBaseIndexes!, clicks)}, covering indexes ${mb(bytes.rawCoveringIndexes!)} (${perClick(bytes.rawCoveringIndexes!, clicks)}),`)
  if (options.engines.has('raw')) console.log(`        today's aggregates ${perClick(bytes.aggregates!, clicks)}, cube ${mb(bytes.cube!)} (${perClick(bytes.cube!, clicks)}), DuckDB file ${mb(duckBytes)} (${perClick(duckBytes, clicks)})`)
  const cubeRows = options.engines.has('cube') ? Number((await sql<{ n: number }>`select count(*) as n from click_cube`.execute(db)).rows[0]!.n) : 0
  if (options.engines.has('cube')) console.log(`  cube rows ${cubeRows} for ${clicks} clicks (${(cubeRows / clicks).toFixed(2)} a click)`)

  const from30 = daysBefore(LAST_DAY, 29)
  const from90 = daysBefore(LAST_DAY, 89)
  const questions: Question[] = [
    { label: 'one link, 30 days, no filter', scope: { kind: 'item', itemId: largeLink! }, from: from30, to: LAST_DAY, filters: [] },
    { label: 'one link, 30 days, DE & twitter.com', scope: { kind: 'item', itemId: largeLink! }, from: from30, to: LAST_DAY, filters: FILTERS },
    { label: 'workspace, 90 days, no filter', scope: { kind: 'account', accountId: workspace }, from: from90, to: LAST_DAY, filters: [] },
    { label: 'workspace, 90 days, DE & twitter.com', scope: { kind: 'account', accountId: workspace }, from: from90, to: LAST_DAY, filters: FILTERS },
  ]
  const runSql = async (queries: string[]) => {
    let total = 0
    for (const query of queries) total += sumClicks((await sql.raw<Record<string, unknown>>(query).execute(db)).rows.slice(0, 1))
    return total
  }
  const runDuck = async (queries: string[]) => {
    let total = 0
    for (const query of queries) total += sumClicks((await duck.connection.runAndReadAll(query)).getRowObjectsJS().slice(0, 1) as Array<Record<string, unknown>>)
    return total
  }
  const format = (timing: Timing) => `median ${timing.median.toFixed(1).padStart(7)} ms, p99 ${timing.p99.toFixed(1).padStart(7)} ms (n ${timing.n})`
  // The API's path: the statistics service with the query module, "today" being LAST_DAY.
  const statistics = createStatisticsService({ statistics: createStatisticsRepository(db), now: () => new Date(`${LAST_DAY}T12:00:00Z`), engine: createClickQuery(db) })
  const viaModule = async (question: Question): Promise<number> => {
    const filters = Object.fromEntries(question.filters.map(([column, value]) => [column === 'referrer_host' ? 'referrer' : column, value]))
    // Without a filter, `granularity=day` is what sends a request to the raw clicks.
    const query = { from: question.from, to: question.to, granularity: 'day', ...filters }
    const answer = question.scope.kind === 'item'
      ? await statistics.betweenOrThrow(linkAccount, { itemType: 'link', itemId: question.scope.itemId }, query)
      : await statistics.accountBetween(question.scope.accountId, query)
    return answer.clicks
  }
  for (const question of questions) {
    console.log(`  ${question.label}:`)
    if (options.engines.has('module')) console.log(`    query module (API)  ${format(await timeAnswer(options.reads, () => viaModule(question)))}  clicks counted: ${await viaModule(question)}`)
    const aggregates = aggregateQueries(question)
    if (aggregates.length && options.engines.has('raw')) console.log(`    aggregates (today)  ${format(await timeAnswer(options.reads, () => runSql(aggregates)))}`)
    if (options.engines.has('raw')) console.log(`    raw + indexes       ${format(await timeAnswer(options.reads, () => runSql(answerQueries('raw', question))))}`)
    if (options.engines.has('cube')) console.log(`    cube                ${format(await timeAnswer(options.reads, () => runSql(answerQueries('cube', question))))}`)
    if (options.engines.has('duckdb')) console.log(`    DuckDB              ${format(await timeAnswer(options.reads, () => runDuck(answerQueries('duckdb', question))))}`)
  }
  // The engines agree: the series of the filtered link counted every way.
  const check = questions[1]!
  const counts = [
    ...(options.engines.has('raw') ? [await runSql(answerQueries('raw', check).slice(0, 1))] : []),
    ...(options.engines.has('cube') ? [await runSql(answerQueries('cube', check).slice(0, 1))] : []),
    ...(options.engines.has('duckdb') ? [await runDuck(answerQueries('duckdb', check).slice(0, 1))] : []),
  ]
  if (counts.length > 0) console.log(`  check (first day's filtered clicks, ${[...options.engines].join('/')}): ${counts.join(' / ')}${new Set(counts).size === 1 ? '' : '  MISMATCH'}`)
  duck.close()
  await handle.close()
}

export async function runAnalyticsBench(options: Options & { postgresUrl: string }): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-analytics-'))
  try {
    if (options.databases.has('sqlite')) await runOn('sqlite', `file:${path.join(dir, 'analytics.db')}`, options, dir)
    if (options.databases.has('postgres')) await withBenchDatabase(options.postgresUrl, (url) => runOn('postgres', url, options, dir))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// Run alone: npx tsx bench/analytics.ts (npm run bench with BENCH_ONLY=analytics runs it after a build).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await runAnalyticsBench(analyticsOptionsFromEnvironment(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'))
}

export function analyticsOptionsFromEnvironment(postgresUrl: string): Options & { postgresUrl: string } {
  return {
    linkClicks: Number(process.env.BENCH_ANALYTICS_LINK_CLICKS ?? 10_000_000),
    workspaceClicks: Number(process.env.BENCH_ANALYTICS_WORKSPACE_CLICKS ?? 100_000_000),
    links: Number(process.env.BENCH_ANALYTICS_LINKS ?? 10_000),
    databases: new Set((process.env.BENCH_ANALYTICS_DATABASES ?? 'sqlite,postgres').split(',').map((name) => name.trim())),
    reads: Number(process.env.BENCH_ANALYTICS_READS ?? 40),
    engines: new Set((process.env.BENCH_ANALYTICS_ENGINES ?? 'raw,cube,duckdb,module').split(',').map((name) => name.trim())),
    postgresUrl,
  }
}
