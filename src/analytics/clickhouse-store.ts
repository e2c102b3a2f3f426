// ClickHouse as the statistics store of several instances (issue 40, ADR 035): the raw clicks
// copied by the feeder (clickhouse-feeder.ts) from the main database, read by every instance.
// Spoken to over ClickHouse's HTTP interface with @clickhouse/client (it works with the 18.16
// server the tests run, but for query parameters: 18.16 has no `{name:Type}`, so the few values a
// question carries are written into the SQL here, numbers checked as integers and text escaped
// by `literal`, never concatenated as given).
//
// Layout (ADR 035), only SQL current ClickHouse accepts too (MergeTree family, materialized views
// with TO, TRUNCATE, no LowCardinality, no projections):
//   clicks             by item: ORDER BY (item_type, item_id, clicked_at, id), a month a partition;
//   clicks_by_account  the same rows (a materialized view of `clicks`) by (account_id, item_type,
//                      clicked_at, id): a workspace's questions read its range only;
//   clicks_by_value    the same rows by (account_id, country, referrer, item_type, item_id,
//                      clicked_at, id): questions filtered by country or referrer read their range;
//   click_ids          the ids held (a view of `clicks`), ORDER BY id: the feeder's ledger, so a
//                      batch sent twice is written once;
//   rollups            of the links' clicks per account and hour / day / week / month (and dimension
//                      value), per link and hour / day / week / month: a workspace's unfiltered
//                      answers (`derivedTables`, `spansOf`);
//   deleted_links, deleted_accounts  tombstones: left out of every answer at once, while the
//                      mutations (ALTER TABLE … DELETE) that remove their clicks run.
// The derived tables (the by-value copy and the rollups) are versioned (`LAYOUT_VERSION`): a store
// that holds clicks from before a version is rebuilt from its clicks once, by the feeder.
// The click tables are ReplacingMergeTree keyed by the click id: a copy written twice in spite
// of the ledger (a feeder that lost its lease mid-insert) merges away.
import { Readable } from 'node:stream'
import type { ClickHouseClient } from '@clickhouse/client'
import { ServiceUnavailableError } from '../core/errors.js'
import { dayOf, nowTimestamp } from '../core/time.js'
import { VALUE_DIMENSIONS, type ValueDimension } from './click-aggregates.js'
import type { ClickItemType } from './click-items.js'
import type { StoreFigures, StoreQuestion } from './columnar-store.js'

const ITEM_TYPES: readonly ClickItemType[] = ['link', 'qr', 'campaign', 'bio']
const LINK = ITEM_TYPES.indexOf('link')
const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000
/** The raw clicks' columns of each dimension. */
export const SOURCE_COLUMNS: Record<ValueDimension, 'country' | 'referrer_host' | 'browser' | 'os' | 'device' | 'language'> = {
  country: 'country', referrer: 'referrer_host', browser: 'browser', os: 'os', device: 'device', language: 'language',
}

export interface ClickhouseStoreOptions {
  /** `http(s)://host:port`, the HTTP interface. */
  url: string
  database: string
  username: string
  password: string
  /** How long a question may take before statistics answer 503 (ms). */
  queryTimeoutMs?: number
  /** How long a batch's insert may take (ms); below the feeder's lease. */
  insertTimeoutMs?: number
  /**
   * CLICK_RETENTION_DAYS, as the feeder deletes with it: the weekly and monthly rollups answer
   * only for weeks and months that start on or after the retention's first day (ADR 035).
   */
  retentionDays?: number | null
  now?: () => number
}

/** A click as the feeder copies it: the raw row's fields, unknown dimensions as ''. */
export interface ClickhouseClick {
  id: number
  account_id: number
  item_type: number
  item_id: number
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  clicked_at: string
  country: string
  referrer: string
  browser: string
  os: string
  device: string
  language: string
  is_unique: number
}

/**
 * A click whose fields after the time (the six dimensions, then is_unique) come as TabSeparated
 * text escaped already: the feeder's read on PostgreSQL (click-pages.ts `readFeedClicksAfter`).
 */
export interface ClickhouseClickText {
  id: number
  account_id: number
  item_type: number
  item_id: number
  clicked_at: string
  tail: string
}

/** A tail as PostgreSQL builds it: six fields without a raw tab, line feed or carriage return, then 0 or 1. */
const TAIL = /^[^\t\n\r]*(?:\t[^\t\n\r]*){5}\t[01]$/

/** The columns of an insert, in the order `tabSeparated` writes them. */
const INSERT_COLUMNS = ['id', 'account_id', 'item_type', 'item_id', 'clicked_at', ...VALUE_DIMENSIONS, 'is_unique'] as const

/** A text field of TabSeparated: backslash, tab, line feed, carriage return and NUL escaped (ClickHouse's TSV escapes). */
function field(text: string): string {
  return /[\\\t\n\r\0]/.test(text) ? text.replace(/[\\\t\n\r\0]/g, (char) => TSV_ESCAPES[char]!) : text
}
const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' }

/** Clicks as TabSeparated rows (INSERT_COLUMNS); numbers checked as integers, the time as `YYYY-MM-DD HH:MM:SS`. */
export function tabSeparated(clicks: ReadonlyArray<ClickhouseClick | ClickhouseClickText>): string {
  let text = ''
  for (const click of clicks) {
    if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(click.clicked_at)) throw new TypeError(`not a click time: ${click.clicked_at}`)
    if ('tail' in click) {
      if (!TAIL.test(click.tail)) throw new TypeError(`not the fields of a click: ${click.tail}`)
      text += `${integer(click.id)}\t${integer(click.account_id)}\t${integer(click.item_type)}\t${integer(click.item_id)}\t${click.clicked_at}\t${click.tail}\n`
      continue
    }
    text += `${integer(click.id)}\t${integer(click.account_id)}\t${integer(click.item_type)}\t${integer(click.item_id)}\t${click.clicked_at}\t${field(click.country)}\t${field(click.referrer)}\t${field(click.browser)}\t${field(click.os)}\t${field(click.device)}\t${field(click.language)}\t${click.is_unique === 1 ? 1 : 0}\n`
  }
  return text
}

/** A ClickHouse string literal: backslashes and quotes escaped (ClickHouse reads `\'` and `\\`). */
export function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/** An integer for SQL, refused when it is not one (nothing else reaches the text as a number). */
export function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${value}`)
  return String(value)
}

/** `YYYY-MM-DD HH:MM:SS` of UTC milliseconds, as a DateTime literal. */
function dateTime(time: number): string {
  if (!Number.isFinite(time)) throw new TypeError(`not a time: ${time}`)
  return `toDateTime(${literal(nowTimestamp(new Date(Math.floor(time / 1000) * 1000)))}, 'UTC')`
}

/** A UTC day (midnight milliseconds) as a Date literal (the weekly and monthly rollups' column). */
function toDate(time: number): string {
  if (!Number.isFinite(time)) throw new TypeError(`not a time: ${time}`)
  return `toDate(${literal(dayOf(time))})`
}

/** Day ranges [start, end), UTC midnights in milliseconds. */
type DayRange = readonly [number, number]

/**
 * The whole UTC days [first, last) cut into the rollups that sum fewest rows (layout 3): the whole
 * calendar months inside it from the monthly rollups, the whole weeks (Monday to Sunday) inside
 * what is left from the weekly ones, the rest day by day. A 90-day window is 2-3 months, a few
 * weeks and up to a dozen days (about 13 rows per link or value instead of 90). Weeks and months
 * that start before `coarseFrom` (the first day retention surely kept) are taken day by day: their
 * rows may hold clicks retention has removed since (`deleteBefore` drops them whole).
 */
export function spansOf(first: number, last: number, coarseFrom = -Infinity): { months: DayRange[]; weeks: DayRange[]; days: DayRange[] } {
  const monthStart = (time: number) => {
    const date = new Date(time)
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)
  }
  const nextMonth = (time: number) => {
    const date = new Date(time)
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)
  }
  // 1970-01-05, day 4, was a Monday.
  const monday = (time: number) => time - ((((Math.floor(time / DAY_MS) - 4) % 7) + 7) % 7) * DAY_MS
  const earliest = Math.max(first, coarseFrom)
  const spans = { months: [] as DayRange[], weeks: [] as DayRange[], days: [] as DayRange[] }
  const firstMonth = monthStart(earliest) === earliest ? earliest : nextMonth(earliest)
  const lastMonth = monthStart(last)
  const rest: DayRange[] = []
  if (firstMonth < lastMonth) {
    spans.months.push([firstMonth, lastMonth])
    rest.push([first, firstMonth], [lastMonth, last])
  } else rest.push([first, last])
  for (const [start, end] of rest) {
    if (start >= end) continue
    const from = Math.max(start, coarseFrom)
    const firstWeek = monday(from) === from ? from : monday(from) + 7 * DAY_MS
    const lastWeek = monday(end)
    if (firstWeek < lastWeek) {
      spans.weeks.push([firstWeek, lastWeek])
      if (start < firstWeek) spans.days.push([start, firstWeek])
      if (lastWeek < end) spans.days.push([lastWeek, end])
    } else spans.days.push([start, end])
  }
  return spans
}

const CLICK_COLUMNS = `id UInt64, account_id UInt32, item_type UInt8, item_id UInt32, clicked_at DateTime('UTC'), ${VALUE_DIMENSIONS.map((name) => `${name} String`).join(', ')}, is_unique UInt8`

/** The statements that make the tables (each `if not exists`): 18.16's SQL, and current ClickHouse's. */
export function schemaStatements(database: string): string[] {
  const db = `\`${database}\``
  return [
    `CREATE DATABASE IF NOT EXISTS ${db}`,
    `CREATE TABLE IF NOT EXISTS ${db}.clicks (${CLICK_COLUMNS}) ENGINE = ReplacingMergeTree PARTITION BY toYYYYMM(clicked_at) ORDER BY (item_type, item_id, clicked_at, id)`,
    `CREATE TABLE IF NOT EXISTS ${db}.clicks_by_account (${CLICK_COLUMNS}) ENGINE = ReplacingMergeTree PARTITION BY toYYYYMM(clicked_at) ORDER BY (account_id, item_type, clicked_at, id)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.clicks_by_account_feed TO ${db}.clicks_by_account AS SELECT * FROM ${db}.clicks`,
    `CREATE TABLE IF NOT EXISTS ${db}.click_ids (id UInt64) ENGINE = ReplacingMergeTree ORDER BY id`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.click_ids_feed TO ${db}.click_ids AS SELECT id FROM ${db}.clicks`,
    `CREATE TABLE IF NOT EXISTS ${db}.deleted_links (id UInt32) ENGINE = ReplacingMergeTree ORDER BY id`,
    `CREATE TABLE IF NOT EXISTS ${db}.deleted_accounts (id UInt32) ENGINE = ReplacingMergeTree ORDER BY id`,
  ]
}

/** The index of each dimension in the rollups of values (`account_hour_values.dimension`, `account_day_values.dimension`). */
const DIMENSION_INDEX = VALUE_DIMENSIONS.map((name, index) => `(${index}, ${name})`).join(', ')

/**
 * The layout of the tables derived from `clicks` (ADR 035, "Layout versions"): a store whose
 * `layout` table does not hold this version has its derived tables emptied and filled again from
 * its clicks by the feeder holding the lease (`buildLayout`), once; until then questions are
 * answered from the click tables. 1: the hourly rollups; 2: the daily ones and `clicks_by_value`;
 * 3: the weekly and monthly ones.
 */
export const LAYOUT_VERSION = 3

/** The time grains of the rollups, each a column: its type and how a click's time is cut to it. */
const GRAINS = {
  hour: { type: "DateTime('UTC')", start: 'toStartOfHour' },
  day: { type: "DateTime('UTC')", start: 'toStartOfDay' },
  week: { type: 'Date', start: 'toMonday' },
  month: { type: 'Date', start: 'toStartOfMonth' },
} as const
type Grain = keyof typeof GRAINS

/** A table derived from `clicks`: made with the schema, fed by a view of each insert, refilled from the clicks by a layout's build. */
interface Derived {
  name: string
  /** Columns and engine. */
  definition: string
  /** What it holds of the clicks of `source` (a table, or a subquery in parentheses); none: written by deletions only. */
  select?: (source: string) => string
  /** Its time column (deletions by time, retention), `clicked_at` for the by-value copy. */
  time: Grain | 'clicked_at'
  /** Keyed by link: a deleted link's rows are left out by `NOT IN deleted_links` and removed by a mutation (else subtracted). */
  byLink?: boolean
}

/**
 * The derived tables (ADR 035, "Layout"): the by-value copy; per grain (hour, day, week, month)
 * rollups of the links' clicks per account, per dimension value and per link (SummingMergeTree, fed
 * by views); the rows subtracted for deleted links, per hour and day (weeks and months are covered
 * by the days: `rolledUp`). Layout 3 added the weekly and monthly ones: a 90-day answer reads ~13
 * rows per link and per value (`spansOf`), not 90.
 */
function derivedTables(): Derived[] {
  const counted = `toInt64(count()) AS c`
  const uniques = `toInt64(sum(is_unique)) AS u`
  const cut = (grain: Grain) => `${GRAINS[grain].start}(clicked_at) AS ${grain}`
  const links = `WHERE item_type = ${LINK}`
  const accountTotals = (grain: Grain): Derived => ({
    name: `account_${grain}s`, time: grain,
    definition: `(account_id UInt32, ${grain} ${GRAINS[grain].type}, c Int64, u Int64) ENGINE = SummingMergeTree PARTITION BY toYYYYMM(${grain}) ORDER BY (account_id, ${grain})`,
    select: (source) => `SELECT account_id, ${cut(grain)}, ${counted}, ${uniques} FROM ${source} ${links} GROUP BY account_id, ${grain}`,
  })
  // The hourly values lead with the dimension (layout 1's order, kept); the coarser ones with the time.
  const accountValues = (grain: Grain): Derived => ({
    name: `account_${grain}_values`, time: grain,
    definition: `(account_id UInt32, dimension UInt8, value String, ${grain} ${GRAINS[grain].type}, c Int64) ENGINE = SummingMergeTree PARTITION BY toYYYYMM(${grain}) ORDER BY (account_id, ${grain === 'hour' ? `dimension, ${grain}` : `${grain}, dimension`}, value)`,
    select: (source) => `SELECT account_id, pair.1 AS dimension, pair.2 AS value, ${cut(grain)}, ${counted} FROM ${source} ARRAY JOIN [${DIMENSION_INDEX}] AS pair ${links} GROUP BY account_id, dimension, value, ${grain}`,
  })
  const linkTotals = (grain: Grain): Derived => ({
    name: `link_${grain}s`, time: grain, byLink: true,
    definition: `(account_id UInt32, item_id UInt32, ${grain} ${GRAINS[grain].type}, c Int64, u Int64) ENGINE = SummingMergeTree PARTITION BY toYYYYMM(${grain}) ORDER BY (account_id, ${grain}, item_id)`,
    select: (source) => `SELECT account_id, item_id, ${cut(grain)}, ${counted}, ${uniques} FROM ${source} ${links} GROUP BY account_id, item_id, ${grain}`,
  })
  const subtractedValues = (grain: Grain): Derived => ({
    name: `subtracted_${grain}_values`, time: grain,
    definition: `(item_id UInt32, account_id UInt32, dimension UInt8, value String, ${grain} ${GRAINS[grain].type}, c Int64) ENGINE = ReplacingMergeTree ORDER BY (item_id, dimension, ${grain}, value)`,
  })
  return [
    {
      name: 'clicks_by_value', time: 'clicked_at',
      definition: `(${CLICK_COLUMNS}) ENGINE = ReplacingMergeTree PARTITION BY toYYYYMM(clicked_at) ORDER BY (account_id, country, referrer, item_type, item_id, clicked_at, id)`,
      select: (source) => `SELECT * FROM ${source}`,
    },
    accountTotals('hour'), accountValues('hour'), linkTotals('hour'),
    accountValues('day'), linkTotals('day'),
    linkTotals('week'), linkTotals('month'), accountValues('week'), accountValues('month'),
    { name: 'subtracted_hours', time: 'hour', definition: `(item_id UInt32, account_id UInt32, hour DateTime('UTC'), c Int64, u Int64) ENGINE = ReplacingMergeTree ORDER BY (item_id, hour)` },
    subtractedValues('hour'), subtractedValues('day'),
  ]
}

/** The copies of the clicks: deletions and retention reach each, by `clicked_at`. */
const CLICK_COPIES = ['clicks', 'clicks_by_account', ...derivedTables().filter((derived) => derived.time === 'clicked_at').map((derived) => derived.name)]
/** The rollups by their time column (retention), and those keyed by link (a link's deletion). */
const ROLLUPS = derivedTables().filter((derived): derived is Derived & { time: Grain } => derived.time !== 'clicked_at')
const LINK_ROLLUPS = ROLLUPS.filter((derived) => derived.byLink).map((derived) => derived.name)

/**
 * The derived tables, their views (fed by every insert into `clicks`) and the `layout` table: made
 * after the click tables (`schemaStatements`), each `if not exists`. A view made on a store that
 * holds clicks sees only new inserts: the layout's build fills the rest (`buildStatements`).
 */
export function rollupStatements(database: string): string[] {
  const db = `\`${database}\``
  return [
    `CREATE TABLE IF NOT EXISTS ${db}.layout (version UInt32) ENGINE = MergeTree ORDER BY version`,
    ...derivedTables().map((derived) => `CREATE TABLE IF NOT EXISTS ${db}.${derived.name} ${derived.definition}`),
    ...derivedTables().filter((derived) => derived.select).map((derived) => `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.${derived.name}_feed TO ${db}.${derived.name} AS ${derived.select!(`${db}.clicks`)}`),
  ]
}

/**
 * A layout's build, in order (ADR 035, "Layout versions"): the version forgotten, every derived
 * table emptied (an interrupted build starts over: idempotent), then refilled from the clicks of
 * each month in `months` (a statement per table and month, so the feeder renews its lease between
 * them), deleted links and workspaces left out (so the rows subtracted for them are emptied too),
 * then the version written. Runs while no insert does: under the feeder's lease.
 */
export function buildStatements(database: string, months: readonly number[]): string[] {
  const db = `\`${database}\``
  const derived = derivedTables()
  const kept = `(item_type != ${LINK} OR item_id NOT IN (SELECT id FROM ${db}.deleted_links)) AND account_id NOT IN (SELECT id FROM ${db}.deleted_accounts)`
  return [
    `TRUNCATE TABLE ${db}.layout`,
    // The first version's mark: a process of that version answers from the clicks while this builds.
    `TRUNCATE TABLE IF EXISTS ${db}.rollup_state`,
    ...derived.map((table) => `TRUNCATE TABLE ${db}.${table.name}`),
    ...months.flatMap((month) => derived.filter((table) => table.select).map((table) => `INSERT INTO ${db}.${table.name} ${table.select!(`(SELECT * FROM ${db}.clicks WHERE toYYYYMM(clicked_at) = ${integer(month)} AND ${kept})`)}`)),
    `INSERT INTO ${db}.layout VALUES (${LAYOUT_VERSION})`,
  ]
}

/** Why ClickHouse did not answer, in a sentence for the 503's message. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  // Questions are aborted only by their timeout (AbortSignal.timeout; the client's request_timeout).
  if (/timeout|timed out|abort/i.test(message) || (error instanceof Error && /TimeoutError|AbortError/.test(error.name))) return 'did not answer in time'
  if (/ECONNREFUSED|ECONNRESET|socket hang up|EHOSTUNREACH|ENOTFOUND|fetch failed/i.test(message)) return 'cannot be reached'
  return 'refused the question'
}

/** A failure of ClickHouse: statistics answer 503 in the envelope, with what went wrong (not the server's text). */
export class StatisticsStoreUnavailableError extends ServiceUnavailableError {
  constructor(readonly reason: unknown) {
    super(`Statistics are unavailable: the statistics store (ClickHouse) ${reasonOf(reason)}. Please try again shortly.`)
  }
}

export async function openClickhouseStore(options: ClickhouseStoreOptions) {
  // Loaded only when ANALYTICS_STORE names ClickHouse.
  const { createClient, ClickHouseLogLevel } = await import('@clickhouse/client')
  const database = options.database
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new TypeError(`not a database name: ${database}`)
  const table = (name: string) => `\`${database}\`.${name}`
  const queryTimeoutMs = options.queryTimeoutMs ?? 10_000
  const client: ClickHouseClient = createClient({
    url: options.url,
    username: options.username,
    password: options.password,
    request_timeout: queryTimeoutMs,
    // Failures are the caller's to tell (503, the feeder's log), not the client's own log.
    log: { level: ClickHouseLogLevel.OFF },
    max_open_connections: 10,
    keep_alive: { enabled: true },
    application: 'linkwell',
  })

  /** The tables, made once per process (again after a failure: ClickHouse may come later than the app). */
  let schema: Promise<void> | null = null
  function ensureSchema(): Promise<void> {
    schema ??= (async () => {
      const run = (query: string) => client.command({ query, abort_signal: AbortSignal.timeout(queryTimeoutMs) })
      for (const statement of schemaStatements(database)) await run(statement)
      for (const statement of rollupStatements(database)) await run(statement)
    })().catch((error: unknown) => {
      schema = null
      throw error
    })
    return schema
  }

  /**
   * Whether the derived tables hold every click in this version's layout (its build has finished).
   * A yes is kept for 10 s (another process's build of a later version empties them) unless `fresh`; a no is asked again.
   */
  let layoutKnown: { ready: true; at: number } | null = null
  let building: Promise<unknown> = Promise.resolve()
  async function layoutReady(fresh = false): Promise<boolean> {
    if (!fresh && layoutKnown && Date.now() - layoutKnown.at < 10_000) return true
    const [row] = await rows<{ v: string }>(`SELECT max(version) AS v FROM ${table('layout')}`)
    const ready = Number(row?.v ?? 0) >= LAYOUT_VERSION
    layoutKnown = ready ? { ready, at: Date.now() } : null
    return ready
  }

  async function rows<T>(query: string, timeoutMs = queryTimeoutMs, settings?: { max_threads: number }): Promise<T[]> {
    await ensureSchema()
    const signal = AbortSignal.timeout(timeoutMs)
    const result = await client.query({ query, format: 'JSONEachRow', abort_signal: signal, ...(settings ? { clickhouse_settings: settings } : {}) })
    return (await result.json()) as T[]
  }

  /**
   * A question's rows, or the 503 that tells statistics are unavailable. `small`: a query of the
   * rollups (thousands of rows), run on one thread: the three of an answer run at once, and on two
   * cores three single-threaded queries took 11.9 ms where two threads each took 14.1 (ADR 035, "Profile").
   */
  async function ask<T>(query: string, small = false): Promise<T[]> {
    try {
      return await rows<T>(query, queryTimeoutMs, small ? { max_threads: 1 } : undefined)
    } catch (error) {
      throw new StatisticsStoreUnavailableError(error)
    }
  }

  async function command(query: string, timeoutMs = queryTimeoutMs): Promise<void> {
    await ensureSchema()
    await client.command({ query, abort_signal: AbortSignal.timeout(timeoutMs) })
  }

  /**
   * What every question of the scope shares: its rows, in the table ordered for it. With a country
   * or referrer filter and the layout built, `clicks_by_value` (ordered by account, country,
   * referrer, item): an item's account(s) are given in `accounts`, so its range is found there too.
   */
  function sourceOf(question: StoreQuestion, start: number, end: number, accounts?: readonly number[]): { from: string; where: string } {
    const parts: string[] = []
    const { scope } = question
    let from: string
    if ('accountId' in scope) {
      from = table(accounts ? 'clicks_by_value' : 'clicks_by_account')
      parts.push(`account_id = ${integer(scope.accountId)}`, `item_type = ${LINK}`, `account_id NOT IN (SELECT id FROM ${table('deleted_accounts')})`)
      parts.push(`item_id NOT IN (SELECT id FROM ${table('deleted_links')})`)
      if (question.links) parts.push(question.links.length > 0 ? `item_id IN (${question.links.map(integer).join(', ')})` : '0')
    } else {
      from = table(accounts ? 'clicks_by_value' : 'clicks')
      if (accounts) parts.push(accounts.length > 0 ? `account_id IN (${accounts.map(integer).join(', ')})` : '0')
      parts.push(`item_type = ${integer(ITEM_TYPES.indexOf(scope.itemType))}`, `item_id = ${integer(scope.itemId)}`)
      if (scope.itemType === 'link') parts.push(`item_id NOT IN (SELECT id FROM ${table('deleted_links')})`)
    }
    parts.push(`clicked_at >= ${dateTime(start)}`, `clicked_at < ${dateTime(end)}`)
    for (const dimension of VALUE_DIMENSIONS) {
      const asked = question.filters[dimension]
      if (asked) parts.push(`${dimension} IN (${asked.map(literal).join(', ')})`)
    }
    return { from, where: parts.join(' AND ') }
  }

  type Counted = { c: string; u?: string }

  /** Whether a question is the rollups': a workspace's, no filter, whole UTC hours. */
  function byRollups(question: StoreQuestion): boolean {
    return 'accountId' in question.scope && !question.links && !question.quarters && question.start % HOUR_MS === 0 && question.end % HOUR_MS === 0
      && VALUE_DIMENSIONS.every((dimension) => !question.filters[dimension])
  }

  /** Whether `clicks_by_value` reads fewer rows for a question than the click tables: it filters by a leading dimension. */
  const byValue = (question: StoreQuestion) => Boolean(question.filters.country || question.filters.referrer)

  /** The first UTC day whose week or month the coarse rollups may answer (retention has removed nothing from it; a day's margin for clocks). */
  const coarseFrom = () => (options.retentionDays ? Math.floor(((options.now ?? Date.now)() - options.retentionDays * DAY_MS) / DAY_MS) * DAY_MS + DAY_MS : -Infinity)

  /**
   * A workspace's unfiltered figures from the rollups, a deleted link's rows subtracted: the
   * window's whole UTC days from the monthly, weekly and daily rollups (`spansOf`: a 90-day answer
   * reads ~13 rows per value and link, not 90 or 2,160), the hours before its first and after its
   * last UTC midnight from the hourly ones; the slots are hours, from `account_hours` (2,160 rows
   * for 90 days). A deleted link's rows are subtracted per day and hour (its subtracted rows are
   * few). The workspace's tombstone is asked once per query, outside the union.
   */
  async function rolledUp(question: StoreQuestion & { scope: { accountId: number } }): Promise<StoreFigures> {
    const accountId = integer(question.scope.accountId)
    const account = `account_id = ${accountId}`
    const kept = `toUInt32(${accountId}) NOT IN (SELECT id FROM ${table('deleted_accounts')})`
    const hours = `hour >= ${dateTime(question.start)} AND hour < ${dateTime(question.end)}`
    const firstDay = Math.ceil(question.start / DAY_MS) * DAY_MS
    const lastDay = Math.floor(question.end / DAY_MS) * DAY_MS
    const whole = firstDay < lastDay
    const spans = whole ? spansOf(firstDay, lastDay, coarseFrom()) : { months: [], weeks: [], days: [] }
    const within = (column: string, ranges: readonly DayRange[], literalOf: (time: number) => string) => `(${ranges.map(([from, to]) => `(${column} >= ${literalOf(from)} AND ${column} < ${literalOf(to)})`).join(' OR ')})`
    const edges = whole ? `${hours} AND (hour < ${dateTime(firstDay)} OR hour >= ${dateTime(lastDay)})` : hours
    // Hours outside the whole days: none for a window of whole days, unless it has no whole day.
    const hasEdges = !whole || question.start < firstDay || question.end > lastDay
    /** The window's rows of a family of rollups (month, week, day, hour tables), `columns` of each. */
    const spanned = (columns: string, tables: { month: string; week: string; day: string; hour: string }) => [
      ...(spans.months.length > 0 ? [`SELECT ${columns} FROM ${table(tables.month)} WHERE ${account} AND ${within('month', spans.months, toDate)}`] : []),
      ...(spans.weeks.length > 0 ? [`SELECT ${columns} FROM ${table(tables.week)} WHERE ${account} AND ${within('week', spans.weeks, toDate)}`] : []),
      ...(spans.days.length > 0 ? [`SELECT ${columns} FROM ${table(tables.day)} WHERE ${account} AND ${within('day', spans.days, dateTime)}`] : []),
      ...(hasEdges ? [`SELECT ${columns} FROM ${table(tables.hour)} WHERE ${account} AND ${edges}`] : []),
    ]
    const subtracted = [
      ...(whole ? [`SELECT dimension, value, -c AS c FROM ${table('subtracted_day_values')} FINAL WHERE ${account} AND day >= ${dateTime(firstDay)} AND day < ${dateTime(lastDay)}`] : []),
      ...(hasEdges ? [`SELECT dimension, value, -c AS c FROM ${table('subtracted_hour_values')} FINAL WHERE ${account} AND ${edges}`] : []),
    ]
    const choice = question.choice
    const [slots, values, links] = await Promise.all([
      ask<Counted & { s: string }>(`SELECT toUInt32(hour) AS s, sum(c) AS c, sum(u) AS u FROM (
          SELECT hour, c, u FROM ${table('account_hours')} WHERE ${account} AND ${hours}
          UNION ALL SELECT hour, -c AS c, -u AS u FROM ${table('subtracted_hours')} FINAL WHERE ${account} AND ${hours}
        ) WHERE ${kept} GROUP BY s HAVING c != 0`, true),
      ask<Counted & { d: number; v: string }>(`SELECT dimension AS d, value AS v, sum(c) AS c FROM (
          ${[...spanned('dimension, value, c', { month: 'account_month_values', week: 'account_week_values', day: 'account_day_values', hour: 'account_hour_values' }), ...subtracted].join('\n          UNION ALL ')}
        ) WHERE ${kept} GROUP BY d, v HAVING c != 0`, true),
      ask<Counted & { i: number }>(`SELECT item_id AS i, sum(c) AS c, sum(u) AS u FROM (
          ${spanned('item_id, c, u', { month: 'link_months', week: 'link_weeks', day: 'link_days', hour: 'link_hours' }).join('\n          UNION ALL ')}
        ) WHERE ${kept} AND item_id NOT IN (SELECT id FROM ${table('deleted_links')})
        ${choice && 'only' in choice ? `AND item_id IN (${[0, ...choice.only].map(integer).join(', ')})` : ''}
        GROUP BY i HAVING c != 0 ${choice && 'top' in choice ? `ORDER BY c DESC, i DESC LIMIT ${integer(choice.top)}` : ''}`, true),
    ])
    const perDimension = VALUE_DIMENSIONS.map(() => [] as Array<{ value: string; clicks: number }>)
    for (const row of values) perDimension[Number(row.d)]?.push({ value: row.v, clicks: Number(row.c) })
    return {
      slots: slots.map((row) => ({ start: Number(row.s) * 1000, clicks: Number(row.c), unique: Number(row.u) })),
      values: Object.fromEntries(VALUE_DIMENSIONS.map((dimension, index) => [dimension, perDimension[index]!])) as StoreFigures['values'],
      links: links.map((row) => ({ id: Number(row.i), clicks: Number(row.c), uniqueClicks: Number(row.u) })),
    }
  }

  /**
   * The accounts an item's clicks of [start, end) belong to (one, unless the item changed hands):
   * the first click's account, and any other. `DISTINCT` over the item's range hashed every click
   * (22 ms for a link's 3.4M clicks of 30 days at the full-size bench); comparing each with the
   * first account and collecting the few that differ takes about half of that (ADR 035).
   */
  async function accountsOf(scope: { itemType: ClickItemType; itemId: number }, start: number, end: number): Promise<number[]> {
    const range = `item_type = ${integer(ITEM_TYPES.indexOf(scope.itemType))} AND item_id = ${integer(scope.itemId)} AND clicked_at >= ${dateTime(start)} AND clicked_at < ${dateTime(end)}`
    const [found] = await ask<{ f: number | string | null; others: Array<number | string> }>(`WITH (SELECT account_id FROM ${table('clicks')} WHERE ${range} LIMIT 1) AS first
      SELECT first AS f, groupUniqArray(account_id) AS others FROM ${table('clicks')} WHERE ${range} AND account_id != first`)
    if (!found || found.f === null) return []
    return [Number(found.f), ...found.others.map(Number)]
  }

  /**
   * A question's slots, each dimension's values and (account scope) its links: a query each, all at
   * once. One scan of every dimension (`ARRAY JOIN` of (dimension, value) pairs) took 2.0 s where
   * the six grouped queries of one column took 0.25 s each (2M clicks, a loaded 2-core machine).
   */
  async function figures(question: StoreQuestion): Promise<StoreFigures> {
    let ready = false
    if (byRollups(question) || byValue(question)) {
      try {
        ready = await layoutReady()
      } catch (error) {
        throw new StatisticsStoreUnavailableError(error)
      }
    }
    if (ready && byRollups(question) && 'accountId' in question.scope) return rolledUp({ ...question, scope: question.scope })
    const accounts = ready && byValue(question) ? ('accountId' in question.scope ? [question.scope.accountId] : await accountsOf(question.scope, question.start, question.end)) : undefined
    const { from, where } = sourceOf(question, question.start, question.end, accounts)
    const slot = question.quarters ? 'toStartOfFifteenMinutes(clicked_at)' : 'toStartOfHour(clicked_at)'
    const account = 'accountId' in question.scope
    const choice = question.choice
    const linkQuery = account
      ? `SELECT item_id AS i, count() AS c, sum(is_unique) AS u FROM ${from} WHERE ${where}
         ${choice && 'only' in choice ? `AND item_id IN (${[0, ...choice.only].map(integer).join(', ')})` : ''}
         GROUP BY i ${choice && 'top' in choice ? `ORDER BY c DESC, i DESC LIMIT ${integer(choice.top)}` : ''}`
      : null
    const [slots, links, ...counted] = await Promise.all([
      ask<Counted & { s: string }>(`SELECT toUInt32(${slot}) AS s, count() AS c, sum(is_unique) AS u FROM ${from} WHERE ${where} GROUP BY s`),
      linkQuery ? ask<Counted & { i: number }>(linkQuery) : Promise.resolve([]),
      ...VALUE_DIMENSIONS.map((dimension) => ask<Counted & { v: string }>(`SELECT ${dimension} AS v, count() AS c FROM ${from} WHERE ${where} GROUP BY v`)),
    ])
    const values = Object.fromEntries(VALUE_DIMENSIONS.map((dimension, index) => [dimension, (counted[index] as Array<Counted & { v: string }>).map((row) => ({ value: row.v, clicks: Number(row.c) }))])) as StoreFigures['values']
    return {
      slots: slots.map((row) => ({ start: Number(row.s) * 1000, clicks: Number(row.c), unique: Number(row.u) })),
      values,
      ...(account ? { links: (links as Array<Counted & { i: number }>).map((row) => ({ id: Number(row.i), clicks: Number(row.c), uniqueClicks: Number(row.u) })) } : {}),
    }
  }

  /** Clicks per UTC minute (`YYYY-MM-DD HH:MM`) of [start, end). */
  async function minutes(question: StoreQuestion): Promise<Map<string, number>> {
    const { from, where } = sourceOf(question, question.start, question.end)
    const counted = await ask<{ m: string; c: string }>(`SELECT substring(toString(toStartOfMinute(clicked_at)), 1, 16) AS m, count() AS c FROM ${from} WHERE ${where} GROUP BY m`)
    return new Map(counted.map((row) => [row.m, Number(row.c)]))
  }

  return {
    database,
    /** Makes the tables if they are missing (each statement is `if not exists`); every read and write does first. */
    ensureSchema,
    figures,
    minutes,

    /** Of `ids` (ascending), those the store holds already (the ledger `click_ids`, read by range). */
    async heldOf(ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set()
      const held = new Set<number>()
      const wanted = new Set(ids)
      // The ids of a batch are mostly one run: a range read each for the run and for the gaps found.
      const sorted = [...ids].sort((a, b) => a - b)
      const ranges: Array<[number, number]> = []
      for (const id of sorted) {
        const last = ranges.at(-1)
        if (last && id - last[1] <= 1_000) last[1] = id
        else ranges.push([id, id])
      }
      const where = ranges.map(([from, to]) => `(id >= ${integer(from)} AND id <= ${integer(to)})`).join(' OR ')
      for (const row of await rows<{ id: string }>(`SELECT id FROM ${table('click_ids')} WHERE ${where}`)) {
        const id = Number(row.id)
        if (wanted.has(id)) held.add(id)
      }
      return held
    },

    /**
     * Writes clicks (one insert: one block, all or nothing for a client that dies while sending it),
     * as TabSeparated text: a third of JSONEachRow's bytes, and ClickHouse parses it faster
     * (measured in ADR 035's feeder runs).
     */
    async insert(clicks: ReadonlyArray<ClickhouseClick | ClickhouseClickText>, timeoutMs = options.insertTimeoutMs ?? 20_000): Promise<void> {
      if (clicks.length === 0) return
      await ensureSchema()
      await client.insert({
        table: table('clicks'), values: Readable.from([tabSeparated(clicks)], { objectMode: false }), format: 'TabSeparated',
        columns: [...INSERT_COLUMNS], abort_signal: AbortSignal.timeout(timeoutMs),
      })
    },

    /** Links and workspaces deleted: tombstoned (answers leave them out at once), their clicks removed by mutations. */
    async deleteItems(links: readonly number[], accounts: readonly number[]): Promise<void> {
      await ensureSchema()
      if (links.length > 0) {
        const condition = `item_type = ${LINK} AND item_id IN (${links.map(integer).join(', ')})`
        // Before the tombstone, while every click of the links is still there: a round that dies
        // here does it again from the same clicks, and the rows written twice count once (FINAL).
        await command(`INSERT INTO ${table('subtracted_hours')} SELECT item_id, account_id, toStartOfHour(clicked_at) AS hour, toInt64(count()), toInt64(sum(is_unique)) FROM ${table('clicks')} WHERE ${condition} GROUP BY item_id, account_id, hour`)
        for (const grain of ['hour', 'day'] as const) {
          await command(`INSERT INTO ${table(`subtracted_${grain}_values`)} SELECT item_id, account_id, pair.1 AS dimension, pair.2 AS value, ${GRAINS[grain].start}(clicked_at) AS ${grain}, toInt64(count()) FROM ${table('clicks')} ARRAY JOIN [${DIMENSION_INDEX}] AS pair WHERE ${condition} GROUP BY item_id, account_id, dimension, value, ${grain}`)
        }
        await client.insert({ table: table('deleted_links'), values: links.map((id) => ({ id })), format: 'JSONEachRow' })
        for (const name of CLICK_COPIES) await command(`ALTER TABLE ${table(name)} DELETE WHERE ${condition}`)
        for (const name of LINK_ROLLUPS) await command(`ALTER TABLE ${table(name)} DELETE WHERE item_id IN (${links.map(integer).join(', ')})`)
      }
      if (accounts.length > 0) {
        await client.insert({ table: table('deleted_accounts'), values: accounts.map((id) => ({ id })), format: 'JSONEachRow' })
        const condition = `account_id IN (${accounts.map(integer).join(', ')})`
        for (const name of [...CLICK_COPIES, ...ROLLUPS.map((rollup) => rollup.name)]) await command(`ALTER TABLE ${table(name)} DELETE WHERE ${condition}`)
      }
    },

    /** The tombstoned links (the feeder does not copy their clicks). */
    async deletedLinks(): Promise<Set<number>> {
      return new Set((await rows<{ id: number }>(`SELECT id FROM ${table('deleted_links')}`)).map((row) => Number(row.id)))
    },

    /** Clicks before `time` leave (CLICK_RETENTION_DAYS): a mutation of each click copy and rollup. */
    async deleteBefore(time: number): Promise<void> {
      // Whole UTC days, so the rollups (per hour and per day) and the clicks keep the same clicks.
      const day = dateTime(Math.floor(time / DAY_MS) * DAY_MS)
      for (const name of CLICK_COPIES) await command(`ALTER TABLE ${table(name)} DELETE WHERE clicked_at < ${day}`)
      // A week or month that starts before the first day kept is never read again (`spansOf` takes
      // those days from the daily rollups), so its row leaves whole.
      const first = toDate(Math.floor(time / DAY_MS) * DAY_MS)
      for (const rollup of ROLLUPS) await command(`ALTER TABLE ${table(rollup.name)} DELETE WHERE ${rollup.time} < ${GRAINS[rollup.time].type === 'Date' ? first : day}`)
    },

    /** Whether this version's layout is built (`fresh`: asked of ClickHouse now). */
    layoutReady,

    /**
     * Builds this version's layout when the store does not hold it (ADR 035, "Layout versions"):
     * the feeder does, holding its lease, before it inserts anything (no insert may run meanwhile:
     * a click inserted during the build would reach a rollup twice). `holding` renews the lease; it
     * is asked before each statement and every `renewMs` during one, and the build stops (throws)
     * when the lease is lost: the next holder starts it over. Answers whether it built.
     */
    buildLayout(holding: () => Promise<boolean>, options: { renewMs?: number; timeoutMs?: number } = {}): Promise<boolean> {
      // One build at a time in a process (a second call waits for the first, then finds it built).
      const next = building.then(() => buildOnce(holding, options))
      building = next.catch(() => undefined)
      return next
    },

    /** Clicks held, and the bytes on disk of Linkwell's tables (the bench, the admin's system page). */
    size,

    /** Runs a statement as given (the bench's seeding; never a value from a request). */
    command,
    /** Reads rows of a query as given (the bench's figures of the tables; never a value from a request). */
    rows: <T>(query: string) => rows<T>(query),

    async close(): Promise<void> {
      await client.close()
    },
  }

  /** Builds this version's layout (see `buildLayout`): asked again first, since another instance may have built it. */
  async function buildOnce(holding: () => Promise<boolean>, options: { renewMs?: number; timeoutMs?: number }): Promise<boolean> {
    await ensureSchema()
    if (await layoutReady(true)) return false
    const months = (await rows<{ m: string }>(`SELECT DISTINCT toYYYYMM(clicked_at) AS m FROM ${table('clicks')}`)).map((row) => Number(row.m)).sort((a, b) => a - b)
    let lost = false
    const renewing = setInterval(() => {
      holding().then((held) => (lost ||= !held), () => undefined)
    }, options.renewMs ?? 10_000)
    try {
      for (const statement of buildStatements(database, months)) {
        if (lost || !(await holding())) throw new Error('the feeder lost its lease while building the statistics layout')
        await command(statement, options.timeoutMs ?? 3_600_000)
      }
    } finally {
      clearInterval(renewing)
    }
    layoutKnown = null
    return true
  }

  /** Clicks held, and the bytes on disk of Linkwell's tables (the bench, the admin's system page). */
  async function size(): Promise<{ clicks: number; bytes: number }> {
    const [count] = await rows<{ c: string }>(`SELECT count() AS c FROM ${table('click_ids')}`)
    const [bytes] = await rows<{ b: string }>(`SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = ${literal(database)} AND active`)
    return { clicks: Number(count?.c ?? 0), bytes: Number(bytes?.b ?? 0) }
  }
}

export type ClickhouseStore = Awaited<ReturnType<typeof openClickhouseStore>>
