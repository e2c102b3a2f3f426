// `linkwell dev seed-clicks`: synthetic clicks for one item, written the way the recorder writes
// them (raw rows and aggregates in the same transactions), to measure statistics at scale. The
// data is deterministic for an item, spread evenly over the days asked for, with a long tail of
// referrers; uniqueness is drawn (about 60 %), not derived from visitor hashes.
import type { DB } from '../db/database.js'
import { describeUserAgent } from './visitor-parser.js'
import { writeEnrichedClicks, type EnrichedClick } from './click-writer.js'
import { nowTimestamp, dayOf, daysBefore, midnightOf } from '../core/time.js'
import { ITEM_TABLES, type ClickItemType } from './click-items.js'

export interface SeedOptions {
  itemType: ClickItemType
  itemId: number
  count: number
  /** Days the clicks are spread over, ending with `lastDay`. */
  days: number
  /** `YYYY-MM-DD`, UTC */
  lastDay: string
  /** Clicks per transaction. */
  chunk?: number
  onProgress?: (written: number) => void
}

/** Browsers as common traffic shows them (also the benchmark's visitors). */
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
const AGENTS = BROWSER_USER_AGENTS.map(describeUserAgent)
const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'IN', 'BR', 'JP', 'CA', 'NL', 'ES', 'IT', 'PL', 'SE', 'AU', 'MX', 'CH', 'AT', 'BE', 'NG', 'KR', '']
const REFERRERS = ['', 'google.com', 'l.facebook.com', 't.co', 'instagram.com', 'linkedin.com', 'news.ycombinator.com', 'reddit.com', 'bing.com', 'duckduckgo.com', 'mail.google.com', 'x.com', 'lnkd.in']
const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'ja', 'it', 'nl', '']
const TAIL_REFERRERS = 500

/** A small deterministic generator (mulberry32): the same item gets the same clicks. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Picks from a list, the first entries more often (a popularity skew). */
function skewed<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * random() * list.length)]!
}

/** Writes `count` synthetic clicks of the item; answers the first and last day written, or null when there is no such item. */
export async function seedClicks(db: DB, options: SeedOptions): Promise<{ written: number; from: string; to: string } | null> {
  const owner = await db.selectFrom(ITEM_TABLES[options.itemType]).select('account_id').where('id', '=', options.itemId).executeTakeFirst()
  if (!owner) return null
  const random = randomSource(options.itemId * 7919 + options.count)
  const firstMidnight = midnightOf(daysBefore(options.lastDay, options.days - 1))
  const seconds = options.days * 86_400
  const chunk = options.chunk ?? 20_000
  let written = 0

  while (written < options.count) {
    const size = Math.min(chunk, options.count - written)
    const clicks: EnrichedClick[] = []
    for (let index = written; index < written + size; index += 1) {
      // Evenly over the days and in time order, as a live link collects them (and as cheap to index).
      const createdAt = nowTimestamp(new Date(firstMidnight + Math.floor((index * seconds) / options.count) * 1000))
      const agent = skewed(random, AGENTS)
      const country = skewed(random, COUNTRIES)
      const referrer = random() < 0.1 ? `site${Math.floor(random() * TAIL_REFERRERS)}.example` : skewed(random, REFERRERS)
      const language = skewed(random, LANGUAGES)
      clicks.push({
        accountId: owner.account_id,
        itemType: options.itemType,
        itemId: options.itemId,
        createdAt,
        referrerHost: referrer || null,
        language: language || null,
        visitorHash: Math.floor(random() * 2 ** 52).toString(36).padStart(11, '0'),
        country: country || null,
        agent,
        isUnique: random() < 0.6,
      })
    }
    await db.transaction().execute((trx) => writeEnrichedClicks(trx, clicks))
    written += size
    options.onProgress?.(written)
  }
  return { written, from: dayOf(firstMidnight), to: options.lastDay }
}
