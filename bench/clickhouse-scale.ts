// Issue 40, ADR 035: the ClickHouse engine at the issue's sizes, answered through the statistics
// service by two instances on one PostgreSQL database. ClickHouse is seeded directly (INSERT …
// SELECT FROM numbers(), the click writer cannot reach 100 million clicks in a bench's time): ADR
// 022's synthetic distribution, 100,000,000 clicks over 10,000 links (Zipf across links) plus one
// link of 10,000,000 in another account, 90 days, dimensions Zipf-spread over
// src/analytics/click-distribution.ts's values (an index drawn as ⌊(n+1)^u⌋ − 1 for a uniform u:
// P(k) ∝ about 1/(k+1), Zipf with s = 1 up to the rounding). Then:
//   - the issue's questions are timed through `statistics.betweenOrThrow` / `accountBetween` of
//     two services, each with its own ClickHouse engine (as two instances have), asked in turn;
//   - the feeder's throughput: BENCH_CH_FEED_CLICKS raw clicks are written into PostgreSQL and the
//     feeder copies them (its cursor set at them) into ClickHouse, timed;
//   - disk per click (system.parts of Linkwell's tables).
// `BENCH_ONLY=clickhouse-scale npm run bench`, or `npx tsx bench/clickhouse-scale.ts`. Sizes:
// BENCH_CH_WORKSPACE_CLICKS (100,000,000), BENCH_CH_LINK_CLICKS (10,000,000), BENCH_CH_LINKS
// (10,000), BENCH_CH_FEED_CLICKS (1,000,000), BENCH_CH_READS (40). ClickHouse: BENCH_CLICKHOUSE_URL
// (clickhouse://host:port/, a database `linkwell_bench_PID` is made and dropped), else a server started
// on loopback (test/helpers/clickhouse-server.ts). PostgreSQL: TEST_DATABASE_URL's server.
// BENCH_CH_KEEP=1 keeps the seeded store for the next run (seeding 110M clicks takes from 20 minutes
// to hours): ClickHouse's database `linkwell_bench_kept` (the loopback server's folder is kept too:
// BENCH_CH_DIR, by default linkwell-bench-clickhouse in the temporary folder) and PostgreSQL's
// `lw_bench_clickhouse_kept` (the accounts and links the questions need). A later run with
// BENCH_CH_KEEP=1 and the same sizes reuses them when they still match (the sizes recorded at
// seeding, the clicks held, the accounts and links); it prints which, and
// the clicks held. A kept store of other sizes is not replaced unless BENCH_CH_RESEED=1 (one whose
// seeding was interrupted is: it has no record). The feeder's part always runs in databases of its
// own, dropped at its end.
import os from 'node:os'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import pg from 'pg'
import { ZIPF_BROWSERS, ZIPF_COUNTRIES, ZIPF_DEVICES, ZIPF_LANGUAGES, ZIPF_REFERRERS, ZIPF_SYSTEMS } from '../src/analytics/click-distribution.js'
import { seedLinks } from '../src/analytics/click-seed.js'
import { LAYOUT_VERSION, literal, openClickhouseStore, type ClickhouseStore } from '../src/analytics/clickhouse-store.js'
import { createClickhouseFeeder } from '../src/analytics/clickhouse-feeder.js'
import { loadConfig } from '../src/config.js'
import { nowTimestamp } from '../src/core/time.js'
import { migrateToLatest, openDatabase, type DB } from '../src/db/database.js'
import { createRawClickRepository } from '../src/modules/statistics/raw-click.repository.js'
import { createStatisticsEngines } from '../src/modules/statistics/statistics-engines.js'
import { startClickhouseServer, type ClickhouseServer } from '../test/helpers/clickhouse-server.js'
import { timeAnswer, type Timing } from './analytics.js'
import { withBenchDatabase } from './postgres-database.js'
import { createFixture, statisticsServiceOn } from './statistics-service.js'

const DAYS = 90
const LAST_DAY = '2026-06-30'
const DAY_MS = 86_400_000
const END = Date.parse(`${LAST_DAY}T00:00:00Z`) + DAY_MS
const START = END - DAYS * DAY_MS
/** The questions' ClickHouse database: the run's own (dropped at its end), or the kept one (BENCH_CH_KEEP=1). */
const RUN_DATABASE = `linkwell_bench_${process.pid}`
const KEPT_DATABASE = 'linkwell_bench_kept'
/** The kept PostgreSQL database of the questions (the accounts and links). */
const KEPT_POSTGRES = 'lw_bench_clickhouse_kept'
/** The feeder's part: a ClickHouse database of its own, dropped at its end. */
const FEED_DATABASE = `linkwell_bench_feed_${process.pid}`

export interface ClickhouseScaleOptions {
  workspaceClicks: number
  linkClicks: number
  links: number
  feedClicks: number
  reads: number
  /** `feeder`: only the feeder's throughput (nothing seeded, no questions); else everything. */
  parts: 'all' | 'feeder'
  postgresUrl: string
  clickhouseUrl: string | null
  /** Keep the seeded store and reuse it on the next run (BENCH_CH_KEEP=1). */
  keep: boolean
  /** The kept loopback server's folder (BENCH_CH_DIR). */
  keptDir: string
}

export function clickhouseScaleOptionsFromEnvironment(postgresUrl: string): ClickhouseScaleOptions {
  const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
  return {
    workspaceClicks: number('BENCH_CH_WORKSPACE_CLICKS', 100_000_000),
    linkClicks: number('BENCH_CH_LINK_CLICKS', 10_000_000),
    links: number('BENCH_CH_LINKS', 10_000),
    feedClicks: number('BENCH_CH_FEED_CLICKS', 1_000_000),
    reads: number('BENCH_CH_READS', 40),
    parts: process.env.BENCH_CH_PARTS === 'feeder' ? 'feeder' : 'all',
    postgresUrl,
    clickhouseUrl: process.env.BENCH_CLICKHOUSE_URL ?? null,
    keep: process.env.BENCH_CH_KEEP === '1',
    keptDir: process.env.BENCH_CH_DIR ?? path.join(os.tmpdir(), 'linkwell-bench-clickhouse'),
  }
}

/** A uniform draw in [0, 1) for row `n` (the seeded click's index) and stream `k`, the same on every run. */
const uniform = (k: number) => `(cityHash64(n, ${k}, salt) % 1000000) / 1000000`
/** A Zipf-spread index 0…n-1 (see the header). */
const zipfIndex = (n: number, k: number) => `least(${n - 1}, toUInt32(floor(pow(${n + 1}, ${uniform(k)}))) - 1)`
const valueOf = (values: readonly string[], k: number) => `[${values.map(literal).join(', ')}][1 + ${zipfIndex(values.length, k)}]`

/**
 * INSERT … SELECT of clicks `offset`…`offset + count` of `total`, ids from `firstId + offset`,
 * evenly over the 90 days in time order; `salt` makes another series' draws.
 */
function seedStatement(table: string, options: { firstId: number; offset: number; count: number; total: number; salt: number; accountId: number; firstLink: number; links: number }): string {
  const seconds = DAYS * 86_400
  return `INSERT INTO ${table} SELECT
      ${options.firstId} + n AS id, ${options.accountId} AS account_id, 0 AS item_type,
      ${options.links === 1 ? options.firstLink : `${options.firstLink} + ${zipfIndex(options.links, 1)}`} AS item_id,
      toDateTime(toUInt32(${START / 1000} + intDiv(n * ${seconds}, ${options.total})), 'UTC') AS clicked_at,
      ${valueOf(ZIPF_COUNTRIES, 2)} AS country, ${valueOf(ZIPF_REFERRERS, 3)} AS referrer, ${valueOf(ZIPF_BROWSERS, 4)} AS browser,
      ${valueOf(ZIPF_SYSTEMS, 5)} AS os, ${valueOf(ZIPF_DEVICES, 6)} AS device, ${valueOf(ZIPF_LANGUAGES, 7)} AS language,
      cityHash64(n, 8, salt) % 10 < 4 AS is_unique
    FROM (SELECT number + ${options.offset} AS n, ${options.salt} AS salt FROM numbers(${options.count}))`
}

/** The load beside a figure (2 shared cores: a figure taken under load says little). */
const uptime = () => `load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')} on ${os.cpus().length} cores`
const format = (timing: Timing) => `median ${timing.median.toFixed(1)} ms, p99 ${timing.p99.toFixed(1)} ms (${timing.n} answers, ${uptime()})`
/** The rollups (merged after seeding; their rows printed). */
const ROLLUP_TABLES = ['account_hours', 'account_hour_values', 'link_hours', 'account_day_values', 'link_days', 'account_week_values', 'link_weeks', 'account_month_values', 'link_months']
const verdict = (timing: Timing, median: number, p99?: number) => (timing.median < median && (p99 === undefined || timing.p99 < p99) ? 'met' : 'NOT met')
const day = (index: number) => nowTimestamp(new Date(START + index * DAY_MS)).slice(0, 10)

/** The sizes a kept store was seeded with, and the ids the questions ask about (ClickHouse's `bench_seed`). */
interface SeedRecord {
  workspace_clicks: number
  link_clicks: number
  links: number
  workspace: number
  link_account: number
  first_link: number
  large_link: number
}

/** Runs `work` on a PostgreSQL database: the run's own (dropped at its end), or the kept one (made when missing, emptied when `fresh`). */
async function withQuestionDatabase<T>(options: ClickhouseScaleOptions, fresh: boolean, work: (url: string) => Promise<T>): Promise<T> {
  if (!options.keep) return withBenchDatabase(options.postgresUrl, work)
  const admin = new pg.Client({ connectionString: options.postgresUrl })
  await admin.connect()
  try {
    if (fresh) await admin.query(`drop database if exists ${KEPT_POSTGRES} with (force)`)
    const found = await admin.query('select 1 from pg_database where datname = $1', [KEPT_POSTGRES])
    if (found.rowCount === 0) await admin.query(`create database ${KEPT_POSTGRES}`)
  } finally {
    await admin.end()
  }
  const url = new URL(options.postgresUrl)
  url.pathname = `/${KEPT_POSTGRES}`
  return work(url.toString())
}

/** The kept store's record when it matches the sizes asked and holds their clicks; null: seed anew (no record, or BENCH_CH_RESEED=1); else refused. */
async function keptSeed(admin: ClickhouseStore, database: string, options: ClickhouseScaleOptions): Promise<SeedRecord | null> {
  const [exists] = await admin.rows<{ c: string }>(`SELECT count() AS c FROM system.tables WHERE database = ${literal(database)} AND name = 'bench_seed'`)
  if (Number(exists?.c ?? 0) === 0) return null
  const [record] = await admin.rows<Record<keyof SeedRecord, string>>(`SELECT * FROM ${database}.bench_seed LIMIT 1`)
  if (!record) return null
  const seed = Object.fromEntries(Object.entries(record).map(([key, value]) => [key, Number(value)])) as unknown as SeedRecord
  const held = (await admin.size()).clicks
  const sizes = seed.workspace_clicks === options.workspaceClicks && seed.link_clicks === options.linkClicks && seed.links === options.links
  if (sizes && held === seed.workspace_clicks + seed.link_clicks) return seed
  // A finished seeding of other sizes (or one that lost clicks) is not dropped by a mistyped run: it may have taken hours.
  if (process.env.BENCH_CH_RESEED === '1') return null
  throw new Error(`the kept store ${database} was seeded with ${seed.workspace_clicks} + ${seed.link_clicks} clicks over ${seed.links} links and holds ${held}; asked: ${options.workspaceClicks} + ${options.linkClicks} over ${options.links}. Run with its sizes, or BENCH_CH_RESEED=1 to seed anew`)
}

/** Whether the kept PostgreSQL database has the accounts and links the record names. */
async function postgresMatches(db: DB, seed: SeedRecord): Promise<boolean> {
  const accounts = await db.selectFrom('accounts').select(['id', 'username']).where('username', 'in', ['workspace', 'one-link']).execute()
  const byName = new Map(accounts.map((row) => [row.username, Number(row.id)]))
  if (byName.get('workspace') !== seed.workspace || byName.get('one-link') !== seed.link_account) return false
  const links = await db.selectFrom('links').select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('id').as('first')]).where('account_id', '=', seed.workspace).executeTakeFirstOrThrow()
  return Number(links.n) === seed.links && Number(links.first) === seed.first_link
}

export async function runClickhouseScaleBench(options: ClickhouseScaleOptions): Promise<void> {
  const total = options.workspaceClicks + options.linkClicks
  console.log(options.parts === 'feeder' ? `\n== analytics, ClickHouse (ADR 035): the feeder only, ${options.feedClicks.toLocaleString('en')} clicks` : `\n== analytics, ClickHouse (ADR 035): ${options.workspaceClicks.toLocaleString('en')} workspace clicks over ${options.links.toLocaleString('en')} links + one link of ${options.linkClicks.toLocaleString('en')}, ${DAYS} days; answers through the statistics service of two instances on PostgreSQL`)
  let server: ClickhouseServer | null = null
  const keptServer = options.keep && !options.clickhouseUrl
  const base = options.clickhouseUrl ?? (server = await startClickhouseServer(keptServer ? { dir: options.keptDir } : {})).url
  const http = new URL(base.replace(/^clickhouse:/, 'http:'))
  const access = { url: `http://${http.host}`, username: decodeURIComponent(http.username) || 'default', password: decodeURIComponent(http.password) }
  const storeUrl = (database: string) => `clickhouse://${access.username}:${encodeURIComponent(access.password)}@${http.host}/${database}`
  try {
    if (options.parts === 'all') await questions(options.keep ? KEPT_DATABASE : RUN_DATABASE)
    await feederPart()
  } finally {
    await server?.stop({ keep: keptServer })
  }

  /** Seeds (or reuses) the questions' store and times the questions through two instances' services. */
  async function questions(database: string): Promise<void> {
    const probe = await openClickhouseStore({ ...access, database, queryTimeoutMs: 600_000 })
    const kept = options.keep ? await keptSeed(probe, database, options).finally(() => probe.close()) : (await probe.close(), null)
    // A store that is not reused is seeded from nothing (its tables made again by the next store's first query).
    if (!kept) await dropDatabase(database)
    const admin = await openClickhouseStore({ ...access, database, queryTimeoutMs: 3_600_000, insertTimeoutMs: 3_600_000 })
    try {
      await withQuestionDatabase(options, options.keep && !kept, async (url) => {
        const handle = openDatabase(url, { poolMax: 10 })
        try {
          await migrateToLatest(handle)
          const db = handle.db as Kysely<any> as DB
          const seed = kept && (await postgresMatches(db, kept)) ? kept : null
          if (seed) {
            console.log(`    reused the kept store (BENCH_CH_KEEP=1): ClickHouse ${database} holds ${(await admin.size()).clicks.toLocaleString('en')} clicks, seeded by an earlier run with these sizes; PostgreSQL ${KEPT_POSTGRES}`)
            // Built again when this code's layout is newer than the kept store's (timed: a build at size).
            if (!(await admin.layoutReady(true))) {
              const started = performance.now()
              await admin.buildLayout(async () => true, { timeoutMs: 3_600_000 })
              await merged(admin, database)
              console.log(`    the kept store's layout was older: rebuilt (version ${LAYOUT_VERSION}) in ${((performance.now() - started) / 1000).toFixed(0)} s`)
            }
            // No lease left by an earlier run that was stopped.
            await db.updateTable('clickhouse_feed').set({ holder: null, lease_until: null, last_id: total }).where('id', '=', 1).execute()
            await ask(db, database, seed)
          } else {
            if (kept) throw new Error(`PostgreSQL's ${KEPT_POSTGRES} does not match the kept ClickHouse store: BENCH_CH_RESEED=1 seeds both anew`)
            await ask(db, database, await seedStore(db, admin, database))
          }
        } finally {
          await handle.close()
        }
      })
    } finally {
      await admin.close()
      if (!options.keep) await dropDatabase(database).catch(() => undefined)
    }
  }

  async function dropDatabase(database: string): Promise<void> {
    const response = await fetch(`${access.url}/?user=${encodeURIComponent(access.username)}&password=${encodeURIComponent(access.password)}`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` })
    if (!response.ok) throw new Error(`DROP DATABASE ${database}: ${await response.text()}`)
  }

  /** Seeds ClickHouse (and the accounts and links in PostgreSQL) in ADR 022's distribution; records the sizes when kept. */
  async function seedStore(db: DB, admin: ClickhouseStore, database: string): Promise<SeedRecord> {
    const { linkAccount, workspace, largeLink, firstLink } = await createFixture(db, options.links)
    await admin.ensureSchema()
    // The layout's build on the empty store (instant): the seeded clicks reach every derived table through its view.
    await admin.buildLayout(async () => true)
    const started = performance.now()
    // The seeded ids are ClickHouse's only: the feeder starts past them.
    await db.updateTable('clickhouse_feed').set({ last_id: total }).where('id', '=', 1).execute()
    // Seeding, 10 million clicks per statement.
    const chunk = 10_000_000
    for (let done = 0; done < options.workspaceClicks; done += chunk) {
      const count = Math.min(chunk, options.workspaceClicks - done)
      await admin.command(seedStatement(`${database}.clicks`, { firstId: 1, offset: done, count, total: options.workspaceClicks, salt: 0, accountId: workspace, firstLink, links: options.links }), 3_600_000)
      console.log(`    seeded ${(done + count).toLocaleString('en')} workspace clicks in ${((performance.now() - started) / 1000).toFixed(0)} s (${uptime()})`)
    }
    for (let done = 0; done < options.linkClicks; done += chunk) {
      const count = Math.min(chunk, options.linkClicks - done)
      await admin.command(seedStatement(`${database}.clicks`, { firstId: 1 + options.workspaceClicks, offset: done, count, total: options.linkClicks, salt: 1, accountId: linkAccount, firstLink: largeLink, links: 1 }), 3_600_000)
    }
    const seedSeconds = (performance.now() - started) / 1000
    console.log(`    seeded ${total.toLocaleString('en')} clicks in ${seedSeconds.toFixed(0)} s (${Math.round(total / seedSeconds).toLocaleString('en')} clicks/s: the click table, its copies' and rollups' views)`)
    await merged(admin, database)
    const seed: SeedRecord = { workspace_clicks: options.workspaceClicks, link_clicks: options.linkClicks, links: options.links, workspace, link_account: linkAccount, first_link: firstLink, large_link: largeLink }
    if (options.keep) {
      // Written last: a run stopped while seeding leaves no record, and the next seeds anew.
      await admin.command(`CREATE TABLE ${database}.bench_seed (${Object.keys(seed).map((key) => `${key} UInt64`).join(', ')}) ENGINE = MergeTree ORDER BY tuple()`)
      await admin.command(`INSERT INTO ${database}.bench_seed VALUES (${Object.values(seed).join(', ')})`)
    }
    return seed
  }

  /** The tables merged, as ClickHouse's background merges leave them on a settled store (each seeding block wrote its own rows per key until then). */
  async function merged(admin: ClickhouseStore, database: string): Promise<void> {
    await admin.command(`OPTIMIZE TABLE ${database}.clicks FINAL`, 3_600_000).catch(() => undefined)
    const started = performance.now()
    const rollups = ROLLUP_TABLES.map(literal).join(', ')
    for (const rollup of ROLLUP_TABLES) await admin.command(`OPTIMIZE TABLE ${database}.${rollup} FINAL`, 3_600_000)
    const rollupRows = await admin.rows<{ t: string; r: string }>(`SELECT table AS t, sum(rows) AS r FROM system.parts WHERE database = ${literal(database)} AND active AND table IN (${rollups}) GROUP BY t ORDER BY t`)
    console.log(`    rollups merged in ${((performance.now() - started) / 1000).toFixed(0)} s; rows: ${rollupRows.map((row) => `${row.t} ${Number(row.r).toLocaleString('en')}`).join(', ')}`)
  }

  /** The questions, timed through the statistics service of two instances. */
  async function ask(db: DB, database: string, seed: SeedRecord): Promise<void> {
    const admin = await openClickhouseStore({ ...access, database, queryTimeoutMs: 600_000 })
    const size = await admin.size()
    await admin.close()
    console.log(`    disk: ${(size.bytes / 1_048_576).toFixed(0)} MB, ${(size.bytes / total).toFixed(1)} B per click (the click copies, the rollups, the id ledger); ${size.clicks.toLocaleString('en')} ids held`)
    const { workspace, link_account: linkAccount, large_link: largeLink } = seed
    // Two instances: two services, each with its own ClickHouse engine and feeder, on one database.
    const config = loadConfig({ DATABASE_URL: 'postgres://unused/x', PUBLIC_URL: 'https://lw.test', ANALYTICS_STORE: storeUrl(database) })
    const instances = [0, 1].map(() => createStatisticsEngines({
      db, rawClicks: createRawClickRepository(db), clicks: { afterCommit: () => () => undefined }, storeFile: null, retentionDays: null, clickhouse: config.clickhouse,
      clickhouseOptions: { queryTimeoutMs: 60_000 }, onError: (error) => console.log(`    engine: ${String(error)}`),
    }))
    for (const instance of instances) await instance.start()
    const services = instances.map((instance) => statisticsServiceOn(db, { now: () => new Date(END), engine: instance.engine }))
    let turn = 0
    const inTurn = () => services[turn++ % 2]!
    const timed = (reads: number, answer: () => Promise<unknown>) => timeAnswer(reads, async () => {
      await answer()
      return 0
    })
    const link = { itemType: 'link' as const, itemId: largeLink }
    const last30 = { from: day(DAYS - 30), to: LAST_DAY }
    const all = { from: day(0), to: LAST_DAY }
    const two = { country: 'DE', referrer: 'twitter.com' }
    const other = { browser: 'Firefox', language: 'de' }

    const counted = await inTurn().accountBetween(workspace, { ...all, granularity: 'day' })
    console.log(`    agreement: the workspace's answer counts ${counted.clicks.toLocaleString('en')} clicks; seeded ${options.workspaceClicks.toLocaleString('en')}: ${counted.clicks === options.workspaceClicks ? 'yes' : 'NO'}`)
    const linkTwo = await timed(options.reads, () => inTurn().betweenOrThrow(linkAccount, link, { ...last30, ...two }))
    console.log(`    one link, 30 days, DE & twitter.com: ${format(linkTwo)}; target median < 50 ms, p99 < 200 ms: ${verdict(linkTwo, 50, 200)}`)
    const linkOther = await timed(Math.min(options.reads, 10), () => inTurn().betweenOrThrow(linkAccount, link, { ...last30, ...other }))
    console.log(`    one link, 30 days, Firefox & de: ${format(linkOther)}`)
    const linkHours = await timed(Math.min(options.reads, 10), () => inTurn().betweenOrThrow(linkAccount, link, { ...last30, granularity: 'hour', tz: 'Europe/Berlin' }))
    console.log(`    one link, 30 days, no filter, by hour in Europe/Berlin: ${format(linkHours)}`)
    const workspaceNone = await timed(options.reads, () => inTurn().accountBetween(workspace, { ...all, granularity: 'day' }))
    console.log(`    workspace, 90 days, no filter: ${format(workspaceNone)}; target < 20 ms: ${verdict(workspaceNone, 20)}`)
    // The same questions of the store alone (no feeder round before the answer, no service): where the time goes.
    const store = instances[0]!.clickhouse!.store
    const storeNone = await timed(options.reads, () => store.figures({ scope: { accountId: workspace }, start: START, end: END, filters: {}, quarters: false, choice: { top: 10 } }))
    console.log(`    the store alone, workspace, 90 days, no filter (top 10 links): ${format(storeNone)}`)
    const storeTwo = await timed(Math.min(options.reads, 10), () => store.figures({ scope: { accountId: workspace }, start: START, end: END, filters: { country: ['DE'], referrer: ['twitter.com'] }, quarters: false, choice: { top: 10 } }))
    console.log(`    the store alone, workspace, 90 days, DE & twitter.com (top 10 links): ${format(storeTwo)}`)
    const workspaceCompare = await timed(Math.min(options.reads, 10), () => inTurn().accountBetween(workspace, { from: day(DAYS - 30), to: LAST_DAY, compare: 'previous' }))
    console.log(`    workspace, 30 days beside the 30 before (compare=previous): ${format(workspaceCompare)}`)
    const workspaceTwo = await timed(options.reads, () => inTurn().accountBetween(workspace, { ...all, ...two }))
    console.log(`    workspace, 90 days, DE & twitter.com: ${format(workspaceTwo)}; target < 300 ms: ${verdict(workspaceTwo, 300)}`)
    const workspaceOther = await timed(Math.min(options.reads, 5), () => inTurn().accountBetween(workspace, { ...all, ...other }))
    console.log(`    workspace, 90 days, Firefox & de: ${format(workspaceOther)}`)
    for (const instance of instances) await instance.close()
  }

  /** The feeder's throughput: raw clicks written into PostgreSQL and copied by one feeder, in databases of its own. */
  async function feederPart(): Promise<void> {
    await withBenchDatabase(options.postgresUrl, async (url) => {
      const handle = openDatabase(url, { poolMax: 10 })
      const store = await openClickhouseStore({ ...access, database: FEED_DATABASE, queryTimeoutMs: 600_000 })
      try {
        await migrateToLatest(handle)
        const db = handle.db as Kysely<any> as DB
        const plan = await db.selectFrom('plans').select('id').executeTakeFirstOrThrow()
        const workspace = (await db.insertInto('accounts').values({ email: 'feed@example.com', username: 'feed', password_hash: null, avatar: null, plan_id: plan.id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: nowTimestamp() }).returning('id').executeTakeFirstOrThrow()).id
        const links = await seedLinks(db, workspace, options.links)
        let started = performance.now()
        await sql`insert into clicks (account_id, item_type, item_id, created_at, referrer_host, language, visitor_hash, country, browser, os, device, is_unique)
          select ${workspace}, 'link', ${links[0]!} + (n % ${options.links}), to_char(timestamp '2026-06-30 00:00:00' + (n % 86400) * interval '1 second', 'YYYY-MM-DD HH24:MI:SS'),
            case when n % 3 = 0 then null else 'twitter.com' end, 'de', md5(n::text), case when n % 5 = 0 then 'DE' else 'US' end, 'Firefox', 'Linux', 'desktop', (n % 2)
          from generate_series(1, ${options.feedClicks}) as n`.execute(db)
        console.log(`    wrote ${options.feedClicks.toLocaleString('en')} raw clicks into PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`)
        const phases = { clicks: 0, read: 0, ledger: 0, insert: 0, keep: 0 }
        const feeder = createClickhouseFeeder({ db, store, retentionDays: null, onBatch: (batch) => {
          for (const key of Object.keys(phases) as Array<keyof typeof phases>) phases[key] += batch[key]
        } })
        started = performance.now()
        let copied = 0
        for (;;) {
          const round = await feeder.round()
          if (round === null) throw new Error('the feeder did not get its lease')
          copied += round
          if (round === 0) break
        }
        const feedSeconds = (performance.now() - started) / 1000
        console.log(`    feeder: ${copied.toLocaleString('en')} clicks PostgreSQL → ClickHouse in ${feedSeconds.toFixed(1)} s: ${Math.round(copied / feedSeconds).toLocaleString('en')} clicks/s; target ≥ 50,000/s: ${copied / feedSeconds >= 50_000 ? 'met' : 'NOT met'} (${uptime()}); held ${(await store.size()).clicks.toLocaleString('en')} (expected ${options.feedClicks.toLocaleString('en')})`)
        const share = (ms: number) => `${(ms / 1000).toFixed(1)} s`
        console.log(`    feeder's batches: reading PostgreSQL ${share(phases.read)}, the ledger ${share(phases.ledger)}, inserting ${share(phases.insert)}, the cursor ${share(phases.keep)} (phases overlap when the next page is read during an insert)`)
        await feeder.stop()
      } finally {
        await store.close()
        await dropDatabase(FEED_DATABASE).catch(() => undefined)
        await handle.close()
      }
    })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runClickhouseScaleBench(clickhouseScaleOptionsFromEnvironment(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'))
