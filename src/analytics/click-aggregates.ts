// The counters statistics are read from: per item, day, dimension and value (click_days) and per
// item, dimension and value (click_totals), plus the items' own counters shown in lists. A batch
// of clicks is reduced to one increment per counter before it touches the database, so a hot
// item costs one row update per batch, not one per click; rows are written in key order so that
// instances writing the same counters at once cannot deadlock (PostgreSQL).
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely'
import { createBulkInsert } from '../db/bulk-insert.js'
import { prepareStatement } from '../db/prepared-query.js'
import type { Database } from '../db/schema.js'
import type { ClickItemType } from './click-items.js'
import { SOCIAL_NETWORKS } from './visitor-reading.js'

/** A click as the aggregates see it: '' for what is unknown. */
export interface CountedClick {
  itemType: ClickItemType
  itemId: number
  /** `YYYY-MM-DD`, UTC */
  day: string
  isUnique: boolean
  country: string
  referrer: string
  browser: string
  os: string
  device: string
  language: string
  /** facebook | twitter | instagram | linkedin | '' */
  social: string
  /** The split-test variant's position as text; '' for a link without one. */
  variant: string
}

/** Dimensions counted by value; `clicks` and `unique` are counted with the value ''. */
export const VALUE_DIMENSIONS = ['country', 'referrer', 'browser', 'os', 'device', 'language'] as const
export type ValueDimension = (typeof VALUE_DIMENSIONS)[number]

// Keys join their parts with a character no stored value contains.
const SEPARATOR = '\u0000'

const CLICKS_KEY = `clicks${SEPARATOR}`
const UNIQUE_KEY = `unique${SEPARATOR}`

/** Clicks and unique clicks of one item. */
export interface ItemCounts {
  clicks: number
  unique: number
}

export interface AggregateIncrements {
  /** item_type, item_id, day, dimension, value → count */
  days: Map<string, number>
  /** item_type, item_id, dimension, value → count */
  totals: Map<string, number>
  /** item_type, item_id → clicks and unique clicks */
  items: Map<string, ItemCounts>
}

function increment(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by)
}

/** One item's clicks of one day: its counts, then per dimension the count of each value. */
interface ItemDayCounts {
  item: string
  clicks: number
  unique: number
  values: Map<string, number>[]
}

const COUNTED_DIMENSIONS = [...VALUE_DIMENSIONS, 'social', 'variant'] as const

/** Reduces clicks to increments: one per counter, however many clicks share it. */
export function incrementsOf(clicks: Iterable<CountedClick>): AggregateIncrements {
  // Counted per item and day, and per dimension by the value itself (no key is built per click:
  // the values are mostly the same strings, whose hashes V8 keeps), then spread into the day and
  // total counters: a hot path for every batch of clicks and for seeding.
  const byItemDay = new Map<string, ItemDayCounts>()
  const items = new Map<string, ItemCounts>()
  let last: ItemDayCounts | undefined
  let lastItemType = ''
  let lastItemId = -1
  let lastDay = ''
  for (const click of clicks) {
    let entry = last
    // Clicks of one batch mostly share their item and day: the entry is looked up on a change.
    if (!entry || click.itemId !== lastItemId || click.itemType !== lastItemType || click.day !== lastDay) {
      const item = `${click.itemType}${SEPARATOR}${click.itemId}`
      const itemDay = `${item}${SEPARATOR}${click.day}`
      entry = byItemDay.get(itemDay)
      if (!entry) byItemDay.set(itemDay, (entry = { item, clicks: 0, unique: 0, values: COUNTED_DIMENSIONS.map(() => new Map()) }))
      last = entry
      lastItemType = click.itemType
      lastItemId = click.itemId
      lastDay = click.day
    }
    entry.clicks += 1
    if (click.isUnique) entry.unique += 1
    const values = entry.values
    increment(values[0]!, click.country)
    increment(values[1]!, click.referrer)
    increment(values[2]!, click.browser)
    increment(values[3]!, click.os)
    increment(values[4]!, click.device)
    increment(values[5]!, click.language)
    if (click.social) increment(values[6]!, click.social)
    if (click.variant) increment(values[7]!, click.variant)
  }
  const increments: AggregateIncrements = { days: new Map(), totals: new Map(), items }
  for (const [itemDay, { item, clicks: clickCount, unique, values }] of byItemDay) {
    const counter = items.get(item) ?? { clicks: 0, unique: 0 }
    counter.clicks += clickCount
    counter.unique += unique
    items.set(item, counter)
    const counts: [string, number][] = [[CLICKS_KEY, clickCount]]
    if (unique > 0) counts.push([UNIQUE_KEY, unique])
    COUNTED_DIMENSIONS.forEach((dimension, index) => {
      for (const [value, count] of values[index]!) counts.push([`${dimension}${SEPARATOR}${value}`, count])
    })
    for (const [dimensionValue, count] of counts) {
      increments.days.set(`${itemDay}${SEPARATOR}${dimensionValue}`, count)
      increment(increments.totals, `${item}${SEPARATOR}${dimensionValue}`, count)
    }
  }
  return increments
}

/** Map entries sorted by key: the same lock order in every writer. */
function sortedEntries<T>(map: Map<string, T>): [string[], T][] {
  return [...map.keys()].sort().map((key) => [key.split(SEPARATOR), map.get(key)!])
}

const DAY_COLUMNS = ['item_type', 'item_id', 'day', 'dimension', 'value'] as const
const TOTAL_COLUMNS = ['item_type', 'item_id', 'dimension', 'value'] as const
const KEY_TYPES = { item_type: 'text', item_id: 'integer', day: 'text', dimension: 'text', value: 'text' } as const

const addToDays = createBulkInsert('click_days', [...DAY_COLUMNS, 'clicks'], {
  postgresTypes: { ...KEY_TYPES, clicks: 'bigint' },
  onConflict: { keys: DAY_COLUMNS, add: 'clicks' },
})
const addToTotals = createBulkInsert('click_totals', [...TOTAL_COLUMNS, 'clicks'], {
  postgresTypes: { ...KEY_TYPES, clicks: 'bigint' },
  onConflict: { keys: TOTAL_COLUMNS, add: 'clicks' },
})

type CounterValues = { id: number; clicks: number; unique: number }

/** What a batch left in links' counters: each link's clicks now, and how many the batch added (click caps). */
export type LinkCounters = Map<number, { clicks: number; added: number }>

// The item rows whose counters lists show and sort by, one typed update per kind of item (a
// misspelt column fails to compile rather than making the database refuse every batch), each
// compiled once: it runs for every clicked item of every batch.
const ITEM_COUNTER_UPDATES: Partial<Record<ClickItemType, (trx: Kysely<Database>, values: CounterValues) => Promise<unknown>>> = {
  // The link's count afterwards comes back with it: capped links are checked against it (no read more).
  link: prepareStatement((db, values: CounterValues) =>
    db.updateTable('links').set((eb) => ({ clicks: eb('clicks', '+', values.clicks), unique_clicks: eb('unique_clicks', '+', values.unique) })).where('id', '=', values.id).returning('clicks')),
  qr: prepareStatement((db, values: CounterValues) => db.updateTable('qr_codes').set((eb) => ({ scans: eb('scans', '+', values.clicks) })).where('id', '=', values.id)),
  campaign: prepareStatement((db, values: CounterValues) => db.updateTable('campaigns').set((eb) => ({ views: eb('views', '+', values.clicks) })).where('id', '=', values.id)),
}

/**
 * Adds the increments to the counters, inside the transaction that writes the raw clicks; answers
 * the links' counters as the batch left them.
 */
export async function applyIncrements(trx: Transaction<Database>, increments: AggregateIncrements): Promise<LinkCounters> {
  await addToDays(trx, sortedEntries(increments.days).map(([[itemType, itemId, day, dimension, value], clicks]) => ({
    item_type: itemType!, item_id: Number(itemId), day: day!, dimension: dimension!, value: value!, clicks,
  })))
  await addToTotals(trx, sortedEntries(increments.totals).map(([[itemType, itemId, dimension, value], clicks]) => ({
    item_type: itemType!, item_id: Number(itemId), dimension: dimension!, value: value!, clicks,
  })))
  const links: LinkCounters = new Map()
  for (const [[itemType, itemId], counts] of sortedEntries(increments.items)) {
    const id = Number(itemId)
    const rows = await ITEM_COUNTER_UPDATES[itemType as ClickItemType]?.(trx, { id, clicks: counts.clicks, unique: counts.unique })
    if (itemType === 'link') {
      const row = (rows as Array<{ clicks: number | string }> | undefined)?.[0]
      if (row) links.set(id, { clicks: Number(row.clicks), added: counts.clicks })
    }
  }
  return links
}

/** The social network of `referrer_host` in SQL, from the same list `socialNetworkOf` reads (decisions §7); null for none. */
const SOCIAL_SQL = sql<string | null>`case ${sql.join(Object.entries(SOCIAL_NETWORKS).flatMap(([network, domains]) =>
  domains.map((domain) => sql`when referrer_host = ${sql.lit(domain)} or referrer_host like ${sql.lit(`%.${domain}`)} then ${sql.lit(network)}`)), sql` `)} end`

/**
 * Each counted dimension of a raw click row as `describedClick` counts it (unknown is '', social
 * only when there is one); rows carry no split-test variant, so clicks counted this way have none.
 */
const ROW_DIMENSIONS: ReadonlyArray<{ dimension: string; value: RawBuilder<string | null>; only?: RawBuilder<boolean> }> = [
  { dimension: 'clicks', value: sql<string>`''` },
  { dimension: 'unique', value: sql<string>`''`, only: sql<boolean>`is_unique = 1` },
  { dimension: 'country', value: sql<string>`coalesce(country, '')` },
  { dimension: 'referrer', value: sql<string>`coalesce(referrer_host, '')` },
  { dimension: 'browser', value: sql<string>`coalesce(browser, '')` },
  { dimension: 'os', value: sql<string>`coalesce(os, '')` },
  { dimension: 'device', value: sql<string>`coalesce(device, '')` },
  { dimension: 'language', value: sql<string>`coalesce(language, '')` },
  { dimension: 'social', value: SOCIAL_SQL, only: sql<boolean>`${SOCIAL_SQL} is not null` },
]

/**
 * Adds raw link clicks already inserted on `trx` (`writeImportedClicks`: only link clicks carry a marker) to the aggregates, counted by the database from
 * the rows themselves: the clicks with ids from `ids.first` to `ids.last` whose visitor hash is
 * `marker` (one writer's own, so clicks others insert meanwhile in that range are not counted).
 * The same counters `applyIncrements(trx, incrementsOf(…))` adds for those clicks (a test compares
 * them), without a counter a click passing through JavaScript: imports write millions of clicks of
 * thinly spread histories, where nearly every click is its own (link, day) row in every dimension.
 * Rows are grouped in key order, the lock order of every writer (PostgreSQL).
 */
export async function addClickRowsToAggregates(trx: Transaction<Database>, ids: { first: number; last: number }, marker: string): Promise<void> {
  // By id range alone (the primary key): with `item_type = 'link'` SQLite walks clicks_item_idx over
  // every link click, each page slower than the one before. Marked rows are link clicks only.
  const chosen = sql`id >= ${ids.first} and id <= ${ids.last} and visitor_hash = ${marker}`
  const day = sql<string>`substr(created_at, 1, 10)`
  for (const { dimension, value, only } of ROW_DIMENSIONS) {
    const where = only ? sql`${chosen} and ${only}` : chosen
    // A constant value ('') is no grouping key (PostgreSQL refuses to order by a constant).
    const byValue = dimension === 'clicks' || dimension === 'unique' ? sql`` : sql`, ${value}`
    await sql`insert into click_days (item_type, item_id, day, dimension, value, clicks)
      select item_type, item_id, ${day}, ${sql.lit(dimension)}, ${value}, count(*) from clicks where ${where}
      group by item_type, item_id, ${day}${byValue} order by item_type, item_id, ${day}${byValue}
      on conflict (item_type, item_id, day, dimension, value) do update set clicks = click_days.clicks + excluded.clicks`.execute(trx)
    await sql`insert into click_totals (item_type, item_id, dimension, value, clicks)
      select item_type, item_id, ${sql.lit(dimension)}, ${value}, count(*) from clicks where ${where}
      group by item_type, item_id${byValue} order by item_type, item_id${byValue}
      on conflict (item_type, item_id, dimension, value) do update set clicks = click_totals.clicks + excluded.clicks`.execute(trx)
  }
  await sql`update links set clicks = links.clicks + counted.clicks, unique_clicks = links.unique_clicks + counted.unique_clicks
    from (select item_id, count(*) as clicks, sum(is_unique) as unique_clicks from clicks where ${chosen} group by item_id order by item_id) as counted
    where links.id = counted.item_id`.execute(trx)
}
