// Writes a batch of queued visits: enriches them (country, browser, OS, device), decides which
// are the first of their visitor for the item that day, inserts the raw clicks and adds them to
// the aggregates, all in one transaction: a batch is counted whole or (to be retried) not at all.
import type { DB } from '../db/database.js'
import type { NewClick } from '../db/schema.js'
import { applyIncrements, incrementsOf, type CountedClick } from './click-aggregates.js'
import { pruneVisitorDays } from './click-retention.js'
import { describeUserAgent, socialNetworkOf, type AgentDescription } from './click-enrichment.js'
import type { ClickItemType } from './click-recorder.js'
import { loadCountryLookup } from './geo.js'

/** A visit as it waits in the queue: what the request told, nothing derived yet. */
export interface PendingClick {
  accountId: number
  itemType: ClickItemType
  itemId: number
  /** `YYYY-MM-DD HH:MM:SS`, UTC */
  createdAt: string
  /** Held in memory until the batch is written; never stored. */
  ip: string
  userAgent: string
  referrerHost: string | null
  language: string | null
}

export interface ClickWriterOptions {
  hashVisitor: (ip: string, userAgent: string, day: string) => string
}

/**
 * Remembers the last answers of a pure function of one string key, up to `size` of them. Visits
 * repeat user agents and visitors heavily, so this spares a parse or a hash per click.
 */
export function memoize<T>(compute: (key: string) => T, size: number): (key: string) => T {
  let cache = new Map<string, T>()
  return (key) => {
    const known = cache.get(key)
    if (known !== undefined || cache.has(key)) return known as T
    const value = compute(key)
    if (cache.size >= size) cache = new Map()
    cache.set(key, value)
    return value
  }
}

const INSERT_CHUNK = 500

/** Builds the function that writes one batch; it throws when the database refuses (nothing written). */
export function createClickWriter(db: DB, options: ClickWriterOptions): (batch: PendingClick[]) => Promise<void> {
  const describe = memoize<AgentDescription>(describeUserAgent, 2_000)
  const hashVisitor = memoize((key) => {
    // Header values cannot contain a line break, so the key splits back unambiguously.
    const [day, ip, userAgent] = key.split('\n') as [string, string, string]
    return options.hashVisitor(ip, userAgent, day)
  }, 10_000)
  const countryLookup = loadCountryLookup()
  let visitorsPrunedFor = ''

  /** Visitor rows of days no click can still belong to are dropped, once per day per process. */
  async function pruneVisitors(today: string): Promise<void> {
    if (visitorsPrunedFor === today) return
    await pruneVisitorDays(db, today)
    visitorsPrunedFor = today
  }

  return async function writeClicks(batch) {
    const countryOf = await countryLookup
    const rows: NewClick[] = []
    const counted: CountedClick[] = []
    const visitorKeys: string[] = []
    for (const click of batch) {
      const day = click.createdAt.slice(0, 10)
      const agent = describe(click.userAgent)
      const country = countryOf(click.ip)
      const visitorHash = hashVisitor(`${day}\n${click.ip}\n${click.userAgent}`)
      visitorKeys.push(`${day}\n${click.itemType}\n${click.itemId}\n${visitorHash}`)
      rows.push({
        account_id: click.accountId,
        item_type: click.itemType,
        item_id: click.itemId,
        created_at: click.createdAt,
        referrer_host: click.referrerHost,
        user_agent: click.userAgent.slice(0, 512),
        language: click.language,
        visitor_hash: visitorHash,
        country,
        browser: agent.browser || null,
        os: agent.os || null,
        device: agent.device || null,
        is_unique: 0,
      })
      counted.push({
        itemType: click.itemType,
        itemId: click.itemId,
        day,
        isUnique: false,
        country: country ?? '',
        referrer: click.referrerHost ?? '',
        browser: agent.browser,
        os: agent.os,
        device: agent.device,
        language: click.language ?? '',
        social: socialNetworkOf(click.referrerHost) ?? '',
      })
    }

    await db.transaction().execute(async (trx) => {
      // The visitors this batch is the first to see (per item and day); sorted: one lock order.
      const candidates = [...new Set(visitorKeys)].sort().map((key) => {
        const [day, itemType, itemId, visitorHash] = key.split('\n') as [string, string, string, string]
        return { day, item_type: itemType, item_id: Number(itemId), visitor_hash: visitorHash }
      })
      const firstSeen = new Set<string>()
      for (let start = 0; start < candidates.length; start += INSERT_CHUNK) {
        const inserted = await trx
          .insertInto('click_visitors')
          .values(candidates.slice(start, start + INSERT_CHUNK))
          .onConflict((conflict) => conflict.doNothing())
          .returning(['day', 'item_type', 'item_id', 'visitor_hash'])
          .execute()
        for (const row of inserted) firstSeen.add(`${row.day}\n${row.item_type}\n${row.item_id}\n${row.visitor_hash}`)
      }
      // The earliest click of a first-seen visitor is the unique one.
      visitorKeys.forEach((key, index) => {
        if (!firstSeen.delete(key)) return
        rows[index]!.is_unique = 1
        counted[index]!.isUnique = true
      })
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        await trx.insertInto('clicks').values(rows.slice(start, start + INSERT_CHUNK)).execute()
      }
      await applyIncrements(trx, incrementsOf(counted))
    })
    // The batch is committed: a failed clean-up must not make the caller write it again.
    const today = batch[batch.length - 1]?.createdAt.slice(0, 10)
    if (today) await pruneVisitors(today).catch(() => undefined)
  }
}
