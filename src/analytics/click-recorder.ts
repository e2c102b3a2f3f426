// The one place every visit is handed to (links, QR tracking addresses, rotators, bio pages).
// The response never waits for it: events queue in memory and are written in batches, with the
// item counters updated once per item per batch, so a hot link does not serialise on its row.
// A clean shutdown flushes everything; a crash loses at most the unflushed queue (≤ one interval).
import { isbot } from 'isbot'
import type { DB } from '../db/database.js'
import { nowTimestamp } from '../db/dialect.js'
import type { NewClick } from '../db/schema.js'

export type ClickItemType = 'link' | 'qr' | 'campaign' | 'bio'

export interface ClickEvent {
  accountId: number
  itemType: ClickItemType
  itemId: number
  ip: string
  userAgent: string | undefined
  referrer: string | undefined
  acceptLanguage: string | undefined
  at?: Date
}

export interface ClickRecorder {
  /** Queues a visit; bots and link-preview fetchers are dropped. Never throws, never waits. */
  record(event: ClickEvent): void
  /** Writes everything queued so far. */
  flush(): Promise<void>
  /** Stops the timer and flushes what is left. */
  close(): Promise<void>
  readonly pending: number
}

export interface ClickRecorderOptions {
  hashVisitor: (ip: string, userAgent: string, day: string) => string
  batchSize?: number
  intervalMs?: number
  /** Beyond this many queued events new ones are dropped (and counted), keeping memory flat. */
  maxQueue?: number
  onError?: (error: unknown) => void
  onDrop?: (dropped: number) => void
}

/** Counter columns the batch keeps in step with the raw clicks. */
const COUNTERS: Partial<Record<ClickItemType, { table: 'links' | 'qr_codes'; column: 'clicks' | 'scans' }>> = {
  link: { table: 'links', column: 'clicks' },
  qr: { table: 'qr_codes', column: 'scans' },
}

function referrerHost(referrer: string | undefined): string | null {
  if (!referrer) return null
  try {
    return new URL(referrer).hostname.toLowerCase().replace(/^www\./, '').slice(0, 255) || null
  } catch {
    return null
  }
}

function primaryLanguage(header: string | undefined): string | null {
  const first = header?.split(',')[0]?.split(';')[0]?.trim().toLowerCase()
  return first && /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/.test(first) ? first.slice(0, 2) : null
}

/**
 * Remembers the last answers of a pure function of one string key, up to `size` of them. Visits
 * repeat user agents and visitors heavily, so this spares the redirect path a large regex (bot
 * check) and a hash per click.
 */
function memoize<T>(compute: (key: string) => T, size: number): (key: string) => T {
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

export function createClickRecorder(db: DB, options: ClickRecorderOptions): ClickRecorder {
  const isBotAgent = memoize(isbot, 2_000)
  const hashVisitor = memoize((key) => {
    // Header values cannot contain a line break, so the key splits back unambiguously.
    const [day, ip, userAgent] = key.split('\n') as [string, string, string]
    return options.hashVisitor(ip, userAgent, day)
  }, 10_000)
  const batchSize = options.batchSize ?? 500
  const maxQueue = options.maxQueue ?? 100_000
  let queue: NewClick[] = []
  let flushing: Promise<void> = Promise.resolve()
  let dropped = 0

  async function writeBatch(batch: NewClick[]): Promise<void> {
    const increments = new Map<string, number>()
    for (const click of batch) {
      const key = `${click.item_type}:${click.item_id}`
      increments.set(key, (increments.get(key) ?? 0) + 1)
    }
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < batch.length; start += batchSize) {
        await trx.insertInto('clicks').values(batch.slice(start, start + batchSize)).execute()
      }
      for (const [key, count] of increments) {
        const [itemType, itemId] = key.split(':') as [ClickItemType, string]
        const counter = COUNTERS[itemType]
        if (!counter) continue
        await trx
          .updateTable(counter.table)
          .set((eb) => ({ [counter.column]: eb(counter.column, '+', count) }) as never)
          .where('id', '=', Number(itemId))
          .execute()
      }
    })
  }

  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      while (queue.length > 0) {
        const batch = queue.slice(0, batchSize * 4)
        try {
          await writeBatch(batch)
          queue = queue.slice(batch.length)
        } catch (error) {
          // Keep the events and try again on the next tick; the database may be back by then.
          options.onError?.(error)
          return
        }
      }
      if (dropped > 0) {
        options.onDrop?.(dropped)
        dropped = 0
      }
    })
    return flushing
  }

  const timer = setInterval(() => void flush(), options.intervalMs ?? 250)
  timer.unref()

  return {
    record(event) {
      if (event.userAgent && isBotAgent(event.userAgent)) return
      if (queue.length >= maxQueue) {
        dropped += 1
        return
      }
      const at = event.at ?? new Date()
      const createdAt = nowTimestamp(at)
      const userAgent = event.userAgent?.slice(0, 512) ?? ''
      queue.push({
        account_id: event.accountId,
        item_type: event.itemType,
        item_id: event.itemId,
        created_at: createdAt,
        referrer_host: referrerHost(event.referrer),
        user_agent: userAgent || null,
        language: primaryLanguage(event.acceptLanguage),
        visitor_hash: hashVisitor(`${createdAt.slice(0, 10)}\n${event.ip}\n${userAgent}`),
        // country, browser, os, device and is_unique keep their column defaults until enrichment
        // fills them: fewer columns make each batch insert cheaper.
      })
      if (queue.length >= batchSize) void flush()
    },
    flush,
    async close() {
      clearInterval(timer)
      await flush()
    },
    get pending() {
      return queue.length
    },
  }
}
