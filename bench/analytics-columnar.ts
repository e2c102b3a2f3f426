// Issue 24, ADR 022: the columnar layout measured at the issue's full sizes. bench/analytics.ts
// compares the options through the real write path, which cannot reach 100 million clicks on this
// machine in a bench's time (raw rows: ~40k clicks/s); this one writes the same distribution
// (src/analytics/click-distribution.ts: Zipf over 200 countries and 500 referrers, 30 browsers,
// 12 systems, 3 devices, 40 languages; Zipf across 10,000 links) straight into DuckDB with SQL, one
// day at a time, in the layout ADR 022 describes, then times the issue's questions against it:
//   by_item   every click, each day's clicks sorted by (account, item, time): one item's answers
//             read only the row groups holding that item;
//   by_value  the same clicks, each day's sorted by (account, country, referrer, browser, time): a
//             workspace's answers filtered by those leading dimensions read only their row groups;
//   rollups   per account and hour, and per account and UTC day: clicks and unique clicks in total
//             and per value of every dimension; per link and day, and per link and hour: a
//             workspace's unfiltered answers read these, never the clicks.
// Dimension values are small integer codes (a dictionary per dimension), as the store would keep
// them: filtering and grouping integers is 2-3 times faster than text in DuckDB (measured
// 2026-11-29: 10M clicks, two filters, 31.6 ms against 55.2 ms).
// An answer is what the statistics page needs: the series by hour, the six top lists (ten each),
// and the top links for a workspace, turned into lists in JavaScript (that time included).
// Sizes: BENCH_COLUMNAR_WORKSPACE_CLICKS (default 100,000,000), BENCH_COLUMNAR_LINK_CLICKS (10,000,000),
// BENCH_COLUMNAR_LINKS (10,000), BENCH_COLUMNAR_READS (40 timed answers, at most 30 s each),
// BENCH_COLUMNAR_FILE (keep the store at this path and reuse it when it holds the same sizes).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { ZIPF_BROWSERS, ZIPF_COUNTRIES, ZIPF_DEVICES, ZIPF_LANGUAGES, ZIPF_REFERRERS, ZIPF_SYSTEMS } from '../src/analytics/click-distribution.js'
import { median } from './rounds.js'

const DAYS = 90
const LAST_DAY = '2026-06-30'
const LINK_ACCOUNT = 1
const WORKSPACE = 2
/** Slots of the look-up tables a uniform draw indexes: a value of probability p gets ~p × SLOTS of them. */
const SLOTS = 1 << 20

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
  file: string | null
}

export function columnarOptionsFromEnvironment(): ColumnarOptions {
  const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
  return {
    workspaceClicks: number('BENCH_COLUMNAR_WORKSPACE_CLICKS', 100_000_000),
    linkClicks: number('BENCH_COLUMNAR_LINK_CLICKS', 10_000_000),
    links: number('BENCH_COLUMNAR_LINKS', 10_000),
    reads: number('BENCH_COLUMNAR_READS', 40),
    file: process.env.BENCH_COLUMNAR_FILE ?? null,
  }
}

/** Upper ends of each position's share of [0, SLOTS) under Zipf's law (s = 1), position 0 first. */
function zipfBounds(n: number): number[] {
  const weights = Array.from({ length: n }, (_, index) => 1 / (index + 1))
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  let cumulative = 0
  return weights.map((weight) => (cumulative += weight) / total * SLOTS)
}

/** A table `slot → code` for every slot of [0, SLOTS): the slot's middle falls in the code's share. */
async function createSlots(connection: DuckDBConnection, table: string, n: number, firstCode: number): Promise<void> {
  const bounds = zipfBounds(n)
  await connection.run(`create temp table ${table}_bounds (code integer, upper double)`)
  for (let start = 0; start < n; start += 2_000) {
    await connection.run(`insert into ${table}_bounds values ${bounds.slice(start, start + 2_000).map((upper, index) => `(${start + index + firstCode}, ${upper})`).join(', ')}`)
  }
  await connection.run(`create temp table ${table} as select s.slot, b.code from (select range::INTEGER as slot from range(${SLOTS})) s asof join ${table}_bounds b on s.slot + 0.5 < b.upper order by s.slot`)
}

const day = (index: number) => new Date(Date.parse(`${LAST_DAY}T00:00:00Z`) - (DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10)

/** A uniform draw of slot 0…SLOTS-1 for row `i` and stream `k`, the same on every run. */
const draw = (k: number) => `(hash(i * 16 + ${k}) % ${SLOTS})::INTEGER`

async function seed(connection: DuckDBConnection, options: ColumnarOptions): Promise<void> {
  const run = (text: string) => connection.run(text)
  await run(`create table dictionary (dimension varchar, code usmallint, value varchar)`)
  for (const { name, values } of DIMENSIONS) {
    await run(`insert into dictionary values ${values.map((value, code) => `('${name}', ${code}, '${value.replace(/'/g, "''")}')`).join(', ')}`)
  }
  // Look-up tables: a slot → a code (or a link id).
  for (const { name, values } of DIMENSIONS) await createSlots(connection, `slots_${name}`, values.length, 0)
  await createSlots(connection, 'slots_link', options.links, 1)
  const columns = `account_id integer, item_id integer, clicked_at timestamp, country usmallint, referrer usmallint, browser usmallint, os usmallint, device usmallint, language usmallint, is_unique boolean`
  await run(`create table by_item (${columns})`)
  await run(`create table by_value (${columns})`)
  await run(`create table hour_totals (account_id integer, hour timestamp, clicks integer, unique_clicks integer)`)
  await run(`create table account_hours (account_id integer, hour timestamp, dimension utinyint, code usmallint, clicks integer, unique_clicks integer)`)
  await run(`create table account_days (account_id integer, day date, dimension utinyint, code usmallint, clicks integer, unique_clicks integer)`)
  await run(`create table link_hours (account_id integer, hour timestamp, item_id integer, clicks integer, unique_clicks integer)`)
  await run(`create table link_days (account_id integer, day date, item_id integer, clicks integer, unique_clicks integer)`)
  const perDay = (total: number, index: number) => Math.floor((total * (index + 1)) / DAYS) - Math.floor((total * index) / DAYS)
  const started = performance.now()
  for (let index = 0; index < DAYS; index += 1) {
    const midnight = `timestamp '${day(index)} 00:00:00'`
    const dimensionsOf = DIMENSIONS.map(({ name }) => `${name}.code::USMALLINT as ${name}`).join(', ')
    const joinsOf = DIMENSIONS.map(({ name }, k) => `join slots_${name} ${name} on ${name}.slot = ${draw(k + 2)}`).join(' ')
    const rowsOf = (account: number, count: number, linked: boolean, salt: number) => `select ${account} as account_id, ${linked ? 'link.code' : '1'} as item_id,
        ${midnight} + to_microseconds((hash(i * 16 + 1) % 86400000000)::BIGINT) as clicked_at, ${dimensionsOf}, (hash(i * 16 + 9) % 10) < 6 as is_unique
      from (select range + ${salt} as i from range(${count})) ${joinsOf} ${linked ? `join slots_link link on link.slot = ${draw(0)}` : ''}`
    const linkCount = perDay(options.linkClicks, index)
    const workspaceCount = perDay(options.workspaceClicks, index)
    await run(`create or replace temp table today as
      ${rowsOf(LINK_ACCOUNT, linkCount, false, index * 1_000_000_000)}
      union all
      ${rowsOf(WORKSPACE, workspaceCount, true, index * 1_000_000_000 + 500_000_000)}`)
    await run(`insert into by_item select * from today order by account_id, item_id, country, referrer, clicked_at`)
    await run(`insert into by_value select * from today order by account_id, country, referrer, browser, clicked_at`)
    await run(`insert into hour_totals select account_id, date_trunc('hour', clicked_at), count(*), count(*) filter (where is_unique) from today group by all order by 1, 2`)
    const perDimension = (table: string, period: string) => [
      ...DIMENSIONS.map(({ name }, k) => `select account_id, ${period}, ${k + 1}, ${name}, count(*), count(*) filter (where is_unique) from today group by all`),
    ].join(' union all ').replace(/^/, `insert into ${table} `)
    await run(perDimension('account_hours', `date_trunc('hour', clicked_at)`) + ' order by 1, 2')
    await run(perDimension('account_days', `cast(clicked_at as date)`))
    await run(`insert into link_hours select account_id, date_trunc('hour', clicked_at), item_id, count(*), count(*) filter (where is_unique) from today group by all order by 1, 2`)
    await run(`insert into link_days select account_id, cast(clicked_at as date), item_id, count(*), count(*) filter (where is_unique) from today group by all order by 1, 2`)
    if (index % 15 === 14) console.log(`    seeded ${index + 1} of ${DAYS} days in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  }
  await run('drop table today')
  // Weeks (from Monday) that are over: a workspace's top links over many days read these.
  await run(`create table link_weeks as select account_id, date_trunc('week', day)::DATE as week, item_id, sum(clicks)::INTEGER as clicks, sum(unique_clicks)::INTEGER as unique_clicks
    from link_days where date_trunc('week', day) + interval 6 day <= date '${LAST_DAY}' group by all order by 1, 2`)
  await run('checkpoint')
  await run(`create table sizes as select ${options.workspaceClicks} as workspace_clicks, ${options.linkClicks} as link_clicks, ${options.links} as links`)
  const seconds = (performance.now() - started) / 1000
  const clicks = options.workspaceClicks + options.linkClicks
  console.log(`    seeded ${clicks.toLocaleString('en')} clicks in ${seconds.toFixed(0)} s (${Math.round(clicks / seconds).toLocaleString('en')} clicks/s, both copies and the rollups)`)
}

interface Timing { median: number; p99: number; n: number }

async function timeAnswer(reads: number, answer: () => Promise<unknown>): Promise<Timing> {
  await answer()
  const samples: number[] = []
  const deadline = performance.now() + 30_000
  while (samples.length < reads && (samples.length < 5 || performance.now() < deadline)) {
    const started = performance.now()
    await answer()
    samples.push(performance.now() - started)
  }
  const sorted = [...samples].sort((a, b) => a - b)
  return { median: median(sorted), p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!, n: samples.length }
}

type Row = Record<string, unknown>

async function rows(connection: DuckDBConnection, text: string): Promise<Row[]> {
  return (await connection.runAndReadAll(text)).getRowObjectsJS() as Row[]
}

/** Days `from`..`to` in a zone `shift` hours ahead of UTC (0 by default), and the filters as `dimension = code`. */
interface Question {
  from: string
  to: string
  filters: Array<[string, number]>
  shift?: number
}

const windowOf = (question: Question) => `clicked_at >= timestamp '${question.from} 00:00:00' - interval ${question.shift ?? 0} hour and clicked_at < timestamp '${question.to} 00:00:00' + interval 1 day - interval ${question.shift ?? 0} hour`
const filterOf = (question: Question) => question.filters.map(([name, code]) => ` and ${name} = ${code}`).join('')

/** The ten most clicked of each group, most first. */
function topTen(list: Array<{ group: string; key: string; clicks: number }>): Map<string, Array<[string, number]>> {
  const groups = new Map<string, Array<[string, number]>>()
  for (const { group, key, clicks } of list) {
    const entries = groups.get(group) ?? []
    entries.push([key, clicks])
    groups.set(group, entries)
  }
  for (const [group, entries] of groups) groups.set(group, entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10))
  return groups
}

/** One scan of the clicks: the hours and every dimension's counts (and the links' for a workspace) under the filters. */
async function answerFromClicks(connection: DuckDBConnection, table: string, scope: string, question: Question, withLinks: boolean) {
  const sets = ["date_trunc('hour', clicked_at)", ...DIMENSIONS.map(({ name }) => name), ...(withLinks ? ['item_id'] : [])]
  const result = await rows(connection, `select ${sets.map((set, index) => `${set} as g${index}`).join(', ')}, grouping(${sets.join(', ')}) as g, count(*)::INTEGER as clicks, (count(*) filter (where is_unique))::INTEGER as unique_clicks
    from ${table} where ${scope} and ${windowOf(question)}${filterOf(question)}
    group by grouping sets (${sets.map((set) => `(${set})`).join(', ')})`)
  let total = 0
  const hours: Row[] = []
  const counted: Array<{ group: string; key: string; clicks: number }> = []
  for (const row of result) {
    const index = sets.findIndex((_, position) => row[`g${position}`] !== null && row[`g${position}`] !== undefined)
    if (index === 0) {
      hours.push(row)
      total += Number(row.clicks)
    } else if (index > 0) counted.push({ group: String(index), key: String(row[`g${index}`]), clicks: Number(row.clicks) })
  }
  return { total, hours: hours.length, top: topTen(counted) }
}

const HOUR = 3_600_000
const DAY = 86_400_000
const stamp = (time: number) => `timestamp '${new Date(time).toISOString().slice(0, 19).replace('T', ' ')}'`
const date = (time: number) => `date '${new Date(time).toISOString().slice(0, 10)}'`

/**
 * A window of whole UTC hours [start, end) cut into what the rollups hold: the hours before its
 * first and after its last UTC midnight, the days between, and of those the whole weeks (from Monday).
 */
type Ranges = Array<[number, number]>

function splitWindow(start: number, end: number): { hours: Ranges; days: Ranges; weeks: [number, number] | null } {
  const firstMidnight = Math.ceil(start / DAY) * DAY
  const lastMidnight = Math.floor(end / DAY) * DAY
  if (firstMidnight >= lastMidnight) return { hours: [[start, end]], days: [], weeks: null }
  const hours = ([[start, firstMidnight], [lastMidnight, end]] as Ranges).filter(([from, to]) => from < to)
  // 1970-01-01 was a Thursday: Mondays are 4 days after a multiple of 7 days.
  const firstMonday = Math.ceil((firstMidnight - 4 * DAY) / (7 * DAY)) * 7 * DAY + 4 * DAY
  const lastMonday = Math.floor((lastMidnight - 4 * DAY) / (7 * DAY)) * 7 * DAY + 4 * DAY
  if (firstMonday >= lastMonday) return { hours, days: [[firstMidnight, lastMidnight]], weeks: null }
  const days = ([[firstMidnight, firstMonday], [lastMonday, lastMidnight]] as Ranges).filter(([from, to]) => from < to)
  return { hours, days, weeks: [firstMonday, lastMonday] }
}

const anyOf = (column: string, ranges: Ranges, literal: (time: number) => string) =>
  ranges.length === 0 ? 'false' : `(${ranges.map(([from, to]) => `(${column} >= ${literal(from)} and ${column} < ${literal(to)})`).join(' or ')})`

/** A workspace without filters over [start, end), from the rollups only: series, six top lists, top links. */
async function answerFromRollups(connections: DuckDBConnection[], start: number, end: number) {
  const { hours, days, weeks } = splitWindow(start, end)
  const wholeDays: Ranges = weeks ? [[days[0]?.[0] ?? weeks[0], days.at(-1)?.[1] ?? weeks[1]]] : days
  const account = `account_id = ${WORKSPACE}`
  // Three reads, each on its own connection: DuckDB runs them at once.
  const [series, values, links] = await Promise.all([rows(connections[0]!, `select hour, clicks, unique_clicks from hour_totals where ${account} and hour >= ${stamp(start)} and hour < ${stamp(end)}`),
    rows(connections[1 % connections.length]!, `select dimension, code, sum(clicks)::INTEGER as clicks from (
      select dimension, code, clicks from account_days where ${account} and ${anyOf('day', wholeDays, date)}
      union all select dimension, code, clicks from account_hours where ${account} and ${anyOf('hour', hours, stamp)}) group by all`),
    rows(connections[2 % connections.length]!, `select item_id, sum(clicks)::INTEGER as clicks from (
      select item_id, clicks from link_weeks where ${account} and ${weeks ? anyOf('week', [weeks], date) : 'false'}
      union all select item_id, clicks from link_days where ${account} and ${anyOf('day', days, date)}
      union all select item_id, clicks from link_hours where ${account} and ${anyOf('hour', hours, stamp)}) group by all order by 2 desc, 1 limit 10`),
  ])
  const top = topTen(values.map((row) => ({ group: String(row.dimension), key: String(row.code), clicks: Number(row.clicks) })))
  return { total: series.reduce((sum, row) => sum + Number(row.clicks), 0), hours: series.length, top, links }
}

const format = (timing: Timing) => `median ${timing.median.toFixed(1)} ms, p99 ${timing.p99.toFixed(1)} ms (${timing.n} answers)`
const verdict = (timing: Timing, median: number, p99?: number) => (timing.median < median && (p99 === undefined || timing.p99 < p99) ? 'met' : 'NOT met')

export async function runColumnarBench(options: ColumnarOptions): Promise<void> {
  console.log(`\n== analytics, columnar layout (ADR 022): ${options.workspaceClicks.toLocaleString('en')} workspace clicks over ${options.links.toLocaleString('en')} links + one link of ${options.linkClicks.toLocaleString('en')}, ${DAYS} days, DuckDB, 2 threads`)
  const directory = options.file ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-columnar-'))
  const file = options.file ?? path.join(directory!, 'clicks.duckdb')
  const instance = await DuckDBInstance.create(file, { threads: '2' })
  const connection = await instance.connect()
  const readers = [connection, await instance.connect(), await instance.connect()]
  try {
    const sizes = await rows(connection, `select * from sizes`).catch(() => [])
    const same = sizes.length === 1 && Number(sizes[0]!.workspace_clicks) === options.workspaceClicks && Number(sizes[0]!.link_clicks) === options.linkClicks && Number(sizes[0]!.links) === options.links
    if (!same) {
      if (sizes.length > 0) throw new Error(`${file} holds other sizes; remove it or choose another BENCH_COLUMNAR_FILE`)
      await seed(connection, options)
    } else console.log(`    reusing ${file}`)
    const clicks = options.workspaceClicks + options.linkClicks
    const blocks = await rows(connection, `select table_name as name, (count(distinct block_id) * 262144)::BIGINT as bytes from (select 'by_item' as table_name, * from pragma_storage_info('by_item') union all select 'by_value', * from pragma_storage_info('by_value')
      union all select 'hour_totals', * from pragma_storage_info('hour_totals') union all select 'account_hours', * from pragma_storage_info('account_hours') union all select 'link_weeks', * from pragma_storage_info('link_weeks') union all select 'account_days', * from pragma_storage_info('account_days')
      union all select 'link_hours', * from pragma_storage_info('link_hours') union all select 'link_days', * from pragma_storage_info('link_days')) where block_id is not null group by 1 order by 1`)
    const fileBytes = fs.statSync(file).size
    console.log(`    disk: file ${(fileBytes / 1_048_576).toFixed(0)} MB, ${(fileBytes / clicks).toFixed(1)} B per click; ${blocks.map((row) => `${row.name} ${(Number(row.bytes) / clicks).toFixed(1)} B`).join(', ')} per click`)
    const code = async (dimension: string, value: string) => Number((await rows(connection, `select code from dictionary where dimension = '${dimension}' and value = '${value}'`))[0]!.code)
    const twoFilters: Array<[string, number]> = [['country', await code('country', 'DE')], ['referrer', await code('referrer', 'twitter.com')]]
    const otherFilters: Array<[string, number]> = [['browser', await code('browser', 'Firefox')], ['language', await code('language', 'de')]]
    const last30: Question = { from: day(DAYS - 30), to: LAST_DAY, filters: [] }
    const all: Question = { from: day(0), to: LAST_DAY, filters: [] }
    const link = `account_id = ${LINK_ACCOUNT} and item_id = 1`
    const workspace = `account_id = ${WORKSPACE}`

    // Agreement: the copies and the rollups count the same clicks.
    const byItem = await answerFromClicks(connection, 'by_item', workspace, { ...all, filters: twoFilters }, true)
    const byValue = await answerFromClicks(connection, 'by_value', workspace, { ...all, filters: twoFilters }, true)
    const utcOf = (question: Question) => [Date.parse(`${question.from}T00:00:00Z`), Date.parse(`${question.to}T00:00:00Z`) + DAY] as const
    const rolled = await answerFromRollups(readers, ...utcOf(all))
    const counted = Number((await rows(connection, `select count(*) as clicks from by_item where ${workspace}`))[0]!.clicks)
    const agree = byItem.total === byValue.total && rolled.total === counted && counted === options.workspaceClicks
    console.log(`    agreement: DE & twitter.com ${byItem.total} (by item) = ${byValue.total} (by value); rollups ${rolled.total} = clicks ${counted} = seeded ${options.workspaceClicks}: ${agree ? 'yes' : 'NO'}`)
    // The rollups' top lists and top links equal a scan's, for UTC days and for days two hours ahead (edge hours).
    for (const shift of [0, 2]) {
      const scanned = await answerFromClicks(connection, 'by_item', workspace, { ...all, shift }, true)
      const [start, end] = utcOf(all)
      const fromRollups = await answerFromRollups(readers, start - shift * HOUR, end - shift * HOUR)
      const rolledLinks = topTen(fromRollups.links.map((row) => ({ group: String(DIMENSIONS.length + 1), key: String(row.item_id), clicks: Number(row.clicks) })))
      const same = scanned.total === fromRollups.total && DIMENSIONS.every((_, index) => JSON.stringify(scanned.top.get(String(index + 1))) === JSON.stringify(fromRollups.top.get(String(index + 1))))
        && JSON.stringify(scanned.top.get(String(DIMENSIONS.length + 1))) === JSON.stringify(rolledLinks.get(String(DIMENSIONS.length + 1)))
      console.log(`    agreement, days ${shift} h ahead of UTC: rollups' total, six top lists and top links equal a scan's: ${same ? 'yes' : 'NO'} (${fromRollups.total} clicks)`)
    }

    const linkTwo = await timeAnswer(options.reads, () => answerFromClicks(connection, 'by_item', link, { ...last30, filters: twoFilters }, false))
    console.log(`    one link, 30 days, DE & twitter.com: ${format(linkTwo)}; target median < 50 ms, p99 < 200 ms: ${verdict(linkTwo, 50, 200)}`)
    const linkNone = await timeAnswer(Math.min(options.reads, 10), () => answerFromClicks(connection, 'by_item', link, last30, false))
    console.log(`    one link, 30 days, no filter (the raw-click path, for reference; unfiltered answers read the aggregates): ${format(linkNone)}`)
    const linkOther = await timeAnswer(Math.min(options.reads, 10), () => answerFromClicks(connection, 'by_item', link, { ...last30, filters: otherFilters }, false))
    console.log(`    one link, 30 days, Firefox & de: ${format(linkOther)}`)
    const workspaceNone = await timeAnswer(options.reads, () => answerFromRollups(readers, ...utcOf(all)))
    console.log(`    workspace, 90 days, no filter (rollups): ${format(workspaceNone)}; target < 20 ms: ${verdict(workspaceNone, 20)}`)
    const workspaceZone = await timeAnswer(options.reads, () => answerFromRollups(readers, utcOf(all)[0] - 2 * HOUR, utcOf(all)[1] - 2 * HOUR))
    console.log(`    workspace, 90 days, no filter, Europe/Berlin days (UTC+2: rollups of weeks, days and edge hours): ${format(workspaceZone)}`)
    const workspaceTwo = await timeAnswer(options.reads, () => answerFromClicks(connection, 'by_value', workspace, { ...all, filters: twoFilters }, true))
    console.log(`    workspace, 90 days, DE & twitter.com (by value): ${format(workspaceTwo)}; target < 300 ms: ${verdict(workspaceTwo, 300)}`)
    const workspaceOther = await timeAnswer(Math.min(options.reads, 5), () => answerFromClicks(connection, 'by_value', workspace, { ...all, filters: otherFilters }, true))
    console.log(`    workspace, 90 days, Firefox & de (not the sort key's leading dimensions: every row group read): ${format(workspaceOther)}`)
  } finally {
    for (const reader of readers) reader.closeSync()
    instance.closeSync()
    if (directory) fs.rmSync(directory, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runColumnarBench(columnarOptionsFromEnvironment())
