// Issue 24, ADR 022: the columnar store (src/analytics/columnar-store.ts) measured at the issue's
// full sizes, answered by the code the API runs: the statistics service over the columnar engine
// (modules/statistics/columnar-query.ts). The write path cannot reach 100 million clicks in a
// bench's time (raw rows: ~40k clicks/s), so the store's tables are filled with SQL, a day at a
// time, exactly as its upkeep leaves them: each day's clicks in `by_item` sorted by (account, item,
// country, referrer, time) and in `by_value` sorted by (account, country, referrer, browser, time),
// and the rollups written by the store's own statements (`rollupStatements`); then the store is
// opened on the file, its upkeep run once (merging the days' and weeks' rows), and the issue's
// questions are timed through `statistics.betweenOrThrow` / `accountBetween` (a main SQLite
// database holds the accounts and links; the answers' link details come from it).
// The clicks are spread as src/analytics/click-distribution.ts spreads them: Zipf over 200
// countries and 500 referrers, 30 browsers, 12 systems, 3 devices, 40 languages; Zipf across 10,000
// links; 90 days; plus one link of 10,000,000 clicks in another account.
// Sizes: BENCH_COLUMNAR_WORKSPACE_CLICKS (default 100,000,000), BENCH_COLUMNAR_LINK_CLICKS (10,000,000),
// BENCH_COLUMNAR_LINKS (10,000), BENCH_COLUMNAR_READS (40 timed answers, at most 30 s each),
// BENCH_COLUMNAR_DIR (keep the main database and the store there, and reuse them when they hold the same sizes).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import type { Kysely } from 'kysely'
import { ZIPF_BROWSERS, ZIPF_COUNTRIES, ZIPF_DEVICES, ZIPF_LANGUAGES, ZIPF_REFERRERS, ZIPF_SYSTEMS } from '../src/analytics/click-distribution.js'
import { openColumnarStore, rollupStatements } from '../src/analytics/columnar-store.js'
import { migrateToLatest, openDatabase, type DB } from '../src/db/database.js'
import { createColumnarEngine } from '../src/modules/statistics/columnar-query.js'
import { createRawClickRepository } from '../src/modules/statistics/raw-click.repository.js'
import { createFixture, statisticsServiceOn, type Fixture } from './statistics-service.js'
import { timeAnswer, type Timing } from './analytics.js'

const DAYS = 90
const LAST_DAY = '2026-06-30'
const DAY_MS = 86_400_000
/** Slots of the look-up tables a uniform draw indexes: a value of probability p gets ~p × SLOTS of them. */
const SLOTS = 1 << 20
/** The values of each dimension, the most common first, in the store's dimension order (VALUE_DIMENSIONS). */
const DIMENSIONS = [
  { name: 'country', values: ZIPF_COUNTRIES },
  { name: 'referrer', values: ZIPF_REFERRERS },
  { name: 'browser', values: ZIPF_BROWSERS },
  { name: 'os', values: ZIPF_SYSTEMS },
  { name: 'device', values: ZIPF_DEVICES },
  { name: 'language', values: ZIPF_LANGUAGES },
] as const

export interface ColumnarOptions {
  workspaceClicks: number
  linkClicks: number
  links: number
  reads: number
  dir: string | null
}

export function columnarOptionsFromEnvironment(): ColumnarOptions {
  const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
  return {
    workspaceClicks: number('BENCH_COLUMNAR_WORKSPACE_CLICKS', 100_000_000),
    linkClicks: number('BENCH_COLUMNAR_LINK_CLICKS', 10_000_000),
    links: number('BENCH_COLUMNAR_LINKS', 10_000),
    reads: number('BENCH_COLUMNAR_READS', 40),
    dir: process.env.BENCH_COLUMNAR_DIR ?? null,
  }
}

/** Upper ends of each position's share of [0, SLOTS) under Zipf's law (s = 1), position 0 first. */
function zipfBounds(n: number): number[] {
  const weights = Array.from({ length: n }, (_, index) => 1 / (index + 1))
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  let cumulative = 0
  return weights.map((weight) => ((cumulative += weight) / total) * SLOTS)
}

/** A table `slot → code` for every slot of [0, SLOTS): the slot's middle falls in the code's share; codes from `firstCode`. */
async function createSlots(connection: DuckDBConnection, table: string, n: number, firstCode: number): Promise<void> {
  const bounds = zipfBounds(n)
  await connection.run(`create temp table ${table}_bounds (code integer, upper double)`)
  for (let start = 0; start < n; start += 2_000) {
    await connection.run(`insert into ${table}_bounds values ${bounds.slice(start, start + 2_000).map((upper, index) => `(${start + index + firstCode}, ${upper})`).join(', ')}`)
  }
  await connection.run(`create temp table ${table} as select s.slot, b.code from (select range::INTEGER as slot from range(${SLOTS})) s asof join ${table}_bounds b on s.slot + 0.5 < b.upper order by s.slot`)
}

const day = (index: number) => new Date(Date.parse(`${LAST_DAY}T00:00:00Z`) - (DAYS - 1 - index) * DAY_MS).toISOString().slice(0, 10)
const END = Date.parse(`${LAST_DAY}T00:00:00Z`) + DAY_MS

/** A uniform draw of slot 0…SLOTS-1 for row `i` and stream `k`, the same on every run. */
const draw = (k: number) => `(hash(i * 16 + ${k}) % ${SLOTS})::INTEGER`

/** Fills the store's tables (created by openColumnarStore) as its upkeep leaves them after 90 days. */
async function seed(connection: DuckDBConnection, options: ColumnarOptions, fixture: Fixture): Promise<void> {
  const run = (text: string) => connection.run(text)
  for (const [dimension, { values }] of DIMENSIONS.entries()) {
    await run(`insert into dictionary values ${values.map((value, code) => `(${dimension}, ${code}, '${value.replace(/'/g, "''")}')`).join(', ')}`)
  }
  for (const { name, values } of DIMENSIONS) await createSlots(connection, `slots_${name}`, values.length, 0)
  await createSlots(connection, 'slots_link', options.links, fixture.firstLink)
  const perDay = (total: number, index: number) => Math.floor((total * (index + 1)) / DAYS) - Math.floor((total * index) / DAYS)
  const started = performance.now()
  for (let index = 0; index < DAYS; index += 1) {
    const midnight = `timestamp '${day(index)} 00:00:00'`
    const dimensionsOf = DIMENSIONS.map(({ name }) => `${name}.code as ${name}`).join(', ')
    const joinsOf = DIMENSIONS.map(({ name }, k) => `join slots_${name} ${name} on ${name}.slot = ${draw(k + 2)}`).join(' ')
    const rowsOf = (account: number, count: number, item: string, salt: number) => `select ${account} as account_id, 0::UTINYINT as item_type, ${item} as item_id,
        ${midnight} + to_microseconds((hash(i * 16 + 1) % 86400000000)::BIGINT) as clicked_at, ${dimensionsOf}, (hash(i * 16 + 9) % 10) < 6 as is_unique
      from (select range + ${salt} as i from range(${count})) ${joinsOf} ${item === 'link.code' ? `join slots_link link on link.slot = ${draw(0)}` : ''}`
    await run(`create or replace temp table today as
      ${rowsOf(fixture.linkAccount, perDay(options.linkClicks, index), String(fixture.largeLink), index * 1_000_000_000)}
      union all
      ${rowsOf(fixture.workspace, perDay(options.workspaceClicks, index), 'link.code', index * 1_000_000_000 + 500_000_000)}`)
    await run(`insert into by_item select * from today order by account_id, item_type, item_id, country, referrer, clicked_at`)
    await run(`insert into by_value select * from today order by account_id, item_type, country, referrer, browser, clicked_at`)
    for (const statement of rollupStatements('today', 1)) await run(statement)
    if (index % 15 === 14) console.log(`    seeded ${index + 1} of ${DAYS} days in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  }
  await run('drop table today')
  // The place upkeep would have reached: every hour of the 90 days rolled up, nothing merged yet.
  await run(`insert or replace into meta values ('last_id', '0'), ('gaps', '[]'), ('rolled_to', '${END}'), ('days_merged_to', '0'), ('weeks_merged_to', '0'), ('audit_id', '0')`)
  await run(`create table bench_sizes as select ${options.workspaceClicks} as workspace_clicks, ${options.linkClicks} as link_clicks, ${options.links} as links`)
  await run('checkpoint')
  const seconds = (performance.now() - started) / 1000
  const clicks = options.workspaceClicks + options.linkClicks
  console.log(`    seeded ${clicks.toLocaleString('en')} clicks in ${seconds.toFixed(0)} s (${Math.round(clicks / seconds).toLocaleString('en')} clicks/s: both copies and the rollups)`)
}

/** Times answers that are not counted (their checksum is 0). */
const timed = (reads: number, answer: () => Promise<unknown>): Promise<Timing> => timeAnswer(reads, async () => {
  await answer()
  return 0
})

const format = (timing: Timing) => `median ${timing.median.toFixed(1)} ms, p99 ${timing.p99.toFixed(1)} ms (${timing.n} answers)`
const verdict = (timing: Timing, median: number, p99?: number) => (timing.median < median && (p99 === undefined || timing.p99 < p99) ? 'met' : 'NOT met')

export async function runColumnarBench(options: ColumnarOptions): Promise<void> {
  console.log(`\n== analytics, the columnar store (ADR 022): ${options.workspaceClicks.toLocaleString('en')} workspace clicks over ${options.links.toLocaleString('en')} links + one link of ${options.linkClicks.toLocaleString('en')}, ${DAYS} days; answers through the statistics service`)
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-columnar-'))
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, 'analytics.duckdb')
  const handle = openDatabase(`file:${path.join(dir, 'main.db')}`)
  try {
    await migrateToLatest(handle)
    const db = handle.db as Kysely<any> as DB
    const fresh = (await db.selectFrom('links').select((eb) => eb.fn.countAll<number>().as('links')).executeTakeFirstOrThrow()).links === 0
    let fixture: Fixture
    if (fresh) {
      fixture = await createFixture(db, options.links)
      // The store makes its tables; the seed fills them with the store closed (one process per file).
      await (await openColumnarStore(db, { file })).close()
      const instance = await DuckDBInstance.create(file, { threads: '2' })
      const connection = await instance.connect()
      try {
        await seed(connection, options, fixture)
      } finally {
        connection.closeSync()
        instance.closeSync()
      }
    } else {
      const ids = async (username: string) => (await db.selectFrom('links').innerJoin('accounts', 'accounts.id', 'links.account_id').select(['accounts.id as account', 'links.id as link']).where('accounts.username', '=', username).orderBy('links.id').executeTakeFirstOrThrow())
      const one = await ids('one-link')
      const workspace = await ids('workspace')
      fixture = { linkAccount: one.account, largeLink: one.link, workspace: workspace.account, firstLink: workspace.link }
      console.log(`    reusing ${dir} (the sizes must be the run's that made it)`)
    }
    const store = await openColumnarStore(db, { file, now: () => new Date(END + 3_600_000) })
    try {
      let started = performance.now()
      await store.compact()
      console.log(`    upkeep on the 90 days (merging the days' and weeks' rollup rows): ${((performance.now() - started) / 1000).toFixed(1)} s`)
      const clicks = options.workspaceClicks + options.linkClicks
      const bytes = fs.statSync(file).size
      console.log(`    disk: ${(bytes / 1_048_576).toFixed(0)} MB, ${(bytes / clicks).toFixed(1)} B per click (both sorted copies and the rollups)`)
      const statistics = statisticsServiceOn(db, { now: () => new Date(END), engine: createColumnarEngine(createRawClickRepository(db), store) })
      const link = { itemType: 'link' as const, itemId: fixture.largeLink }
      const last30 = { from: day(DAYS - 30), to: LAST_DAY }
      const all = { from: day(0), to: LAST_DAY }
      const two = { country: 'DE', referrer: 'twitter.com' }
      const other = { browser: 'Firefox', language: 'de' }

      // Agreement: the rollups' answer equals a scan's (every device asked for: the same clicks, read from the copies).
      for (const tz of ['UTC', 'Europe/Berlin']) {
        const rolled = await statistics.accountBetween(fixture.workspace, { ...all, granularity: 'day', tz })
        started = performance.now()
        const scanned = await statistics.accountBetween(fixture.workspace, { ...all, granularity: 'day', tz, device: 'desktop,mobile,tablet' })
        const scanMs = performance.now() - started
        // Everything but the filters the answer repeats.
        const withoutFilters = (answer: object) => JSON.stringify({ ...answer, filters: undefined })
        const same = withoutFilters(rolled) === withoutFilters(scanned)
        console.log(`    agreement (${tz} days): the rollups' answer (${rolled.clicks} clicks) equals a scan of both copies' (${scanMs.toFixed(0)} ms): ${same ? 'yes' : 'NO'}${tz === 'UTC' ? `; seeded ${options.workspaceClicks}: ${rolled.clicks === options.workspaceClicks ? 'yes' : 'NO'}` : ''}`)
      }

      const linkTwo = await timed(options.reads, () => statistics.betweenOrThrow(fixture.linkAccount, link, { ...last30, ...two }))
      console.log(`    one link, 30 days, DE & twitter.com: ${format(linkTwo)}; target median < 50 ms, p99 < 200 ms: ${verdict(linkTwo, 50, 200)}`)
      const linkOther = await timed(Math.min(options.reads, 10), () => statistics.betweenOrThrow(fixture.linkAccount, link, { ...last30, ...other }))
      console.log(`    one link, 30 days, Firefox & de (not what the sort key leads with): ${format(linkOther)}`)
      const linkNone = await timed(Math.min(options.reads, 10), () => statistics.betweenOrThrow(fixture.linkAccount, link, { ...last30, granularity: 'hour' }))
      console.log(`    one link, 30 days, no filter, by hour (a scan of the link's clicks): ${format(linkNone)}`)
      const workspaceNone = await timed(options.reads, () => statistics.accountBetween(fixture.workspace, { ...all, granularity: 'day' }))
      console.log(`    workspace, 90 days, no filter (rollups): ${format(workspaceNone)}; target < 20 ms: ${verdict(workspaceNone, 20)}`)
      const workspaceZone = await timed(options.reads, () => statistics.accountBetween(fixture.workspace, { ...all, tz: 'Europe/Berlin' }))
      console.log(`    workspace, 90 days, no filter, Europe/Berlin (rollups and edge hours): ${format(workspaceZone)}`)
      const workspaceCompare = await timed(Math.min(options.reads, 10), () => statistics.accountBetween(fixture.workspace, { from: day(DAYS - 30), to: LAST_DAY, compare: 'previous' }))
      console.log(`    workspace, 30 days beside the 30 before (compare=previous): ${format(workspaceCompare)}`)
      const workspaceTwo = await timed(options.reads, () => statistics.accountBetween(fixture.workspace, { ...all, ...two }))
      console.log(`    workspace, 90 days, DE & twitter.com: ${format(workspaceTwo)}; target < 300 ms: ${verdict(workspaceTwo, 300)}`)
      const workspaceOther = await timed(Math.min(options.reads, 5), () => statistics.accountBetween(fixture.workspace, { ...all, ...other }))
      console.log(`    workspace, 90 days, Firefox & de (not what the sort key leads with: every row group of the range read): ${format(workspaceOther)}`)
    } finally {
      await store.close()
    }
  } finally {
    await handle.close()
    if (!options.dir) fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runColumnarBench(columnarOptionsFromEnvironment())
