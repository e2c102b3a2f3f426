// SQL over the raw clicks for statistics (reads only: the click tables are written by analytics/,
// the click store). Every query is scoped first by the item (`clicks_item_idx`) or the account
// (`clicks_account_created_idx`, migration 029) and a UTC time range, then filtered. The SQL is the
// same text on SQLite and PostgreSQL: clicks are grouped by their UTC hour, quarter hour or minute
// read off the stored `YYYY-MM-DD HH:MM:SS` text; click-query.ts puts those slots into a zone's
// buckets. The account's link filters (campaign, channel, tag) read those tables' own rows.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely'
import type { DB } from '../../db/database.js'
import type { Database } from '../../db/schema.js'
import type { ClickItemType } from '../../analytics/click-items.js'
import type { ValueDimension } from '../../analytics/click-aggregates.js'
import { nowTimestamp } from '../../core/time.js'
import type { ClickFilters } from './click-query-params.js'
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

const COLUMNS: Record<ValueDimension, 'country' | 'referrer_host' | 'browser' | 'os' | 'device' | 'language'> = {
  country: 'country', referrer: 'referrer_host', browser: 'browser', os: 'os', device: 'device', language: 'language',
}

type ClicksQuery<O> = SelectQueryBuilder<Database, 'clicks', O>
type ClicksExpressions = ExpressionBuilder<Database, 'clicks'>

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

/** Which links' counts a workspace's figures carry: the `top` most clicked, or just the links of `only` (those with clicks). */
export type LinkChoice = { top: number } | { only: readonly number[] }

function toCount(value: number | string | null): number {
  return Number(value ?? 0)
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

/**
 * The dimension filters as one condition on `clicks` (true when none is given): values of one filter
 * are alternatives, '' (unknown) matches null and ''. Also the conditions a conversion's attributed
 * click must meet (conversion-figures.repository.ts).
 */
export function dimensionConditions(eb: ClicksExpressions, filters: ClickFilters) {
  const conditions = []
  for (const [dimension, column] of Object.entries(COLUMNS) as Array<[ValueDimension, (typeof COLUMNS)[ValueDimension]]>) {
    const values = filters[dimension]
    if (!values) continue
    const known = values.filter((value) => value !== '')
    const alternatives = []
    if (known.length > 0) alternatives.push(eb(`clicks.${column}`, 'in', known))
    if (known.length < values.length) alternatives.push(eb(`clicks.${column}`, 'is', null), eb(`clicks.${column}`, '=', ''))
    conditions.push(eb.or(alternatives))
  }
  return eb.and(conditions)
}

/** True when the filters name a dimension (a conversion must then be matched to its click). */
export function hasDimensionFilter(filters: ClickFilters): boolean {
  return (Object.keys(COLUMNS) as ValueDimension[]).some((dimension) => filters[dimension] !== undefined)
}

export function createRawClickRepository(db: DB) {
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
    if (hasDimensionFilter(filters)) query = query.where((eb: ClicksExpressions) => dimensionConditions(eb, filters))
    if ('accountId' in scope) {
      if (filters.link) query = query.where('clicks.item_id', 'in', filters.link)
      for (const links of linkSelectsOf(db, scope.accountId, filters)) query = query.where('clicks.item_id', 'in', links)
    }
    return query
  }

  return {
    slots,
    values,
    linkCounts,
    minutes,

    /** The link ids each of the account's campaign, channel and tag filters leaves, one list per filter given. */
    async linkIdsOfFilters(accountId: number, filters: ClickFilters): Promise<number[][]> {
      const lists: number[][] = []
      for (const select of linkSelectsOf(db, accountId, filters)) lists.push((await select.execute()).map((row) => row.id))
      return lists
    },
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

}

export type RawClickRepository = ReturnType<typeof createRawClickRepository>
