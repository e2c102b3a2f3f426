// Reads of the click aggregates (never of the raw clicks): the cost depends on the number of
// distinct values and days asked for, not on how many clicks an item has.
import type { ExpressionBuilder } from 'kysely'
import type { DB } from '../../db/database.js'
import type { Database } from '../../db/schema.js'
import type { ClickItemType } from '../../analytics/click-items.js'
import type { ValueDimension } from '../../analytics/click-aggregates.js'

export interface ItemReference {
  itemType: ClickItemType
  itemId: number
}

export interface CountedValue {
  value: string
  clicks: number
}

/** How many of each value an item's statistics show, and how many links the account's. */
export const TOP_LIMIT = 10

/** A link among the account's most clicked of a range. */
export interface TopLinkRow {
  id: number
  alias: string
  url: string
  title: string | null
  /** The branded domain's origin, or null on the main domain. */
  domainOrigin: string | null
  clicks: number
  uniqueClicks: number
}

/** The account's links and their own all-time counters. */
export interface LinkTotals {
  links: number
  clicks: number
  uniqueClicks: number
}

/** Sums come back as text from PostgreSQL when they are numeric, and as null over no rows. */
function toCount(value: number | string | null): number {
  return Number(value ?? 0)
}

export function createStatisticsRepository(db: DB) {
  const totalsOf = (item: ItemReference) => db.selectFrom('click_totals').where('item_type', '=', item.itemType).where('item_id', '=', item.itemId)
  const daysOf = (item: ItemReference, from: string, to: string) =>
    db.selectFrom('click_days').where('item_type', '=', item.itemType).where('item_id', '=', item.itemId).where('day', '>=', from).where('day', '<=', to)
  // The account's links' day counters: the join walks the account's links (links_account_idx) and
  // reads each one's days by the click_days key, never the raw clicks.
  const linkDaysOf = (accountId: number, from: string, to: string) =>
    db
      .selectFrom('click_days')
      .innerJoin('links', (join) => join.onRef('links.id', '=', 'click_days.item_id').on('click_days.item_type', '=', 'link'))
      .where('links.account_id', '=', accountId)
      .where('click_days.day', '>=', from)
      .where('click_days.day', '<=', to)

  return {
    /** All-time counters of the dimensions that have a fixed, small set of values (clicks, unique, social). */
    async totalsOfFixedDimensions(item: ItemReference): Promise<Array<CountedValue & { dimension: string }>> {
      return totalsOf(item).select(['dimension', 'value', 'clicks']).where('dimension', 'in', ['clicks', 'unique', 'social']).execute()
    },

    /** Clicks per split-test variant (its position as text), all time. */
    async variantTotals(item: ItemReference): Promise<CountedValue[]> {
      return totalsOf(item).select(['value', 'clicks']).where('dimension', '=', 'variant').execute()
    },

    /** The most counted values of a dimension, all time (an index range scan of TOP_LIMIT rows). */
    async topTotals(item: ItemReference, dimension: ValueDimension): Promise<CountedValue[]> {
      return totalsOf(item).select(['value', 'clicks']).where('dimension', '=', dimension).orderBy('clicks', 'desc').orderBy('value').limit(TOP_LIMIT).execute()
    },

    /** Per-day counters of the fixed dimensions between two days (inclusive). */
    async daysOfFixedDimensions(item: ItemReference, from: string, to: string): Promise<Array<CountedValue & { day: string; dimension: string }>> {
      return daysOf(item, from, to).select(['day', 'dimension', 'value', 'clicks']).where('dimension', 'in', ['clicks', 'unique', 'social']).execute()
    },

    /** The most counted values of a dimension between two days. */
    async topBetween(item: ItemReference, dimension: ValueDimension, from: string, to: string): Promise<CountedValue[]> {
      const rows = await daysOf(item, from, to)
        .select((eb) => ['value', eb.fn.sum<number | string>('clicks').as('clicks')])
        .where('dimension', '=', dimension)
        .groupBy('value')
        .orderBy('clicks', 'desc')
        .orderBy('value')
        .limit(TOP_LIMIT)
        .execute()
      // On PostgreSQL sum() of a bigint column is numeric, which pg answers as text (only int8 is parsed, database.ts).
      return rows.map((row) => ({ value: row.value, clicks: Number(row.clicks) }))
    },

    /** Clicks and unique clicks per day of all the account's links between two days (days without clicks are absent). */
    async accountDays(accountId: number, from: string, to: string): Promise<Array<CountedValue & { day: string; dimension: string }>> {
      const rows = await linkDaysOf(accountId, from, to)
        .select((eb) => ['click_days.day', 'click_days.dimension', eb.fn.sum<number | string>('click_days.clicks').as('clicks')])
        .where('click_days.dimension', 'in', ['clicks', 'unique'])
        .groupBy(['click_days.day', 'click_days.dimension'])
        .execute()
      return rows.map((row) => ({ day: row.day, dimension: row.dimension, value: '', clicks: toCount(row.clicks) }))
    },

    /** The account's most clicked links between two days, most first (ties: newest first). */
    async topLinksBetween(accountId: number, from: string, to: string): Promise<TopLinkRow[]> {
      const sumOf = (dimension: string) => (eb: ExpressionBuilder<Database, 'click_days' | 'links' | 'domains'>) =>
        eb.fn.sum<number | string>(eb.case().when('click_days.dimension', '=', dimension).then(eb.ref('click_days.clicks')).else(0).end())
      const rows = await linkDaysOf(accountId, from, to)
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .select((eb) => [
          'links.id', 'links.alias', 'links.url', 'links.title', 'domains.domain as domain_origin',
          sumOf('clicks')(eb).as('range_clicks'),
          sumOf('unique')(eb).as('range_unique_clicks'),
        ])
        .where('click_days.dimension', 'in', ['clicks', 'unique'])
        .groupBy(['links.id', 'links.alias', 'links.url', 'links.title', 'domains.domain'])
        .orderBy('range_clicks', 'desc')
        .orderBy('links.id', 'desc')
        .limit(TOP_LIMIT)
        .execute()
      return rows.map((row) => ({
        id: row.id,
        alias: row.alias,
        url: row.url,
        title: row.title,
        domainOrigin: row.domain_origin,
        clicks: toCount(row.range_clicks),
        uniqueClicks: toCount(row.range_unique_clicks),
      }))
    },

    /** How many links the account has and the sum of their own counters (kept with the aggregates). */
    async linkTotals(accountId: number): Promise<LinkTotals> {
      const row = await db
        .selectFrom('links')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('links'),
          eb.fn.sum<number | string | null>('clicks').as('clicks'),
          eb.fn.sum<number | string | null>('unique_clicks').as('unique_clicks'),
        ])
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
      return { links: toCount(row.links), clicks: toCount(row.clicks), uniqueClicks: toCount(row.unique_clicks) }
    },

    /** The workspace's time zone (migration 027), the default of its statistics' buckets. */
    async timeZoneOf(accountId: number): Promise<string> {
      const row = await db.selectFrom('accounts').select('time_zone').where('id', '=', accountId).executeTakeFirst()
      return row?.time_zone ?? 'UTC'
    },

  }
}

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>
