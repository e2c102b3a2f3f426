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
import os from 'node:os'
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import { ZIPF_BROWSERS, ZIPF_COUNTRIES, ZIPF_DEVICES, ZIPF_LANGUAGES, ZIPF_REFERRERS, ZIPF_SYSTEMS } from '../src/analytics/click-distribution.js'
import { seedLinks } from '../src/analytics/click-seed.js'
import { literal, openClickhouseStore } from '../src/analytics/clickhouse-store.js'
import { createClickhouseFeeder } from '../src/analytics/clickhouse-feeder.js'
import { loadConfig } from '../src/config.js'
import { nowTimestamp } from '../src/core/time.js'
import { migrateToLatest, openDatabase, type DB } from '../src/db/database.js'
import { createRawClickRepository } from '../src/modules/statistics/raw-click.repository.js'
import { createStatisticsEngines } from '../src/modules/statistics/statistics-engines.js'
import { startClickhouseServer, type ClickhouseServer } from '../test/helpers/clickhouse-server.js'
import { timeAnswer, type Timing } from './analytics.js'
import { withBenchDatabase } from './postgres-database.js'
import { statisticsServiceOn } from './statistics-service.js'

const DAYS = 90
const LAST_DAY = '2026-06-30'
const DAY_MS = 86_400_000
const END = Date.parse(`${LAST_DAY}T00:00:00Z`) + DAY_MS
const START = END - DAYS * DAY_MS
/** A database of the run's own (dropped at its end). */
const DATABASE = `linkwell_bench_${process.pid}`

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

const format = (timing: Timing) => `median ${timing.median.toFixed(1)} ms, p99 ${timing.p99.toFixed(1)} ms (${timing.n} answers, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`
const verdict = (timing: Timing, median: number, p99?: number) => (timing.median < median && (p99 === undefined || timing.p99 < p99) ? 'met' : 'NOT met')
const day = (index: number) => nowTimestamp(new Date(START + index * DAY_MS)).slice(0, 10)

export async function runClickhouseScaleBench(options: ClickhouseScaleOptions): Promise<void> {
  const total = options.workspaceClicks + options.linkClicks
  console.log(options.parts === 'feeder' ? `\n== analytics, ClickHouse (ADR 035): the feeder only, ${options.feedClicks.toLocaleString('en')} clicks` : `\n== analytics, ClickHouse (ADR 035): ${options.workspaceClicks.toLocaleString('en')} workspace clicks over ${options.links.toLocaleString('en')} links + one link of ${options.linkClicks.toLocaleString('en')}, ${DAYS} days; answers through the statistics service of two instances on PostgreSQL`)
  let server: ClickhouseServer | null = null
  const base = options.clickhouseUrl ?? (server = await startClickhouseServer()).url
  const http = new URL(base.replace(/^clickhouse:/, 'http:'))
  const target = { url: `http://${http.host}`, database: DATABASE, username: decodeURIComponent(http.username) || 'default', password: decodeURIComponent(http.password) }
  const admin = await openClickhouseStore({ ...target, queryTimeoutMs: 3_600_000, insertTimeoutMs: 3_600_000 })
  try {
    await withBenchDatabase(options.postgresUrl, async (url) => {
      const handle = openDatabase(url, { poolMax: 10 })
      try {
        await migrateToLatest(handle)
        const db = handle.db as Kysely<any> as DB
        const plan = await db.selectFrom('plans').select('id').executeTakeFirstOrThrow()
        const account = async (name: string) => (await db.insertInto('accounts').values({ email: `${name}@example.com`, username: name, password_hash: null, avatar: null, plan_id: plan.id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: nowTimestamp() }).returning('id').executeTakeFirstOrThrow()).id
        const linkAccount = await account('one-link')
        const workspace = await account('workspace')
        const [largeLink] = await seedLinks(db, linkAccount, 1)
        const links = await seedLinks(db, workspace, options.links)
        if (links.some((id, index) => id !== links[0]! + index)) throw new Error('the workspace links were not given consecutive ids')

        await admin.ensureSchema()
        // The layout's build on the empty store (instant): the seeded clicks reach every derived table through its view.
        await admin.buildLayout(async () => true)
        let started = performance.now()
        // The seeded ids are ClickHouse's only: the feeder starts past them.
        await db.updateTable('clickhouse_feed').set({ last_id: total }).where('id', '=', 1).execute()
        if (options.parts === 'all') {
          // Seeding, 10 million clicks per statement.
          const chunk = 10_000_000
          for (let done = 0; done < options.workspaceClicks; done += chunk) {
            const count = Math.min(chunk, options.workspaceClicks - done)
            await admin.command(seedStatement(`${DATABASE}.clicks`, { firstId: 1, offset: done, count, total: options.workspaceClicks, salt: 0, accountId: workspace, firstLink: links[0]!, links: options.links }), 3_600_000)
            console.log(`    seeded ${(done + count).toLocaleString('en')} workspace clicks in ${((performance.now() - started) / 1000).toFixed(0)} s`)
          }
          for (let done = 0; done < options.linkClicks; done += chunk) {
            const count = Math.min(chunk, options.linkClicks - done)
            await admin.command(seedStatement(`${DATABASE}.clicks`, { firstId: 1 + options.workspaceClicks, offset: done, count, total: options.linkClicks, salt: 1, accountId: linkAccount, firstLink: largeLink!, links: 1 }), 3_600_000)
          }
          const seedSeconds = (performance.now() - started) / 1000
          console.log(`    seeded ${total.toLocaleString('en')} clicks in ${seedSeconds.toFixed(0)} s (${Math.round(total / seedSeconds).toLocaleString('en')} clicks/s: the click table and its two views)`)
          await admin.command(`OPTIMIZE TABLE ${DATABASE}.clicks FINAL`, 3_600_000).catch(() => undefined)
          // The rollups merged, as ClickHouse's background merges leave them on a settled store (each
          // seeding block wrote its own rows per key until then).
          started = performance.now()
          for (const rollup of ['account_hours', 'account_hour_values', 'link_hours', 'account_day_values', 'link_days']) await admin.command(`OPTIMIZE TABLE ${DATABASE}.${rollup} FINAL`, 3_600_000)
          const rollupRows = await admin.rows<{ t: string; r: string }>(`SELECT table AS t, sum(rows) AS r FROM system.parts WHERE database = ${literal(DATABASE)} AND active AND table IN ('account_hours', 'account_hour_values', 'link_hours', 'account_day_values', 'link_days') GROUP BY t ORDER BY t`)
          console.log(`    rollups merged in ${((performance.now() - started) / 1000).toFixed(0)} s; rows: ${rollupRows.map((row) => `${row.t} ${Number(row.r).toLocaleString('en')}`).join(', ')}`)
          const size = await admin.size()
          console.log(`    disk: ${(size.bytes / 1_048_576).toFixed(0)} MB, ${(size.bytes / total).toFixed(1)} B per click (by item, by account, the id ledger); ${size.clicks.toLocaleString('en')} ids held`)

          // Two instances: two services, each with its own ClickHouse engine and feeder, on one database.
          const config = loadConfig({ DATABASE_URL: url, PUBLIC_URL: 'https://lw.test', ANALYTICS_STORE: `clickhouse://${target.username}:${encodeURIComponent(target.password)}@${http.host}/${DATABASE}` })
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
          const link = { itemType: 'link' as const, itemId: largeLink! }
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

        // The feeder: raw clicks in PostgreSQL past the seeded ids, copied by one feeder.
        await sql`select setval(pg_get_serial_sequence('clicks', 'id'), ${total})`.execute(db)
        started = performance.now()
        await sql`insert into clicks (account_id, item_type, item_id, created_at, referrer_host, language, visitor_hash, country, browser, os, device, is_unique)
          select ${workspace}, 'link', ${links[0]!} + (n % ${options.links}), to_char(timestamp '2026-06-30 00:00:00' + (n % 86400) * interval '1 second', 'YYYY-MM-DD HH24:MI:SS'),
            case when n % 3 = 0 then null else 'twitter.com' end, 'de', md5(n::text), case when n % 5 = 0 then 'DE' else 'US' end, 'Firefox', 'Linux', 'desktop', (n % 2)
          from generate_series(1, ${options.feedClicks}) as n`.execute(db)
        console.log(`    wrote ${options.feedClicks.toLocaleString('en')} raw clicks into PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`)
        const store = await openClickhouseStore({ ...target, queryTimeoutMs: 600_000 })
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
        console.log(`    feeder: ${copied.toLocaleString('en')} clicks PostgreSQL → ClickHouse in ${feedSeconds.toFixed(1)} s: ${Math.round(copied / feedSeconds).toLocaleString('en')} clicks/s; target ≥ 50,000/s: ${copied / feedSeconds >= 50_000 ? 'met' : 'NOT met'}; held ${(await store.size()).clicks.toLocaleString('en')} (expected ${((options.parts === 'all' ? total : 0) + options.feedClicks).toLocaleString('en')})`)
        const share = (ms: number) => `${(ms / 1000).toFixed(1)} s`
        console.log(`    feeder's batches: reading PostgreSQL ${share(phases.read)}, the ledger ${share(phases.ledger)}, inserting ${share(phases.insert)}, the cursor ${share(phases.keep)} (phases overlap when the next page is read during an insert)`)
        await feeder.stop()
        await store.close()
      } finally {
        await handle.close()
      }
    })
  } finally {
    await admin.command(`DROP DATABASE IF EXISTS ${DATABASE}`).catch(() => undefined)
    await admin.close()
    await server?.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runClickhouseScaleBench(clickhouseScaleOptionsFromEnvironment(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'))
