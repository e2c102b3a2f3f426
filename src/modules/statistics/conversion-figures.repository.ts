// SQL over leads and sales for statistics (issue 39, ADR 034 "Statistics with conversions"; reads
// only: the tables are written by modules/conversions). Conversions are few beside clicks, so every
// statistics engine (raw clicks, DuckDB, ClickHouse) takes them from the main database: one grouped
// query per window for the slots, one for the links. A conversion counts at its own time
// (`created_at`, index `(account_id, created_at)` of migration 036); link, campaign, channel and tag
// filters apply to its link; dimension filters to the click it is attributed to (`clicks.click_id`).
// QR codes, bio pages and rotators record no click ids: their conversions are none.
import { sql, type Expression, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import { nowTimestamp } from '../../core/time.js'
import type { ClickFilters } from './click-query-params.js'
import { dimensionConditions, hasDimensionFilter, linkSelectsOf, type ClickScope, type UtcWindow } from './raw-click.repository.js'

const HOUR_MS = 3_600_000
const QUARTER_MS = HOUR_MS / 4

/** Net minor units per currency (`{"EUR": 4900}`); refunds subtracted. */
export type Revenue = Record<string, number>

/** Leads, sales (with a positive amount) and net revenue: of a slot, a link, a window. */
export interface ConversionCounts {
  leads: number
  sales: number
  revenue: Revenue
}

/** Conversions of one UTC slot (an hour, or a quarter hour). */
export interface ConversionSlot extends ConversionCounts {
  start: number
}

/** A link's conversions in a window. */
export interface LinkConversions extends ConversionCounts {
  id: number
}

/** Seconds from a click to the first lead and to the first sale of it, one entry per click. */
export interface ConversionDelays {
  toLead: number[]
  toSale: number[]
}

type Kind = 'lead' | 'sale'
/** A grouped row of leads (kind `lead`) or sales of one currency. */
interface CountedRow {
  kind: Kind
  currency: string
  n: number | string
  positive: number | string
  amount: number | string | null
}
const TABLES: Record<Kind, 'leads' | 'sales'> = { lead: 'leads', sale: 'sales' }

/** Zero counts. */
export function noConversions(): ConversionCounts {
  return { leads: 0, sales: 0, revenue: {} }
}

/** Adds `more` into `into` (revenue per currency). */
export function addConversions(into: ConversionCounts, more: ConversionCounts): ConversionCounts {
  into.leads += more.leads
  into.sales += more.sales
  for (const [currency, amount] of Object.entries(more.revenue)) into.revenue[currency] = (into.revenue[currency] ?? 0) + amount
  return into
}

/** Whether a scope can have conversions: the workspace's links, or one link (QR codes, bio pages and rotators make no click ids). */
export function hasConversions(scope: ClickScope): boolean {
  return 'accountId' in scope || scope.itemType === 'link'
}

const seconds = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`) / 1000

/** What a revenue report groups links by. */
export const GROUPINGS = ['link', 'campaign', 'channel', 'tag'] as const
export type Grouping = Exclude<(typeof GROUPINGS)[number], 'link'>

export function createConversionFiguresRepository(db: DB) {
  /** The rows of `kind` of the scope in the window under the filters, as one select of the given columns. */
  function rowsOf(kind: Kind, accountId: number, scope: ClickScope, window: UtcWindow, filters: ClickFilters) {
    const table = TABLES[kind]
    const column = (name: string) => sql.ref(`${table}.${name}`)
    const conditions: Array<Expression<SqlBool>> = []
    // (A query builder inside sql`` is written in parentheses already.)
    if ('accountId' in scope) {
      // The workspace's existing links, as its clicks are counted (a deleted link's conversions are not its figures).
      conditions.push(sql<SqlBool>`${column('link_id')} in ${db.selectFrom('links').select('links.id').where('links.account_id', '=', accountId)}`)
      if (filters.link) conditions.push(sql<SqlBool>`${column('link_id')} in (${sql.join(filters.link)})`)
      for (const links of linkSelectsOf(db, accountId, filters)) conditions.push(sql<SqlBool>`${column('link_id')} in ${links}`)
    } else {
      conditions.push(sql<SqlBool>`${column('link_id')} = ${scope.itemId}`)
    }
    if (hasDimensionFilter(filters)) {
      const click = db.selectFrom('clicks').select(sql`1`.as('one'))
        .where('clicks.account_id', '=', accountId)
        .where(sql<SqlBool>`clicks.click_id = ${column('click_id')}`)
        .where((eb) => dimensionConditions(eb, filters))
      conditions.push(sql<SqlBool>`exists ${click}`)
    }
    const amount = kind === 'sale' ? column('amount') : sql`0`
    const currency = kind === 'sale' ? column('currency') : sql`''`
    return db.selectFrom(table)
      .select([
        sql<Kind>`${kind}`.as('kind'),
        sql<string>`${column('created_at')}`.as('created_at'),
        sql<number>`${column('link_id')}`.as('link_id'),
        sql<string | null>`${column('click_id')}`.as('click_id'),
        sql<string | null>`${column('clicked_at')}`.as('clicked_at'),
        sql<string>`${currency}`.as('currency'),
        sql<number>`${amount}`.as('amount'),
      ])
      .where(sql<SqlBool>`${column('account_id')} = ${accountId}`)
      .where(sql<SqlBool>`${column('created_at')} >= ${nowTimestamp(new Date(window.start))}`)
      .where(sql<SqlBool>`${column('created_at')} < ${nowTimestamp(new Date(window.end))}`)
      .where((eb) => eb.and(conditions))
  }

  /** Leads and sales of the window together (UNION ALL), for one grouped query over both. */
  function conversionsOf(accountId: number, scope: ClickScope, window: UtcWindow, filters: ClickFilters) {
    return db.selectFrom(rowsOf('lead', accountId, scope, window, filters).unionAll(rowsOf('sale', accountId, scope, window, filters)).as('conversions'))
  }

  /** Counts of grouped rows (one per kind and currency, and whatever else they are grouped by) into one `ConversionCounts` per key. */
  function countsByKey<R extends CountedRow, K>(rows: R[], keyOf: (row: R) => K): Map<K, ConversionCounts> {
    const counts = new Map<K, ConversionCounts>()
    for (const row of rows) {
      const key = keyOf(row)
      let entry = counts.get(key)
      if (!entry) counts.set(key, (entry = noConversions()))
      if (row.kind === 'lead') entry.leads += Number(row.n)
      else {
        entry.sales += Number(row.positive)
        entry.revenue[row.currency] = (entry.revenue[row.currency] ?? 0) + Number(row.amount ?? 0)
      }
    }
    return counts
  }

  const aggregates = [
    sql<number | string>`count(*)`.as('n'),
    sql<number | string>`sum(case when conversions.amount > 0 then 1 else 0 end)`.as('positive'),
    sql<number | string | null>`sum(conversions.amount)`.as('amount'),
  ]

  return {
    /**
     * The campaigns, channels or tags of the workspace's links among `linkIds`: one row per link and
     * group (a link is in one campaign at most, in any number of channels and tags).
     */
    async groupsOf(accountId: number, by: Grouping, linkIds: readonly number[]): Promise<Array<{ linkId: number; id: number; name: string }>> {
      if (linkIds.length === 0) return []
      const ids = [...linkIds]
      if (by === 'campaign') {
        return db.selectFrom('links').innerJoin('campaigns', 'campaigns.id', 'links.campaign_id')
          .select(['links.id as linkId', 'campaigns.id as id', 'campaigns.name as name'])
          .where('links.account_id', '=', accountId).where('campaigns.account_id', '=', accountId).where('links.id', 'in', ids).execute()
      }
      if (by === 'channel') {
        return db.selectFrom('channel_items').innerJoin('channels', 'channels.id', 'channel_items.channel_id')
          .select(['channel_items.item_id as linkId', 'channels.id as id', 'channels.name as name'])
          .where('channel_items.account_id', '=', accountId).where('channel_items.item_type', '=', 'links').where('channel_items.item_id', 'in', ids).execute()
      }
      return db.selectFrom('link_tags').innerJoin('tags', 'tags.id', 'link_tags.tag_id')
        .select(['link_tags.link_id as linkId', 'tags.id as id', 'tags.name as name'])
        .where('tags.account_id', '=', accountId).where('link_tags.link_id', 'in', ids).execute()
    },

    /** Leads, sales and revenue per UTC slot of the window (hours, or quarter hours when `quarters`): one query. */
    async slots(accountId: number, scope: ClickScope, window: UtcWindow, filters: ClickFilters, quarters: boolean): Promise<ConversionSlot[]> {
      if (!hasConversions(scope)) return []
      const hour = sql<string>`substr(conversions.created_at, 1, 13)`
      const quarter = quarters ? sql<number>`cast(substr(conversions.created_at, 15, 2) as integer) / 15` : sql<number>`0`
      // A constant is no GROUP BY term (it would read as a column's position): hours alone unless quarters.
      const rows = await conversionsOf(accountId, scope, window, filters)
        .select([hour.as('hour'), quarter.as('quarter'), 'conversions.kind', 'conversions.currency', ...aggregates])
        .groupBy(quarters ? [hour, quarter, 'conversions.kind', 'conversions.currency'] : [hour, 'conversions.kind', 'conversions.currency'])
        .execute()
      const counts = countsByKey(rows, (row) => Date.parse(`${row.hour}:00:00Z`) + Number(row.quarter) * QUARTER_MS)
      return [...counts].map(([start, figures]) => ({ start, ...figures }))
    },

    /** The workspace's links with conversions in the window under the filters (all, or those of `only`): one query. */
    async links(accountId: number, window: UtcWindow, filters: ClickFilters, only?: readonly number[]): Promise<LinkConversions[]> {
      if (only && only.length === 0) return []
      let query = conversionsOf(accountId, { accountId }, window, filters)
        .select(['conversions.link_id', 'conversions.kind', 'conversions.currency', ...aggregates])
        .groupBy(['conversions.link_id', 'conversions.kind', 'conversions.currency'])
      if (only) query = query.where('conversions.link_id', 'in', [...only])
      const counts = countsByKey(await query.execute(), (row) => Number(row.link_id))
      return [...counts].map(([id, figures]) => ({ id, ...figures }))
    },

    /**
     * Seconds from each click to its first lead and to its first sale (a positive amount) among the
     * window's conversions under the filters, one entry per click: one query, grouped by click.
     */
    async delays(accountId: number, scope: ClickScope, window: UtcWindow, filters: ClickFilters): Promise<ConversionDelays> {
      if (!hasConversions(scope)) return { toLead: [], toSale: [] }
      const rows = await conversionsOf(accountId, scope, window, filters)
        .select(['conversions.kind', 'conversions.click_id', 'conversions.clicked_at', sql<string>`min(conversions.created_at)`.as('first')])
        .where('conversions.click_id', 'is not', null)
        .where('conversions.clicked_at', 'is not', null)
        .where((eb) => eb.or([eb('conversions.kind', '=', 'lead'), eb('conversions.amount', '>', 0)]))
        .groupBy(['conversions.kind', 'conversions.click_id', 'conversions.clicked_at'])
        .execute()
      const delays: ConversionDelays = { toLead: [], toSale: [] }
      for (const row of rows) (row.kind === 'lead' ? delays.toLead : delays.toSale).push(Math.max(0, seconds(row.first) - seconds(row.clicked_at!)))
      return delays
    },
  }
}

export type ConversionFiguresRepository = ReturnType<typeof createConversionFiguresRepository>
