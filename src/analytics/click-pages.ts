// What the two copiers of the raw clicks share (the DuckDB store, columnar-store.ts, ADR 022; the
// ClickHouse feeder, clickhouse-feeder.ts, ADR 035): reading the main database's clicks in id
// order after a place kept, with the ids skipped over looked for again (on PostgreSQL an id may
// commit after a higher one), and finding the links deleted before a copy was first made.
import type { Selectable } from 'kysely'
import type { DB } from '../db/database.js'
import type { ClicksTable } from '../db/schema.js'

/** How long a skipped id is looked for again (a transaction still open, or rolled back for good). */
export const GAP_MS = 10 * 60_000
/** At most this many skipped ids are remembered (a larger jump is a sequence moved on, not open transactions). */
export const MAX_GAPS = 10_000

/** The raw click's columns both copies take. */
export const SOURCE_COLUMNS = ['id', 'account_id', 'item_type', 'item_id', 'created_at', 'country', 'referrer_host', 'browser', 'os', 'device', 'language', 'is_unique'] as const
export type SourceClick = Pick<Selectable<ClicksTable>, (typeof SOURCE_COLUMNS)[number]>

export interface ClickPage {
  /** Clicks of ids that were gaps and have appeared since. */
  found: SourceClick[]
  /** Up to `pageSize` clicks after `after`, in id order. */
  page: SourceClick[]
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
  const gaps = new Map([...known].filter(([, seen]) => time - seen < GAP_MS))
  const found = gaps.size > 0 ? ((await db.selectFrom('clicks').select([...SOURCE_COLUMNS]).where('id', 'in', [...gaps.keys()]).execute()) as SourceClick[]) : []
  for (const row of found) gaps.delete(Number(row.id))
  const page = (await db.selectFrom('clicks').select([...SOURCE_COLUMNS]).where('id', '>', after).orderBy('id').limit(pageSize).execute()) as SourceClick[]
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
