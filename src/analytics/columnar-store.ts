// The columnar store (ADR 022): a DuckDB file beside the main database that mirrors its raw clicks
// so that filtered statistics over many millions of clicks answer in milliseconds. The main
// database stays the record: the store tails `clicks` by id (ids skipped over are looked for again
// for a while, since on PostgreSQL they may commit out of order) and `audit_log` for deleted links,
// so the click writer's guarantees are untouched and a store lost or behind only costs a re-read.
//
// Layout (measured in bench/analytics-columnar.ts at 100M clicks):
//   recent    appended clicks of days not yet complete (and late ones), in arrival order;
//   by_item   complete UTC days, each sorted by (account, item, country, referrer, time): an item's
//             answers read only its row groups;
//   by_value  the same days sorted by (account, country, referrer, browser, time): a workspace's
//             answers filtered by those read only their row groups;
//   rollups   the workspace's links' clicks before the hour `rolled_to`, per hour, day and week, in
//             total, per dimension value and per link: a workspace's unfiltered answers read these
//             (and `recent` after `rolled_to`). Rows of one key may repeat (a late click, a deleted
//             link's negative rows); reads sum them.
// Dimension values are stored as integer codes (`dictionary`); unknown (null or '') is ''.
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection, DuckDBDataChunk as DataChunk } from '@duckdb/node-api'
import { dayOf, nowTimestamp, timeOfStored } from '../core/time.js'
import type { DB } from '../db/database.js'
import { VALUE_DIMENSIONS, type ValueDimension } from './click-aggregates.js'
import { linksDeletedBefore, readClicksAfter, type SourceClick } from './click-pages.js'
import type { ClickItemType } from './click-items.js'

const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000
const WEEK_MS = 7 * DAY_MS
/** Clicks read from the main database at once. */
const PAGE = 20_000
/** Deletions are read again this far back in the journal's ids (rows committed out of order). */
const AUDIT_OVERLAP = 1_000

const ITEM_TYPES: readonly ClickItemType[] = ['link', 'qr', 'campaign', 'bio']
const LINK = ITEM_TYPES.indexOf('link')
const SOURCE_COLUMNS: Record<ValueDimension, 'country' | 'referrer_host' | 'browser' | 'os' | 'device' | 'language'> = {
  country: 'country', referrer: 'referrer_host', browser: 'browser', os: 'os', device: 'device', language: 'language',
}
const CLICK_COLUMNS = `account_id integer, item_type utinyint, item_id integer, clicked_at timestamp, ${VALUE_DIMENSIONS.map((name) => `${name} integer`).join(', ')}, is_unique boolean`
/** Offered clicks kept waiting for a catch-up at most (beyond, they are dropped and read back instead). */
const MAX_OFFERED = 5 * PAGE
/** Rows of one appended chunk (DuckDB's vector size). */
const CHUNK_ROWS = 2_048

export interface ColumnarStoreOptions {
  /** The DuckDB file (created when missing). */
  file: string
  /** The clock (tests move it). */
  now?: () => Date
  /** Clicks older than this many days leave the copies at `compact()`; the rollups keep them (as the aggregates do). */
  retentionDays?: number | null
}

/** What one question asks the store: one item's clicks, or an account's links'; a UTC window; filters. */
export interface StoreQuestion {
  scope: { itemType: ClickItemType; itemId: number } | { accountId: number }
  start: number
  end: number
  /** Values per dimension ('' = unknown); a click matches one of each dimension given. */
  filters: Partial<Record<ValueDimension, readonly string[]>>
  /** Account scope: only these links (already resolved from link, campaign, channel and tag filters). */
  links?: readonly number[]
  /** Slots of 15 minutes instead of hours (zones whose offset is not whole hours). */
  quarters: boolean
  /** Account scope: which links' counts to answer (at least these: the `top` most clicked, or those of `only`); by default all. */
  choice?: { top: number } | { only: readonly number[] }
}

/** The counts of a question: per slot, per dimension value, per link (account scope); in no order. */
export interface StoreFigures {
  slots: Array<{ start: number; clicks: number; unique: number }>
  values: Record<ValueDimension, Array<{ value: string; clicks: number }>>
  links?: Array<{ id: number; clicks: number; uniqueClicks: number }>
}

/** A raw click as appended: its id is not kept. */
type StoreClick = Omit<SourceClick, 'id'>
/** Committed clicks handed over by the click writer, with the run of ids they took. */
interface OfferedClicks {
  clicks: readonly StoreClick[]
  first: number
  last: number
}

const timestamp = (time: number) => `timestamp '${nowTimestamp(new Date(time))}'`
const date = (time: number) => `date '${dayOf(time)}'`
const floorTo = (time: number, unit: number) => Math.floor(time / unit) * unit
/** Monday 00:00 UTC on or after a time (1970-01-01 was a Thursday). */
const mondayFrom = (time: number) => Math.ceil((time - 4 * DAY_MS) / WEEK_MS) * WEEK_MS + 4 * DAY_MS
const mondayUntil = (time: number) => Math.floor((time - 4 * DAY_MS) / WEEK_MS) * WEEK_MS + 4 * DAY_MS

type Ranges = Array<[number, number]>

/**
 * A window of whole UTC hours [start, end) cut into what the rollups hold: the hours before its
 * first and after its last UTC midnight, the days between, and the whole weeks (from Monday) among
 * them; `wholeDays` is every day between, weeks included (for rollups kept per day only).
 */
export function splitWindow(start: number, end: number): { hours: Ranges; days: Ranges; weeks: Ranges; wholeDays: Ranges } {
  const firstMidnight = Math.ceil(start / DAY_MS) * DAY_MS
  const lastMidnight = floorTo(end, DAY_MS)
  if (firstMidnight >= lastMidnight) return { hours: start < end ? [[start, end]] : [], days: [], weeks: [], wholeDays: [] }
  const hours = ([[start, firstMidnight], [lastMidnight, end]] as Ranges).filter(([from, to]) => from < to)
  const wholeDays: Ranges = [[firstMidnight, lastMidnight]]
  const firstMonday = mondayFrom(firstMidnight)
  const lastMonday = mondayUntil(lastMidnight)
  if (firstMonday >= lastMonday) return { hours, days: wholeDays, weeks: [], wholeDays }
  const days = ([[firstMidnight, firstMonday], [lastMonday, lastMidnight]] as Ranges).filter(([from, to]) => from < to)
  return { hours, days, weeks: [[firstMonday, lastMonday]], wholeDays }
}

/** The statements that add (sign 1) or take away (-1) the link clicks of `source` to every rollup. */
export function rollupStatements(source: string, sign: 1 | -1): string[] {
  const counts = `${sign} * count(*), ${sign} * count(*) filter (where is_unique)`
  const links = `(select * from ${source}) where item_type = ${LINK}`
  const perValue = (period: string) => VALUE_DIMENSIONS.map((name, index) => `select account_id, ${period}, ${index}, ${name}, ${counts} from ${links} group by all`).join(' union all ')
  return [
    `insert into hour_totals select account_id, date_trunc('hour', clicked_at), ${counts} from ${links} group by all`,
    `insert into account_hours ${perValue("date_trunc('hour', clicked_at)")}`,
    `insert into account_days ${perValue('cast(clicked_at as date)')}`,
    `insert into link_hours select account_id, date_trunc('hour', clicked_at), item_id, ${counts} from ${links} group by all`,
    `insert into link_days select account_id, cast(clicked_at as date), item_id, ${counts} from ${links} group by all`,
    `insert into link_weeks select account_id, date_trunc('week', clicked_at)::DATE, item_id, ${counts} from ${links} group by all`,
  ]
}

const SCHEMA = [
  `create table if not exists meta (key varchar primary key, value varchar)`,
  `create table if not exists dictionary (dimension utinyint, code integer, value varchar)`,
  `create table if not exists deleted_links (id integer)`,
  `create table if not exists recent (${CLICK_COLUMNS})`,
  `create table if not exists by_item (${CLICK_COLUMNS})`,
  `create table if not exists by_value (${CLICK_COLUMNS})`,
  `create table if not exists hour_totals (account_id integer, hour timestamp, clicks integer, unique_clicks integer)`,
  `create table if not exists account_hours (account_id integer, hour timestamp, dimension utinyint, code integer, clicks integer, unique_clicks integer)`,
  `create table if not exists account_days (account_id integer, day date, dimension utinyint, code integer, clicks integer, unique_clicks integer)`,
  `create table if not exists link_hours (account_id integer, hour timestamp, item_id integer, clicks integer, unique_clicks integer)`,
  `create table if not exists link_days (account_id integer, day date, item_id integer, clicks integer, unique_clicks integer)`,
  `create table if not exists link_weeks (account_id integer, week date, item_id integer, clicks integer, unique_clicks integer)`,
]

/** Where the store keeps its place; numbers as text. */
interface Meta {
  /** The highest click id held. */
  lastId: number
  /** Ids skipped over, with when they were first missed (ms). */
  gaps: Map<number, number>
  /** Rollups hold every link click before this UTC hour (ms). */
  rolledTo: number
  /** Day rows before this day (ms) are merged to one per key; likewise week rows before `weeksMergedTo`. */
  daysMergedTo: number
  weeksMergedTo: number
  /** The highest audit_log id read for deletions. */
  auditId: number
}

export async function openColumnarStore(db: DB, options: ColumnarStoreOptions) {
  const now = options.now ?? (() => new Date())
  fs.mkdirSync(path.dirname(path.resolve(options.file)), { recursive: true })
  // Loaded only when a store is kept (ANALYTICS_STORE): no memory for it otherwise; left out of the bundle.
  const { DuckDBInstance, DuckDBDataChunk, DuckDBTimestampValue, BOOLEAN, INTEGER, TIMESTAMP, UTINYINT } = await import('@duckdb/node-api')
  // Every column a number (the time in microseconds): set without a call into DuckDB per value.
  const chunkTypes = [INTEGER, UTINYINT, INTEGER, TIMESTAMP, ...VALUE_DIMENSIONS.map(() => INTEGER), BOOLEAN]
  const instance = await DuckDBInstance.create(options.file, { threads: '2' })
  const writer = await instance.connect()
  // Readers: a workspace's three rollup reads run at once.
  const readers = [await instance.connect(), await instance.connect(), await instance.connect()]
  for (const statement of SCHEMA) await writer.run(statement)
  // Late clicks (see append) pass through here: a temporary table, kept out of the store's log.
  await writer.run(`create temp table incoming (${CLICK_COLUMNS})`)

  const read = async <T = Record<string, unknown>>(connection: DuckDBConnection, text: string): Promise<T[]> =>
    (await connection.runAndReadAll(text)).getRowObjectsJS() as T[]

  const stored = new Map((await read<{ key: string; value: string }>(writer, 'select key, value from meta')).map((row) => [row.key, row.value]))
  const meta: Meta = {
    lastId: Number(stored.get('last_id') ?? 0),
    gaps: new Map(JSON.parse(stored.get('gaps') ?? '[]') as Array<[number, number]>),
    rolledTo: Number(stored.get('rolled_to') ?? 0),
    daysMergedTo: Number(stored.get('days_merged_to') ?? 0),
    weeksMergedTo: Number(stored.get('weeks_merged_to') ?? 0),
    auditId: Number(stored.get('audit_id') ?? 0),
  }
  /** The statement that keeps `place` (by default the present one). */
  const metaStatement = (place: Meta = meta) => `insert or replace into meta values ${[
    ['last_id', String(place.lastId)], ['gaps', JSON.stringify([...place.gaps])], ['rolled_to', String(place.rolledTo)],
    ['days_merged_to', String(place.daysMergedTo)], ['weeks_merged_to', String(place.weeksMergedTo)], ['audit_id', String(place.auditId)],
  ].map(([key, value]) => `('${key}', '${value}')`).join(', ')}`

  // value → code per dimension, and code → value.
  const codes = VALUE_DIMENSIONS.map(() => new Map<string, number>())
  const values = VALUE_DIMENSIONS.map(() => [] as string[])
  async function loadDictionary(): Promise<void> {
    for (const map of codes) map.clear()
    for (const list of values) list.length = 0
    for (const row of await read<{ dimension: number; code: number; value: string }>(writer, 'select dimension, code, value from dictionary order by dimension, code')) {
      codes[row.dimension]!.set(row.value, row.code)
      values[row.dimension]![row.code] = row.value
    }
  }
  await loadDictionary()
  const deleted = new Set((await read<{ id: number }>(writer, 'select id from deleted_links')).map((row) => row.id))

  /** Runs `statements` in one DuckDB transaction; on failure nothing of them stays. */
  async function inTransaction(statements: Array<string | (() => Promise<void>)>): Promise<void> {
    await writer.run('begin transaction')
    try {
      for (const statement of statements) {
        if (typeof statement === 'string') await writer.run(statement)
        else await statement()
      }
      await writer.run('commit')
    } catch (error) {
      await writer.run('rollback').catch(() => undefined)
      throw error
    }
  }

  /** Appends clicks read from the main database (any order) and moves the place kept; one transaction. */
  async function append(rows: readonly StoreClick[], lastId: number, gaps: Map<number, number>): Promise<void> {
    const added: Array<[number, number, string]> = []
    const codeOf = (dimension: number, value: string | null): number => {
      const text = value ?? ''
      let code = codes[dimension]!.get(text)
      if (code === undefined) {
        code = values[dimension]!.length
        codes[dimension]!.set(text, code)
        values[dimension]![code] = text
        added.push([dimension, code, text])
      }
      return code
    }
    const chunks: DataChunk[] = []
    let late = false
    // Clicks come in id order, mostly of the same second: its text is parsed once.
    let createdAt = ''
    let stamp = new DuckDBTimestampValue(0n)
    // Straight into chunks' vectors: a few calls into DuckDB per chunk, none per value.
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const slice = rows.slice(start, start + CHUNK_ROWS).filter((row) => !(row.item_type === 'link' && deleted.has(row.item_id)))
      if (slice.length === 0) continue
      const chunk = DuckDBDataChunk.create(chunkTypes, slice.length)
      const vectors = chunkTypes.map((_, index) => chunk.getColumnVector(index))
      slice.forEach((row, index) => {
        if (row.created_at !== createdAt) {
          createdAt = row.created_at
          const time = timeOfStored(createdAt)
          stamp = new DuckDBTimestampValue(BigInt(time) * 1000n)
          if (time < meta.rolledTo) late = true
        }
        vectors[0]!.setItem(index, row.account_id)
        vectors[1]!.setItem(index, ITEM_TYPES.indexOf(row.item_type as ClickItemType))
        vectors[2]!.setItem(index, row.item_id)
        vectors[3]!.setItem(index, stamp)
        for (let dimension = 0; dimension < VALUE_DIMENSIONS.length; dimension += 1) vectors[4 + dimension]!.setItem(index, codeOf(dimension, row[SOURCE_COLUMNS[VALUE_DIMENSIONS[dimension]!]]))
        vectors[10]!.setItem(index, Number(row.is_unique) === 1)
      })
      for (const vector of vectors) vector.flush()
      chunks.push(chunk)
    }
    // The appender writes in the transaction of its connection: the clicks and the place kept land together.
    const appendTo = (table: string, catalog?: string) => async () => {
      const appender = await writer.createAppender(table, 'main', catalog)
      try {
        for (const chunk of chunks) appender.appendDataChunk(chunk)
        appender.flushSync()
      } finally {
        appender.closeSync()
      }
    }
    try {
      await inTransaction([
        ...(added.length > 0 ? [`insert into dictionary values ${added.map(([dimension, code, text]) => `(${dimension}, ${code}, '${text.replace(/'/g, "''")}')`).join(', ')}`] : []),
        ...(chunks.length === 0 ? [] : !late ? [appendTo('recent')] : [
          // Clicks of hours already rolled up (an import's, a batch committed late) also go into the rollups at once.
          'delete from incoming',
          appendTo('incoming', 'temp'),
          'insert into recent select * from incoming',
          ...rollupStatements(`incoming where clicked_at < ${timestamp(meta.rolledTo)}`, 1),
        ]),
        metaStatement({ ...meta, lastId, gaps }),
      ])
    } catch (error) {
      await loadDictionary()
      throw error
    }
    meta.lastId = lastId
    meta.gaps = gaps
  }

  /** Links deleted since the last look (the journal's `link.deleted`): their clicks leave the copies and the rollups. */
  async function applyDeletions(): Promise<void> {
    const rows = await db.selectFrom('audit_log').select(['id', 'resource_id']).where('id', '>', Math.max(0, meta.auditId - AUDIT_OVERLAP)).where('action', '=', 'link.deleted').orderBy('id').execute()
    const highest = Number((await db.selectFrom('audit_log').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? meta.auditId)
    for (const row of rows) {
      const id = row.resource_id
      if (id === null || deleted.has(id)) continue
      const ofLink = (table: string) => `${table} where item_type = ${LINK} and item_id = ${id}`
      await inTransaction([
        `insert into deleted_links values (${id})`,
        ...rollupStatements(`(select * from ${ofLink('by_item')} union all select * from ${ofLink('recent')} and clicked_at < ${timestamp(meta.rolledTo)})`, -1),
        `delete from ${ofLink('by_item')}`,
        `delete from ${ofLink('by_value')}`,
        `delete from ${ofLink('recent')}`,
      ])
      deleted.add(id)
    }
    if (highest > meta.auditId) {
      meta.auditId = highest
      await writer.run(metaStatement())
    }
  }

  /** Clicks the click writer has committed, not appended yet (see `offer`). */
  let offered: OfferedClicks[] = []
  let offeredCount = 0

  /**
   * The offered clicks that continue the store's place without a hole: the runs from `lastId + 1`
   * on, up to a page; exactly what reading the main database would answer for those ids. Runs
   * already held are dropped.
   */
  function takeOffered(): { clicks: StoreClick[]; last: number } | null {
    offered = offered.filter((run) => run.last > meta.lastId)
    offeredCount = offered.reduce((sum, run) => sum + run.clicks.length, 0)
    offered.sort((a, b) => a.first - b.first)
    let last = meta.lastId
    const clicks: StoreClick[] = []
    while (offered.length > 0 && offered[0]!.first === last + 1 && clicks.length < PAGE) {
      const run = offered.shift()!
      for (const click of run.clicks) clicks.push(click)
      offeredCount -= run.clicks.length
      last = run.last
    }
    return clicks.length > 0 ? { clicks, last } : null
  }

  /** Before the store holds any click: links deleted before it was made are never appended (click-pages.ts). */
  let linksMarked = false
  async function markLinksDeletedBefore(): Promise<void> {
    const gone = await linksDeletedBefore(db, deleted)
    for (let start = 0; start < gone.length; start += 10_000) {
      await writer.run(`insert into deleted_links select unnest([${gone.slice(start, start + 10_000).join(', ')}])`)
    }
    for (const id of gone) deleted.add(id)
  }

  async function catchUpOnce(): Promise<number> {
    if (meta.lastId === 0 && !linksMarked) {
      await markLinksDeletedBefore()
      linksMarked = true
    }
    await applyDeletions()
    let appended = 0
    const time = now().getTime()
    for (;;) {
      // The click writer's own batches need no reading back: only what follows them is read. One
      // append for both (a transaction per batch would cost more than the reading saved).
      const taken = takeOffered()
      const { found, page, last: lastId, gaps } = await readClicksAfter(db, taken?.last ?? meta.lastId, meta.gaps, time, PAGE)
      const clicks: StoreClick[] = [...found, ...(taken?.clicks ?? []), ...page]
      if (clicks.length === 0 && gaps.size === meta.gaps.size) return appended
      await append(clicks, lastId, gaps)
      appended += clicks.length
      if (page.length < PAGE || closing) return appended
    }
  }

  async function compactOnce(): Promise<void> {
    const time = now().getTime()
    const hour = floorTo(time, HOUR_MS)
    if (hour > meta.rolledTo) {
      await inTransaction([...rollupStatements(`recent where clicked_at >= ${timestamp(meta.rolledTo)} and clicked_at < ${timestamp(hour)}`, 1), metaStatement({ ...meta, rolledTo: hour })])
      meta.rolledTo = hour
    }
    // Complete UTC days leave `recent` for the sorted copies.
    const today = floorTo(meta.rolledTo, DAY_MS)
    const done = `recent where clicked_at < ${timestamp(today)}`
    await inTransaction([
      `insert into by_item select * from ${done} order by account_id, item_type, item_id, country, referrer, clicked_at`,
      `insert into by_value select * from ${done} order by account_id, item_type, country, referrer, browser, clicked_at`,
      `delete from ${done}`,
    ])
    // Finished days' and weeks' rollup rows become one per key.
    const merge = async (table: string, column: string, keys: string, from: number, to: number) => {
      if (to <= from) return
      const range = `${column} >= ${date(from)} and ${column} < ${date(to)}`
      await inTransaction([
        `create or replace temp table merged as select ${keys}, sum(clicks)::INTEGER as clicks, sum(unique_clicks)::INTEGER as unique_clicks from ${table} where ${range} group by all`,
        `delete from ${table} where ${range}`,
        `insert into ${table} select * from merged order by account_id, ${column}`,
        'drop table merged',
      ])
    }
    const mergeDaysFrom = meta.daysMergedTo || today - 400 * DAY_MS
    await merge('account_days', 'day', 'account_id, day, dimension, code', mergeDaysFrom, today)
    await merge('link_days', 'day', 'account_id, day, item_id', mergeDaysFrom, today)
    const weeksTo = mondayUntil(today)
    const mergeWeeksFrom = meta.weeksMergedTo || weeksTo - 60 * WEEK_MS
    await merge('link_weeks', 'week', 'account_id, week, item_id', mergeWeeksFrom, weeksTo)
    meta.daysMergedTo = Math.max(meta.daysMergedTo, today)
    meta.weeksMergedTo = Math.max(meta.weeksMergedTo, weeksTo)
    const retention = options.retentionDays
    if (retention) {
      const cutoff = timestamp(time - retention * DAY_MS)
      await inTransaction(['by_item', 'by_value', 'recent'].map((table) => `delete from ${table} where clicked_at < ${cutoff}`))
    }
    await writer.run(metaStatement())
  }

  /** Set by close(): a long catch-up stops after its page. */
  let closing = false

  // One writer at a time: catching up and upkeep are queued one after the other.
  let queue: Promise<unknown> = Promise.resolve()
  function serially<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }

  /** Codes of the values asked for; null when a dimension's values are all unknown to the store (nothing matches). */
  function codesOf(dimension: ValueDimension, asked: readonly string[]): number[] {
    const map = codes[VALUE_DIMENSIONS.indexOf(dimension)]!
    return asked.flatMap((value) => {
      const code = map.get(value)
      return code === undefined ? [] : [code]
    })
  }

  function conditionOf(question: StoreQuestion, start: number, end: number): string {
    const parts: string[] = []
    const { scope } = question
    if ('accountId' in scope) parts.push(`account_id = ${scope.accountId}`, `item_type = ${LINK}`)
    else parts.push(`item_type = ${ITEM_TYPES.indexOf(scope.itemType)}`, `item_id = ${scope.itemId}`)
    if ('accountId' in scope && question.links) parts.push(question.links.length > 0 ? `item_id in (${question.links.join(', ')})` : 'false')
    parts.push(`clicked_at >= ${timestamp(start)}`, `clicked_at < ${timestamp(end)}`)
    for (const dimension of VALUE_DIMENSIONS) {
      const asked = question.filters[dimension]
      if (!asked) continue
      const matching = codesOf(dimension, asked)
      parts.push(matching.length > 0 ? `${dimension} in (${matching.join(', ')})` : 'false')
    }
    return parts.join(' and ')
  }

  const emptyValues = () => Object.fromEntries(VALUE_DIMENSIONS.map((dimension) => [dimension, []])) as unknown as StoreFigures['values']

  /** One scan of the clicks of [start, end): slots, every dimension's values, and the links (account scope). */
  async function scan(question: StoreQuestion, start: number, end: number, tables: string[]): Promise<StoreFigures> {
    const account = 'accountId' in question.scope
    const slot = question.quarters ? `time_bucket(interval 15 minute, clicked_at)` : `date_trunc('hour', clicked_at)`
    const sets = [slot, ...VALUE_DIMENSIONS, ...(account ? ['item_id'] : [])]
    const condition = conditionOf(question, start, end)
    const source = tables.map((table) => `select * from ${table} where ${condition}`).join(' union all ')
    const rows = await read<Record<string, unknown>>(readers[0]!, `select ${sets.map((set, index) => `${set} as g${index}`).join(', ')},
        count(*)::INTEGER as clicks, (count(*) filter (where is_unique))::INTEGER as unique_clicks
      from (${source}) group by grouping sets (${sets.map((set) => `(${set})`).join(', ')})`)
    const figures: StoreFigures = { slots: [], values: emptyValues(), ...(account ? { links: [] } : {}) }
    for (const row of rows) {
      const index = sets.findIndex((_, position) => row[`g${position}`] !== null && row[`g${position}`] !== undefined)
      const clicks = Number(row.clicks)
      if (index === 0) figures.slots.push({ start: (row.g0 as Date).getTime(), clicks, unique: Number(row.unique_clicks) })
      else if (index <= VALUE_DIMENSIONS.length) figures.values[VALUE_DIMENSIONS[index - 1]!].push({ value: values[index - 1]![Number(row[`g${index}`])] ?? '', clicks })
      else if (index > 0) figures.links!.push({ id: Number(row[`g${index}`]), clicks, uniqueClicks: Number(row.unique_clicks) })
    }
    return figures
  }

  /** An account's unfiltered figures of [start, end) (whole hours, before `rolledTo`) from the rollups. */
  async function fromRollups(accountId: number, start: number, end: number, choice?: StoreQuestion['choice']): Promise<StoreFigures> {
    // The values are rolled up per day, not per week: their days are the whole days, weeks included.
    const { hours, days, weeks, wholeDays: allDays } = splitWindow(start, end)
    const account = `account_id = ${accountId}`
    // One select per range, each a plain range its table's zone maps can skip to (an `or` of ranges reads everything).
    const parts = (columns: string, sources: Array<[string, string, Ranges, (time: number) => string]>) => sources
      .flatMap(([table, column, ranges, literal]) => ranges.map(([from, to]) => `select ${columns} from ${table} where ${account} and ${column} >= ${literal(from)} and ${column} < ${literal(to)}`))
      .join(' union all ') || `select ${columns} from hour_totals where false`
    const columnsOf = async (connection: DuckDBConnection, text: string) => (await connection.runAndReadAll(text)).getColumnsJS() as number[][]
    const [series, counted, links] = await Promise.all([
      columnsOf(readers[0]!, `select epoch_ms(hour)::DOUBLE, sum(clicks)::INTEGER, sum(unique_clicks)::INTEGER from hour_totals
        where ${account} and hour >= ${timestamp(start)} and hour < ${timestamp(end)} group by all`),
      columnsOf(readers[1]!, `select dimension::INTEGER, code, sum(clicks)::INTEGER from (${parts('dimension, code, clicks', [['account_days', 'day', allDays, date], ['account_hours', 'hour', hours, timestamp]])}) group by all`),
      columnsOf(readers[2]!, `select item_id, sum(clicks)::INTEGER as clicks, sum(unique_clicks)::INTEGER from (${parts('item_id, clicks, unique_clicks', [
        ['link_weeks', 'week', weeks, date], ['link_days', 'day', days, date], ['link_hours', 'hour', hours, timestamp]])})
        ${choice && 'only' in choice ? `where item_id in (${[-1, ...choice.only].join(', ')})` : ''} group by all
        ${choice && 'top' in choice ? `order by clicks desc, item_id desc limit ${choice.top}` : ''}`),
    ])
    const figures: StoreFigures = { slots: [], values: emptyValues(), links: [] }
    const [slotStarts = [], slotClicks = [], slotUnique = []] = series
    slotStarts.forEach((time, index) => {
      if (slotClicks[index] !== 0) figures.slots.push({ start: time, clicks: slotClicks[index]!, unique: slotUnique[index]! })
    })
    const [dimensions = [], codes = [], valueClicks = []] = counted
    dimensions.forEach((dimension, index) => {
      if (valueClicks[index] !== 0) figures.values[VALUE_DIMENSIONS[dimension]!].push({ value: values[dimension]![codes[index]!] ?? '', clicks: valueClicks[index]! })
    })
    const [ids = [], linkClicks = [], linkUnique = []] = links
    ids.forEach((id, index) => {
      if (linkClicks[index] !== 0) figures.links!.push({ id, clicks: linkClicks[index]!, uniqueClicks: linkUnique[index]! })
    })
    return figures
  }

  /** Figures of two parts of a window added up. */
  function added(first: StoreFigures, second: StoreFigures): StoreFigures {
    const sum = <T>(lists: T[][], keyOf: (entry: T) => string | number, add: (into: T, entry: T) => void): T[] => {
      const byKey = new Map<string | number, T>()
      for (const entry of lists.flat()) {
        const known = byKey.get(keyOf(entry))
        if (known) add(known, entry)
        else byKey.set(keyOf(entry), { ...entry })
      }
      return [...byKey.values()]
    }
    return {
      slots: sum([first.slots, second.slots], (slot) => slot.start, (into, slot) => { into.clicks += slot.clicks; into.unique += slot.unique }),
      values: Object.fromEntries(VALUE_DIMENSIONS.map((dimension) => [dimension, sum([first.values[dimension], second.values[dimension]], (entry) => entry.value, (into, entry) => { into.clicks += entry.clicks })])) as unknown as StoreFigures['values'],
      links: sum([first.links ?? [], second.links ?? []], (link) => link.id, (into, link) => { into.clicks += link.clicks; into.uniqueClicks += link.uniqueClicks }),
    }
  }

  /** The counts of a question (see `figures`). */
  async function figuresOf(question: StoreQuestion): Promise<StoreFigures> {
    const { scope } = question
    const rolledTo = meta.rolledTo
    // Filtered, quarter-hour and item questions scan; the sorted copy that leads with what they ask.
    if (!('accountId' in scope) || question.quarters || question.links || VALUE_DIMENSIONS.some((dimension) => question.filters[dimension]) || question.start >= rolledTo) {
      return scan(question, question.start, question.end, ['accountId' in scope ? 'by_value' : 'by_item', 'recent'])
    }
    const { accountId } = scope
    // The top links of part of a window need not be the window's: cut only a window the rollups hold whole.
    const whole = question.end <= rolledTo
    const choice = question.choice && 'top' in question.choice && !whole ? undefined : question.choice
    const before = await fromRollups(accountId, question.start, Math.min(question.end, rolledTo), choice)
    if (whole) return before
    return added(before, await scan(question, rolledTo, question.end, ['recent']))
  }

  return {
    /** Appends the main database's clicks not held yet and applies link deletions; answers how many clicks were read. */
    catchUp: () => serially(catchUpOnce),

    /** Upkeep at now(): complete hours into the rollups, complete days into the sorted copies, merges, retention. */
    compact: () => serially(compactOnce),

    /**
     * The counts of a question, from the copies, `recent` and (an account's unfiltered ones) the
     * rollups; queued with catching up and upkeep, so that its parts see one state of the store.
     */
    figures: (question: StoreQuestion): Promise<StoreFigures> => serially(() => figuresOf(question)),

    /**
     * Committed clicks that took exactly the ids `first`..`last` (the click writer's batches): the
     * next catch-up appends them instead of reading them back when they continue its place, and
     * reads as before otherwise. Never throws.
     */
    offer(clicks: readonly StoreClick[], ids: { first: number; last: number }): void {
      if (closing || ids.last <= meta.lastId) return
      if (offeredCount + clicks.length > MAX_OFFERED) {
        offered = []
        offeredCount = 0
        return
      }
      offered.push({ clicks, ...ids })
      offeredCount += clicks.length
    },

    /** The place kept (tests, the metrics). */
    position: () => ({ lastId: meta.lastId, gaps: meta.gaps.size, rolledTo: meta.rolledTo }),

    async close(): Promise<void> {
      closing = true
      await queue
      for (const connection of [writer, ...readers]) connection.closeSync()
      instance.closeSync()
    },
  }
}

export type ColumnarStore = Awaited<ReturnType<typeof openColumnarStore>>
