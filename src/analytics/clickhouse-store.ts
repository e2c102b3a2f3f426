// ClickHouse as the statistics store of several instances (issue 40, ADR 035): the raw clicks
// copied by the feeder (clickhouse-feeder.ts) from the main database, read by every instance.
// Spoken to over ClickHouse's HTTP interface with @clickhouse/client (it works with the 18.16
// server the tests run, but for query parameters: 18.16 has no `{name:Type}`, so the few values a
// question carries are written into the SQL here, numbers checked as integers and text escaped
// by `literal`, never concatenated as given).
//
// Layout (ADR 035), only SQL current ClickHouse accepts too (MergeTree family, materialized views
// with TO, no LowCardinality, no projections):
//   clicks             by item: ORDER BY (item_type, item_id, clicked_at, id), a month a partition;
//   clicks_by_account  the same rows (a materialized view of `clicks`) by (account_id, item_type,
//                      clicked_at, id): a workspace's questions read its range only;
//   click_ids          the ids held (a view of `clicks`), ORDER BY id: the feeder's ledger, so a
//                      batch sent twice is written once;
//   deleted_links, deleted_accounts  tombstones: left out of every answer at once, while the
//                      mutations (ALTER TABLE … DELETE) that remove their clicks run.
// The two click tables are ReplacingMergeTree keyed by the click id: a copy written twice in spite
// of the ledger (a feeder that lost its lease mid-insert) merges away.
import { Readable } from 'node:stream'
import type { ClickHouseClient } from '@clickhouse/client'
import { ServiceUnavailableError } from '../core/errors.js'
import { nowTimestamp } from '../core/time.js'
import { VALUE_DIMENSIONS, type ValueDimension } from './click-aggregates.js'
import type { ClickItemType } from './click-items.js'
import type { StoreFigures, StoreQuestion } from './columnar-store.js'

const ITEM_TYPES: readonly ClickItemType[] = ['link', 'qr', 'campaign', 'bio']
const LINK = ITEM_TYPES.indexOf('link')
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

/** The columns of an insert, in the order `tabSeparated` writes them. */
const INSERT_COLUMNS = ['id', 'account_id', 'item_type', 'item_id', 'clicked_at', ...VALUE_DIMENSIONS, 'is_unique'] as const

/** A text field of TabSeparated: backslash, tab, line feed, carriage return and NUL escaped (ClickHouse's TSV escapes). */
function field(text: string): string {
  return /[\\\t\n\r\0]/.test(text) ? text.replace(/[\\\t\n\r\0]/g, (char) => TSV_ESCAPES[char]!) : text
}
const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' }

/** Clicks as TabSeparated rows (INSERT_COLUMNS); numbers checked as integers, the time as `YYYY-MM-DD HH:MM:SS`. */
export function tabSeparated(clicks: readonly ClickhouseClick[]): string {
  let text = ''
  for (const click of clicks) {
    if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(click.clicked_at)) throw new TypeError(`not a click time: ${click.clicked_at}`)
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

/** Why ClickHouse did not answer, in a sentence for the 503's message. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  if (/timeout/i.test(message)) return 'did not answer in time'
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
      for (const statement of schemaStatements(database)) await client.command({ query: statement, abort_signal: AbortSignal.timeout(queryTimeoutMs) })
    })().catch((error: unknown) => {
      schema = null
      throw error
    })
    return schema
  }

  async function rows<T>(query: string, timeoutMs = queryTimeoutMs): Promise<T[]> {
    await ensureSchema()
    const signal = AbortSignal.timeout(timeoutMs)
    const result = await client.query({ query, format: 'JSONEachRow', abort_signal: signal })
    return (await result.json()) as T[]
  }

  /** A question's rows, or the 503 that tells statistics are unavailable. */
  async function ask<T>(query: string): Promise<T[]> {
    try {
      return await rows<T>(query)
    } catch (error) {
      throw new StatisticsStoreUnavailableError(error)
    }
  }

  async function command(query: string, timeoutMs = queryTimeoutMs): Promise<void> {
    await ensureSchema()
    await client.command({ query, abort_signal: AbortSignal.timeout(timeoutMs) })
  }

  /** What every question of the scope shares: its rows, in the table ordered for it. */
  function sourceOf(question: StoreQuestion, start: number, end: number): { from: string; where: string } {
    const parts: string[] = []
    const { scope } = question
    let from: string
    if ('accountId' in scope) {
      from = table('clicks_by_account')
      parts.push(`account_id = ${integer(scope.accountId)}`, `item_type = ${LINK}`, `account_id NOT IN (SELECT id FROM ${table('deleted_accounts')})`)
      parts.push(`item_id NOT IN (SELECT id FROM ${table('deleted_links')})`)
      if (question.links) parts.push(question.links.length > 0 ? `item_id IN (${question.links.map(integer).join(', ')})` : '0')
    } else {
      from = table('clicks')
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

  /**
   * A question's slots, each dimension's values and (account scope) its links: a query each, all at
   * once. One scan of every dimension (`ARRAY JOIN` of (dimension, value) pairs) took 2.0 s where
   * the six grouped queries of one column took 0.25 s each (2M clicks, a loaded 2-core machine).
   */
  async function figures(question: StoreQuestion): Promise<StoreFigures> {
    const { from, where } = sourceOf(question, question.start, question.end)
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
    async insert(clicks: readonly ClickhouseClick[], timeoutMs = options.insertTimeoutMs ?? 20_000): Promise<void> {
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
        await client.insert({ table: table('deleted_links'), values: links.map((id) => ({ id })), format: 'JSONEachRow' })
        const condition = `item_type = ${LINK} AND item_id IN (${links.map(integer).join(', ')})`
        for (const name of ['clicks', 'clicks_by_account']) await command(`ALTER TABLE ${table(name)} DELETE WHERE ${condition}`)
      }
      if (accounts.length > 0) {
        await client.insert({ table: table('deleted_accounts'), values: accounts.map((id) => ({ id })), format: 'JSONEachRow' })
        const condition = `account_id IN (${accounts.map(integer).join(', ')})`
        for (const name of ['clicks', 'clicks_by_account']) await command(`ALTER TABLE ${table(name)} DELETE WHERE ${condition}`)
      }
    },

    /** The tombstoned links (the feeder does not copy their clicks). */
    async deletedLinks(): Promise<Set<number>> {
      return new Set((await rows<{ id: number }>(`SELECT id FROM ${table('deleted_links')}`)).map((row) => Number(row.id)))
    },

    /** Clicks before `time` leave (CLICK_RETENTION_DAYS): a mutation of each click table. */
    async deleteBefore(time: number): Promise<void> {
      for (const name of ['clicks', 'clicks_by_account']) await command(`ALTER TABLE ${table(name)} DELETE WHERE clicked_at < ${dateTime(time)}`)
    },

    /** Clicks held, and the bytes on disk of Linkwell's tables (the bench, the admin's system page). */
    async size(): Promise<{ clicks: number; bytes: number }> {
      const [count] = await rows<{ c: string }>(`SELECT count() AS c FROM ${table('click_ids')}`)
      const [bytes] = await rows<{ b: string }>(`SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = ${literal(database)} AND active`)
      return { clicks: Number(count?.c ?? 0), bytes: Number(bytes?.b ?? 0) }
    },

    /** Runs a statement as given (the bench's seeding; never a value from a request). */
    command,

    async close(): Promise<void> {
      await client.close()
    },
  }
}

export type ClickhouseStore = Awaited<ReturnType<typeof openClickhouseStore>>
