// `linkwell dev seed-clicks`: synthetic clicks for one item or for many links of one account (the
// workspace-wide mode), written the way the recorder writes them (raw rows and aggregates in the
// same transactions), to measure statistics at scale. Spread like real traffic (click-distribution.ts:
// Zipf over 200 countries and 500 referrers, 30 browsers, 3 devices), evenly over the days asked
// for and in time order; across links Zipf-distributed too. Deterministic for the same arguments;
// uniqueness is drawn (about 60 %), not derived from visitor hashes.
import type { DB } from '../db/database.js'
import type { CountedClick } from './click-aggregates.js'
import { describedClick, writeDescribedClicks, type ClickInsertRow } from './click-writer.js'
import { nowTimestamp, dayOf, daysBefore, midnightOf } from '../core/time.js'
import { ITEM_TABLES, type ClickItemType } from './click-items.js'
import { createVisitSource, zipfSampler } from './click-distribution.js'

export { randomSource } from './click-distribution.js'

interface SpreadOptions {
  count: number
  /** Days the clicks are spread over, ending with `lastDay`. */
  days: number
  /** `YYYY-MM-DD`, UTC */
  lastDay: string
  /** Clicks per transaction. */
  chunk?: number
  onProgress?: (written: number) => void
}

export interface SeedOptions extends SpreadOptions {
  itemType: ClickItemType
  itemId: number
}

export interface WorkspaceSeedOptions extends SpreadOptions {
  accountId: number
  /** Links the clicks are spread over: the account's first N links, created (`seed-1`, …) where it has fewer. */
  links: number
}

/** Browsers as common traffic shows them (the benchmark's visitors). */
export const BROWSER_USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
]

/** One chunk of synthetic clicks: raw rows and the same clicks as the aggregates count them. */
export interface SyntheticChunk {
  rows: ClickInsertRow[]
  counted: CountedClick[]
}

/**
 * Synthetic clicks of `items` (Zipf across them, the first the most clicked), `count` in all,
 * evenly over the days and in time order, in chunks of `chunk`.
 */
export function* syntheticClicks(
  items: ReadonlyArray<{ accountId: number; itemType: ClickItemType; itemId: number }>,
  options: { count: number; days: number; lastDay: string; chunk?: number; seed: number },
): Generator<SyntheticChunk> {
  const visits = createVisitSource(options.seed)
  const itemOf = zipfSampler(items.length)
  const firstMidnight = midnightOf(daysBefore(options.lastDay, options.days - 1))
  const seconds = options.days * 86_400
  const chunk = options.chunk ?? 20_000
  for (let written = 0; written < options.count; written += chunk) {
    const size = Math.min(chunk, options.count - written)
    const rows: ClickInsertRow[] = []
    const counted: CountedClick[] = []
    for (let index = written; index < written + size; index += 1) {
      // Evenly over the days and in time order, as live links collect them (and as cheap to index).
      const createdAt = nowTimestamp(new Date(firstMidnight + Math.floor((index * seconds) / options.count) * 1000))
      const item = items.length === 1 ? items[0]! : items[itemOf(visits.random)]!
      const visit = visits.next()
      const { row, count } = describedClick({
        accountId: item.accountId,
        itemType: item.itemType,
        itemId: item.itemId,
        createdAt,
        referrerHost: visit.referrer || null,
        language: visit.language || null,
        visitorHash: Math.floor(visits.random() * 2 ** 52).toString(36).padStart(11, '0'),
        country: visit.country || null,
        agent: visit.agent,
        isUnique: visits.random() < 0.6,
      })
      rows.push(row)
      counted.push(count)
    }
    yield { rows, counted }
  }
}

async function writeChunks(db: DB, chunks: Iterable<SyntheticChunk>, onProgress?: (written: number) => void): Promise<number> {
  let written = 0
  for (const { rows, counted } of chunks) {
    await db.transaction().execute((trx) => writeDescribedClicks(trx, rows, counted))
    written += rows.length
    onProgress?.(written)
  }
  return written
}

const rangeOf = (options: SpreadOptions) => ({ from: dayOf(midnightOf(daysBefore(options.lastDay, options.days - 1))), to: options.lastDay })

/** Writes `count` synthetic clicks of the item; answers the first and last day written, or null when there is no such item. */
export async function seedClicks(db: DB, options: SeedOptions): Promise<{ written: number; from: string; to: string } | null> {
  const owner = await db.selectFrom(ITEM_TABLES[options.itemType]).select('account_id').where('id', '=', options.itemId).executeTakeFirst()
  if (!owner) return null
  const items = [{ accountId: owner.account_id, itemType: options.itemType, itemId: options.itemId }]
  const written = await writeChunks(db, syntheticClicks(items, { ...options, seed: options.itemId * 7919 + options.count }), options.onProgress)
  return { written, ...rangeOf(options) }
}

/**
 * The account's first `links` links (by id), creating `seed-N` links (to https://example.com/N)
 * for what is missing; written directly, as a test database's fixture (no journal, no events).
 */
export async function seedLinks(db: DB, accountId: number, links: number): Promise<number[]> {
  const ids = (await db.selectFrom('links').select('id').where('account_id', '=', accountId).orderBy('id').limit(links).execute()).map((row) => row.id)
  const now = nowTimestamp()
  for (let start = ids.length; start < links; start += 500) {
    const values = Array.from({ length: Math.min(500, links - start) }, (_, offset) => ({
      account_id: accountId, domain_id: null, host: '', alias: `seed-${accountId}-${start + offset + 1}`, url: `https://example.com/${start + offset + 1}`,
      title: null, description: null, password_hash: null, expires_at: null, type: 'direct', splash_id: null, overlay_id: null, campaign_id: null,
      targeting: '{}', clicks: 0, unique_clicks: 0, created_at: now, updated_at: now,
    }))
    for (const row of await db.insertInto('links').values(values).returning('id').execute()) ids.push(row.id)
  }
  return ids
}

/** Writes `count` synthetic clicks over the account's first `links` links; null when there is no such account. */
export async function seedWorkspaceClicks(db: DB, options: WorkspaceSeedOptions): Promise<{ written: number; links: number; from: string; to: string } | null> {
  const account = await db.selectFrom('accounts').select('id').where('id', '=', options.accountId).executeTakeFirst()
  if (!account) return null
  const ids = await seedLinks(db, options.accountId, options.links)
  const items = ids.map((itemId) => ({ accountId: options.accountId, itemType: 'link' as const, itemId }))
  const written = await writeChunks(db, syntheticClicks(items, { ...options, seed: options.accountId * 104_729 + options.count }), options.onProgress)
  return { written, links: ids.length, ...rangeOf(options) }
}
