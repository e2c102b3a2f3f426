// What the two copiers of the raw clicks share (the DuckDB store, columnar-store.ts, ADR 022; the
// ClickHouse feeder, clickhouse-feeder.ts, ADR 035): reading the main database's clicks in id
// order after a place kept, with the ids skipped over looked for again (on PostgreSQL an id may
// commit after a higher one), and finding the links deleted before a copy was first made.
import type { Selectable } from 'kysely'
import type { DB } from '../db/database.js'
import { tabSeparatedText } from '../db/tab-separated.js'
import type { ClicksTable } from '../db/schema.js'

/** How long a skipped id is looked for again (a transaction still open, or rolled back for good). */
export const GAP_MS = 10 * 60_000
/** At most this many skipped ids are remembered (a larger jump is a sequence moved on, not open transactions). */
export const MAX_GAPS = 10_000

/** The raw click's columns both copies take. */
export const SOURCE_COLUMNS = ['id', 'account_id', 'item_type', 'item_id', 'created_at', 'country', 'referrer_host', 'browser', 'os', 'device', 'language', 'is_unique'] as const
export type SourceClick = Pick<Selectable<ClicksTable>, (typeof SOURCE_COLUMNS)[number]>
/**
 * A click read for ClickHouse's TabSeparated insert (ADR 035): on PostgreSQL the six dimensions and
 * the unique flag come as one text, `tail`, escaped by the database (backslash, tab, line feed and
 * carriage return; PostgreSQL's text holds no NUL), the dimensions' columns left out; on SQLite as
 * a SourceClick, escaped by the feeder.
 */
export type FeedClick = Pick<SourceClick, 'id' | 'account_id' | 'item_type' | 'item_id' | 'created_at'> & ({ tail: string } | SourceClick)

export interface ClickPage<T = SourceClick> {
  /** Clicks of ids that were gaps and have appeared since. */
  found: T[]
  /** Up to `pageSize` clicks after `after`, in id order. */
  page: T[]
  /** The highest id read (`after` when none). */
  last: number
  /** The ids still looked for, each with when it was first missed: the old ones (`GAP_MS`) dropped, the page's skipped ids added. */
  gaps: Map<number, number>
}

/**
 * The clicks of the gaps still looked for (`known`, when each was first missed) and a page after
 * `after`: the ids the page skips over become gaps, unless the jump is bigger than `MAX_GAPS`
 * allows (a table whose old clicks were pruned starts high).
 */
export async function readClicksAfter(db: DB, after: number, known: ReadonlyMap<number, number>, time: number, pageSize: number): Promise<ClickPage> {
  return readPage(db, after, known, time, pageSize, (query) => query.select([...SOURCE_COLUMNS]))
}

/**
 * The same page for ClickHouse's feeder (`FeedClick`): on PostgreSQL each row's dimensions as one
 * text built and escaped by the database, which read a 50,000-click page and made its text in 86
 * ms where twelve columns formatted by the feeder took 210 (ADR 035, "The feeder's page as text").
 */
export async function readFeedClicksAfter(db: DB, after: number, known: ReadonlyMap<number, number>, time: number, pageSize: number): Promise<ClickPage<FeedClick>> {
  const tail = tabSeparatedText(db, ['country', 'referrer_host', 'browser', 'os', 'device', 'language'], 'is_unique')
  if (!tail) return readClicksAfter(db, after, known, time, pageSize)
  return readPage<FeedClick>(db, after, known, time, pageSize, (query) => query.select(['id', 'account_id', 'item_type', 'item_id', 'created_at', tail.as('tail')]))
}

/** A page and the gaps' clicks, `columns` choosing what each row holds (both readers above). */
async function readPage<T extends { id: number | bigint | string }>(db: DB, after: number, known: ReadonlyMap<number, number>, time: number, pageSize: number, columns: (query: any) => any): Promise<ClickPage<T>> {
  const gaps = new Map([...known].filter(([, seen]) => time - seen < GAP_MS))
  const found = gaps.size > 0 ? ((await columns(db.selectFrom('clicks')).where('id', 'in', [...gaps.keys()]).execute()) as T[]) : []
  for (const row of found) gaps.delete(Number(row.id))
  const page = (await columns(db.selectFrom('clicks')).where('id', '>', after).orderBy('id').limit(pageSize).execute()) as T[]
  let last = after
  for (const row of page) {
    const id = Number(row.id)
    if (id - last - 1 <= MAX_GAPS - gaps.size) for (let missing = last + 1; missing < id; missing += 1) gaps.set(missing, time)
    last = id
  }
  return { found, page, last, gaps }
}

/**
 * Before a copy's first click: the link ids up to the highest one used that no link has now but
 * clicks have were deleted, maybe so long ago that the journal no longer tells (`linkwell audit
 * prune`). An id no link and no click has may be a link not committed yet: it is left alone; ids
 * `known` (tombstoned already) are not looked up. One look-up of the item index per id: only once.
 */
export async function linksDeletedBefore(db: DB, known: ReadonlySet<number>): Promise<number[]> {
  const existing = (await db.selectFrom('links').select('id').orderBy('id').execute()).map((row) => Number(row.id))
  const clicked = await db.selectFrom('clicks').select((eb) => eb.fn.max('item_id').as('id')).where('item_type', '=', 'link').executeTakeFirst()
  const highest = Math.max(existing.at(-1) ?? 0, Number(clicked?.id ?? 0))
  const gone: number[] = []
  let next = 1
  for (const id of [...existing, highest + 1]) {
    for (; next < id; next += 1) {
      if (known.has(next)) continue
      const click = await db.selectFrom('clicks').select('id').where('item_type', '=', 'link').where('item_id', '=', next).limit(1).executeTakeFirst()
      if (click) gone.push(next)
    }
    next = id + 1
  }
  return gone
}
