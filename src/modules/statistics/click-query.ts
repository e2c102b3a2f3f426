// The one module that answers statistics from the raw clicks (issue 24, ADR 022): series by hour,
// day, week or month in a time zone, the top lists, social counts and the workspace's top links,
// under any combination of filters, plus the live minutes. Every query is scoped first by the item
// (`clicks_item_idx`) or the account (`clicks_account_created_idx`, migration 029) and a UTC time range,
// then filtered. The SQL is the same text on SQLite and PostgreSQL: clicks are grouped by their UTC
// hour (or quarter hour, in zones whose offset is not whole hours) read off the stored
// `YYYY-MM-DD HH:MM:SS` text, and those slots are put into the zone's buckets here, so a day of
// Europe/Berlin is 23 or 25 hours on both. Answers without filters or options stay on the
// aggregates (statistics.repository.ts). The service reads through `StatisticsEngine`: a window's
// figures in one call, so that a columnar store can answer them with one scan where this module
// runs a query per figure.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely'
import type { DB } from '../../db/database.js'
import type { Database } from '../../db/schema.js'
import type { ClickItemType } from '../../analytics/click-items.js'
import type { ValueDimension } from '../../analytics/click-aggregates.js'
import { DAY_MS, MINUTE_MS, dayOf, midnightOf, nowTimestamp } from '../../core/time.js'
import { createOffsetLookup, utcOfLocal } from '../../core/time-zones.js'
import type { ClickFilters, Granularity } from './click-query-params.js'
import type { CountedValue } from './statistics.repository.js'

const HOUR_MS = 3_600_000
const QUARTER_MS = HOUR_MS / 4

/** Whose clicks: one item's, or the account's links'. */
export type ClickScope = { itemType: ClickItemType; itemId: number } | { accountId: number }

/** A range of UTC milliseconds, start included, end not. */
export interface UtcWindow {
  start: number
  end: number
}

/** Days `from`..`to` (inclusive) of a zone as the UTC window they cover. */
export function windowOfDays(zone: string, fromDay: string, toDay: string): UtcWindow {
  return { start: utcOfLocal(zone, midnightOf(fromDay)), end: utcOfLocal(zone, midnightOf(toDay) + DAY_MS) }
}

const COLUMNS: Record<ValueDimension, 'country' | 'referrer_host' | 'browser' | 'os' | 'device' | 'language'> = {
  country: 'country', referrer: 'referrer_host', browser: 'browser', os: 'os', device: 'device', language: 'language',
}

type ClicksQuery<O> = SelectQueryBuilder<Database, 'clicks', O>
type ClicksExpressions = ExpressionBuilder<Database, 'clicks'>

/** One bucket of a series: its label in the zone, its first UTC second, its counts. */
export interface SeriesEntry {
  date: string
  start: string
  clicks: number
  uniqueClicks: number
}

/** Clicks of one UTC slot (an hour, or a quarter hour). */
export interface Slot {
  start: number
  clicks: number
  unique: number
}

/** A link's clicks and unique clicks in a window. */
export interface LinkCount {
  id: number
  clicks: number
  uniqueClicks: number
}

/**
 * Everything the statistics service reads of one window, in one call, so that an engine can
 * answer it with one scan (a columnar store's grouping sets) instead of a query per figure.
 */
export interface WindowFigures {
  /** Clicks per UTC slot (hours, or quarter hours when `quarters`), any order. */
  slots: Slot[]
  /** Every value of each dimension with clicks under the filters ('' for unknown), most clicked first, ties by value ascending. */
  values: Record<ValueDimension, CountedValue[]>
  /** Account scope only: the existing links of the account with clicks in the window under the filters (all, or those chosen), most first, ties by id descending. Undefined for an item scope. */
  links?: LinkCount[]
}

/** Which links' counts a workspace's figures carry: the `top` most clicked, or just the links of `only` (those with clicks). */
export type LinkChoice = { top: number } | { only: readonly number[] }

/** The last 60 minutes of clicks per UTC minute, zeros included, oldest first. */
export interface LiveMinutes {
  from: string
  to: string
  clicks: number
  minutes: Array<{ minute: string; clicks: number }>
}

/** What the statistics service needs from an engine: a window's figures, and the live minutes. */
export interface StatisticsEngine {
  /** `links` (account scope): which links' counts to carry; by default every link with clicks. */
  figures(scope: ClickScope, window: UtcWindow, filters: ClickFilters, quarters: boolean, links?: LinkChoice): Promise<WindowFigures>
  live(scope: ClickScope, filters: ClickFilters, now: number): Promise<LiveMinutes>
}

function toCount(value: number | string | null): number {
  return Number(value ?? 0)
}

/** Monday of the week a day `YYYY-MM-DD` is in. */
function mondayOf(day: string): string {
  const time = midnightOf(day)
  return dayOf(time - ((new Date(time).getUTCDay() + 6) % 7) * DAY_MS)
}

/** The bucket label of a local time (local milliseconds) at a granularity. */
function labelOf(granularity: Granularity, local: number): string {
  const day = dayOf(local)
  if (granularity === 'hour') return `${day} ${nowTimestamp(new Date(local)).slice(11, 13)}:00`
  if (granularity === 'day') return day
  if (granularity === 'week') return mondayOf(day)
  return day.slice(0, 7)
}

/**
 * The series of a window in a zone: every bucket, zeros included, oldest first. Hours are the
 * zone's clock hours (at a DST change a day has 23 or 25 of them); days, weeks (from Monday) and
 * months start at the zone's midnight; the first bucket starts at the window's start.
 */
export function seriesOf(slots: Slot[], window: UtcWindow, zone: string, granularity: Granularity): SeriesEntry[] {
  const offsetOf = createOffsetLookup(zone)
  const buckets = new Map<string, SeriesEntry>()
  // Labels of local days, made once per day (a window of hours has thousands of slots).
  const labels = new Map<number, string>()
  const keyOf = (utc: number): string => {
    const local = utc + offsetOf(utc)
    // Hours are keyed by their UTC start: a clock hour repeated at a DST change is two buckets.
    if (granularity === 'hour') return String(utc - (local % HOUR_MS))
    const localDay = Math.floor(local / DAY_MS)
    let label = labels.get(localDay)
    if (label === undefined) labels.set(localDay, (label = labelOf(granularity, local)))
    return label
  }
  const step = granularity === 'hour' ? HOUR_MS : DAY_MS
  for (let time = window.start; time < window.end;) {
    const key = keyOf(time)
    if (!buckets.has(key)) buckets.set(key, { date: labelOf(granularity, time + offsetOf(time)), start: nowTimestamp(new Date(time)), clicks: 0, uniqueClicks: 0 })
    if (granularity === 'hour') time += step
    else time = utcOfLocal(zone, midnightOf(dayOf(time + offsetOf(time))) + DAY_MS)
  }
  for (const slot of slots) {
    const bucket = buckets.get(keyOf(slot.start))
    if (!bucket) continue
    bucket.clicks += slot.clicks
    bucket.uniqueClicks += slot.unique
  }
  return [...buckets.values()]
}

/** True when a zone's offset over the window is whole hours (clicks can be grouped by UTC hour, else by quarter hour). */
export function wholeHours(window: UtcWindow, zone: string): boolean {
  const offsetOf = createOffsetLookup(zone)
  for (let time = window.start; time < window.end + DAY_MS; time += DAY_MS) if (offsetOf(Math.min(time, window.end)) % HOUR_MS !== 0) return false
  return true
}

const stored = (time: number) => nowTimestamp(new Date(time))

/**
 * The selects of an account's link ids its campaign, channel and tag filters leave, one per filter
 * given (a click must be of a link in each): subqueries of the raw-click engine, run on their own
 * by the columnar one.
 */
export function linkSelectsOf(db: DB, accountId: number, filters: ClickFilters) {
  const selects = []
  if (filters.campaign) selects.push(db.selectFrom('links').select('links.id as id').where('links.account_id', '=', accountId).where('links.campaign_id', 'in', filters.campaign))
  if (filters.channel) {
    selects.push(db.selectFrom('channel_items').select('channel_items.item_id as id').where('channel_items.account_id', '=', accountId).where('channel_items.item_type', '=', 'links').where('channel_items.channel_id', 'in', filters.channel))
  }
  if (filters.tag) {
    selects.push(db.selectFrom('link_tags').innerJoin('tags', 'tags.id', 'link_tags.tag_id').select('link_tags.link_id as id').where('tags.account_id', '=', accountId).where('tags.name_key', 'in', filters.tag))
  }
  return selects
}

/** The engine that reads the raw clicks of the main database (SQLite or PostgreSQL). */
export function createClickQuery(db: DB): StatisticsEngine {
  /** The scope, the window and the filters: the part every query shares. */
  function clicksOf(scope: ClickScope, window: UtcWindow, filters: ClickFilters): ClicksQuery<{}> {
    let query = db.selectFrom('clicks')
    if ('accountId' in scope) {
      // The account's links, as the aggregates count them (a deleted link's clicks are not its).
      query = query
        .where('clicks.account_id', '=', scope.accountId)
        .where('clicks.item_type', '=', 'link')
        // `+item_id`: the condition must not pick the per-link index (SQLite, after `analyze`, probed
        // clicks_item_idx once per link of the account: 3.5 times slower than the account's range).
        .where(sql<number>`+${sql.ref('clicks.item_id')}`, 'in', db.selectFrom('links').select('links.id').where('links.account_id', '=', scope.accountId))
    } else {
      query = query.where('clicks.item_type', '=', scope.itemType).where('clicks.item_id', '=', scope.itemId)
    }
    query = query.where('clicks.created_at', '>=', stored(window.start)).where('clicks.created_at', '<', stored(window.end))
    for (const [dimension, column] of Object.entries(COLUMNS) as Array<[ValueDimension, (typeof COLUMNS)[ValueDimension]]>) {
      const values = filters[dimension]
      if (!values) continue
      const known = values.filter((value) => value !== '')
      query = query.where((eb: ClicksExpressions) => {
        const alternatives = []
        if (known.length > 0) alternatives.push(eb(`clicks.${column}`, 'in', known))
        if (known.length < values.length) alternatives.push(eb(`clicks.${column}`, 'is', null), eb(`clicks.${column}`, '=', ''))
        return eb.or(alternatives)
      })
    }
    if ('accountId' in scope) {
      if (filters.link) query = query.where('clicks.item_id', 'in', filters.link)
      for (const links of linkSelectsOf(db, scope.accountId, filters)) query = query.where('clicks.item_id', 'in', links)
    }
    return query
  }

  /** Clicks and unique clicks per UTC slot of the window: hours, or quarter hours when `quarters`. */
  async function slots(scope: ClickScope, window: UtcWindow, filters: ClickFilters, quarters: boolean): Promise<Slot[]> {
    const hour = sql<string>`substr(clicks.created_at, 1, 13)`
    const quarter = sql<number>`cast(substr(clicks.created_at, 15, 2) as integer) / 15`
    let query = clicksOf(scope, window, filters).select((eb) => [
      hour.as('hour'),
      eb.fn.countAll<number | string>().as('clicks'),
      eb.fn.sum<number | string>('clicks.is_unique').as('unique_clicks'),
    ])
    if (quarters) query = query.select(quarter.as('quarter')).groupBy([hour, quarter]) as typeof query
    else query = query.groupBy(hour)
    const rows = (await query.execute()) as Array<{ hour: string; quarter?: number | string; clicks: number | string; unique_clicks: number | string }>
    return rows.map((row) => ({
      start: Date.parse(`${row.hour}:00:00Z`) + Number(row.quarter ?? 0) * QUARTER_MS,
      clicks: toCount(row.clicks),
      unique: toCount(row.unique_clicks),
    }))
  }

  /** Every value of a dimension with clicks ('' for unknown), most first, ties by value. */
  async function values(scope: ClickScope, window: UtcWindow, filters: ClickFilters, dimension: ValueDimension): Promise<CountedValue[]> {
    const value = sql<string>`coalesce(${sql.ref(`clicks.${COLUMNS[dimension]}`)}, '')`
    const rows = await clicksOf(scope, window, filters)
      .select((eb) => [value.as('value'), eb.fn.countAll<number | string>().as('clicks')])
      .groupBy(value)
      .orderBy('clicks', 'desc')
      .orderBy('value')
      .execute()
    return rows.map((row) => ({ value: row.value, clicks: toCount(row.clicks) }))
  }

  /** The account's links with clicks in the window (existing links only; all, or those chosen), most first, ties newest first. */
  async function linkCounts(accountId: number, window: UtcWindow, filters: ClickFilters, choice?: LinkChoice): Promise<LinkCount[]> {
    if (choice && 'only' in choice && choice.only.length === 0) return []
    let query = clicksOf({ accountId }, window, filters)
      .select((eb) => ['clicks.item_id', eb.fn.countAll<number | string>().as('clicks'), eb.fn.sum<number | string>('clicks.is_unique').as('unique_clicks')])
      .groupBy('clicks.item_id')
      .orderBy('clicks', 'desc')
      .orderBy('clicks.item_id', 'desc')
    if (choice && 'only' in choice) query = query.where('clicks.item_id', 'in', [...choice.only])
    if (choice && 'top' in choice) query = query.limit(choice.top)
    const rows = await query.execute()
    return rows.map((row) => ({ id: row.item_id, clicks: toCount(row.clicks), uniqueClicks: toCount(row.unique_clicks) }))
  }

  /** Clicks per UTC minute (`YYYY-MM-DD HH:MM`) of the window. */
  async function minutes(scope: ClickScope, window: UtcWindow, filters: ClickFilters): Promise<Map<string, number>> {
    const minute = sql<string>`substr(clicks.created_at, 1, 16)`
    const rows = await clicksOf(scope, window, filters).select((eb) => [minute.as('minute'), eb.fn.countAll<number | string>().as('clicks')]).groupBy(minute).execute()
    return new Map(rows.map((row) => [row.minute, toCount(row.clicks)]))
  }

  return {
    /** A window's slots, every value of each dimension and (for an account) the links' counts: 7-8 queries. */
    async figures(scope, window, filters, quarters, links) {
      // One after the other: the pool is shared with the redirects and the click writer.
      const figures: WindowFigures = { slots: await slots(scope, window, filters, quarters), values: {} as Record<ValueDimension, CountedValue[]> }
      for (const dimension of Object.keys(COLUMNS) as ValueDimension[]) figures.values[dimension] = await values(scope, window, filters, dimension)
      if ('accountId' in scope) figures.links = await linkCounts(scope.accountId, window, filters, links)
      return figures
    },

    async live(scope, filters, now) {
      const end = Math.floor(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS
      const window = { start: end - 60 * MINUTE_MS, end }
      const counts = await minutes(scope, window, filters)
      const perMinute = []
      for (let time = window.start; time < window.end; time += MINUTE_MS) {
        const minute = stored(time).slice(0, 16)
        perMinute.push({ minute, clicks: counts.get(minute) ?? 0 })
      }
      return { from: stored(window.start), to: stored(window.end), clicks: perMinute.reduce((sum, { clicks }) => sum + clicks, 0), minutes: perMinute }
    },
  }
}
