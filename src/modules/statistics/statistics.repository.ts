// Reads of the click aggregates (never of the raw clicks): the cost depends on the number of
// distinct values and days asked for, not on how many clicks an item has.
import type { DB } from '../../db/database.js'
import { ITEM_TABLES, type ClickItemType } from '../../analytics/click-items.js'
import type { ValueDimension } from '../../analytics/click-aggregates.js'

export interface ItemReference {
  itemType: ClickItemType
  itemId: number
}

export interface CountedValue {
  value: string
  clicks: number
}

/** How many of each value an item's statistics show. */
export const TOP_LIMIT = 10

export function createStatisticsRepository(db: DB) {
  const totalsOf = (item: ItemReference) => db.selectFrom('click_totals').where('item_type', '=', item.itemType).where('item_id', '=', item.itemId)
  const daysOf = (item: ItemReference, from: string, to: string) =>
    db.selectFrom('click_days').where('item_type', '=', item.itemType).where('item_id', '=', item.itemId).where('day', '>=', from).where('day', '<=', to)

  return {
    /** All-time counters of the dimensions that have a fixed, small set of values (clicks, unique, social). */
    async totalsOfFixedDimensions(item: ItemReference): Promise<Array<CountedValue & { dimension: string }>> {
      return totalsOf(item).select(['dimension', 'value', 'clicks']).where('dimension', 'in', ['clicks', 'unique', 'social']).execute()
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

    /** True when the account owns the item (another account's item is simply not found). */
    async ownsItem(accountId: number, item: ItemReference): Promise<boolean> {
      const row = await db.selectFrom(ITEM_TABLES[item.itemType]).select('id').where('account_id', '=', accountId).where('id', '=', item.itemId).executeTakeFirst()
      return row !== undefined
    },
  }
}

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>
