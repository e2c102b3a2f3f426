// The one place every visit is handed to (links, QR tracking addresses, rotators, bio pages).
// The response never waits for it: visits queue in memory and are written in batches (every
// `intervalMs`, or as soon as `batchSize` wait), enriched and counted into the aggregates by
// the click writer. A clean shutdown flushes everything. A crash loses what is still queued:
// normally under one interval's visits; while the database is unreachable, up to `maxQueue`.
import type { DB } from '../db/database.js'
import { isDatabaseUnavailable } from '../db/errors.js'
import { isBot, preferredLanguageOf, referrerHostOf } from './visitor-reading.js'
import { createClickWriter, type InTransactionHook, type PendingClick, type WrittenBatch } from './click-writer.js'
import { createDailySaltHasher, type VisitorHasher } from './visitor-hash.js'
import { nowTimestamp } from '../core/time.js'
import { memoize } from '../core/memoize.js'
import type { ClickEvent } from './click-items.js'

export interface ClickRecorder {
  /**
   * Queues a visit; bots, link-preview fetchers and prefetches are dropped. Never throws, never
   * waits. True when the visit was queued.
   */
  record(event: ClickEvent): boolean
  /** True when `record` would count the visit: a person's, not a bot's, a preview's or a prefetch. */
  counts(event: ClickEvent): boolean
  /** Writes everything queued so far. */
  flush(): Promise<void>
  /** Stops the timer and flushes what is left. */
  close(): Promise<void>
  readonly pending: number
  /** Visits since start: queued, written, and dropped (queue full, or a batch refused for good). */
  readonly totals: Readonly<ClickRecorderTotals>
  /**
   * Tells `listener` of every batch once its transaction has committed: its clicks (with their ids
   * when the recorder was made `withIds`), the links' counters (click caps) and how long the write
   * took (metrics). Answers the function that stops telling it. A listener must not throw.
   */
  afterCommit(listener: AfterCommitListener): () => void
}

/** A committed batch, as afterCommit's listeners are told of it. */
export interface CommittedBatch extends WrittenBatch {
  /** How long writing it took, in seconds. */
  seconds: number
}

export type AfterCommitListener = (batch: CommittedBatch) => void

export interface ClickRecorderTotals {
  queued: number
  written: number
  dropped: number
}

export interface ClickRecorderOptions {
  /** The database the clicks are written to. */
  db: DB
  /** How visitors are told apart; by default a random salt per day (visitor-hash.ts). */
  visitors?: VisitorHasher
  batchSize?: number
  intervalMs?: number
  /** Beyond this many queued events new ones are dropped (and counted), keeping memory flat. */
  maxQueue?: number
  onError?: (error: unknown) => void
  onDrop?: (dropped: number) => void
  /** How long `close()` keeps retrying a database that refuses the last batches. */
  closeTimeoutMs?: number
  /** Visits `close()` could not write in time (lost with the process). */
  onShutdownLoss?: (lost: number, error: unknown) => void
  /** Runs in each batch's transaction after its clicks are written (the webhooks' outbox); a failure rolls the batch back. */
  inTransaction?: InTransactionHook
  /** Committed batches carry the ids their clicks took (the columnar store takes them from there). */
  withIds?: boolean
}

/** First and longest pause between two attempts while the database refuses batches. */
const MIN_BACKOFF_MS = 250
const MAX_BACKOFF_MS = 5_000
/** A batch refused this many times in a row for a reason other than an unreachable database is dropped. */
const MAX_REFUSALS = 3

/**
 * A user agent of at most 512 characters that keeps nothing else alive: V8 may implement a
 * slice as a view of the whole header, and a queue of 100,000 such views would hold 100,000
 * headers of up to 16 KB each.
 */
function capped(userAgent: string): string {
  return userAgent.length <= 512 ? userAgent : Buffer.from(userAgent.slice(0, 512), 'utf8').toString('utf8')
}

export function createClickRecorder(options: ClickRecorderOptions): ClickRecorder {
  const { db } = options
  // Visits repeat referrers (a post, a newsletter) as much as user agents.
  const referrerHost = memoize((referrer) => referrerHostOf(referrer), 2_000)
  const language = memoize((header) => preferredLanguageOf(header), 500)
  // One string per distinct user agent for every queued visit that sent it: each request's own
  // copy then dies young instead of being carried into the old generation by the queue.
  const sharedAgent = memoize(capped, 2_000)
  const writeClicks = createClickWriter({ db, visitors: options.visitors ?? createDailySaltHasher(db), inTransaction: options.inTransaction, withIds: options.withIds })
  const batchSize = options.batchSize ?? 500
  const maxQueue = options.maxQueue ?? 100_000
  const intervalMs = options.intervalMs ?? 250
  let queue: PendingClick[] = []
  let draining: Promise<boolean> | null = null
  let dropped = 0
  // While the database refuses batches, attempts back off (up to MAX_BACKOFF_MS) instead of
  // starting one per incoming visit.
  let backoffMs = 0
  let retryAt = 0
  let lastError: unknown
  let refusals = 0
  const totals: ClickRecorderTotals = { queued: 0, written: 0, dropped: 0 }
  const committedListeners = new Set<AfterCommitListener>()

  function counts(event: ClickEvent): boolean {
    // A visit without a user agent is a script or a checker, not a browser.
    return Boolean(event.userAgent) && !event.prefetch && !isBot(event.userAgent)
  }

  /** Writes batches until the queue is empty; false when the database refused one (kept for later). */
  async function drain(): Promise<boolean> {
    while (queue.length > 0) {
      const batch = queue.slice(0, batchSize * 4)
      const started = performance.now()
      let written: WrittenBatch
      try {
        written = await writeClicks(batch)
      } catch (error) {
        lastError = error
        backoffMs = Math.min(Math.max(backoffMs * 2, MIN_BACKOFF_MS), MAX_BACKOFF_MS)
        retryAt = Date.now() + backoffMs
        options.onError?.(error)
        // An unreachable database comes back; a batch the database itself refuses again and
        // again (say, a counter out of range) would block every later click: it is dropped.
        refusals = isDatabaseUnavailable(error) ? 0 : refusals + 1
        if (refusals < MAX_REFUSALS) return false
        refusals = 0
        queue = queue.slice(batch.length)
        totals.dropped += batch.length
        options.onDrop?.(batch.length)
        continue
      }
      backoffMs = 0
      retryAt = 0
      refusals = 0
      queue = queue.slice(batch.length)
      totals.written += batch.length
      const committed: CommittedBatch = { ...written, seconds: (performance.now() - started) / 1000 }
      for (const listener of committedListeners) listener(committed)
    }
    if (dropped > 0) {
      options.onDrop?.(dropped)
      dropped = 0
    }
    return true
  }

  /**
   * One drain at a time: visits queued while it runs are written by the same run, so callers
   * share it instead of chaining tiny batches behind each other.
   */
  function drainOnce(): Promise<boolean> {
    draining ??= drain().finally(() => {
      draining = null
    })
    return draining
  }

  /** Resolves once everything queued before the call is written, or a write has failed. */
  async function flush(): Promise<void> {
    // A drain about to finish may have missed the newest visits: run again until none wait.
    while (queue.length > 0 || draining) {
      if (!(await drainOnce())) return
    }
  }

  /** A drain unless the database refused the last attempt only a moment ago. */
  function drainSoon(): void {
    if (Date.now() >= retryAt) void drainOnce()
  }

  const timer = setInterval(drainSoon, intervalMs)
  timer.unref()

  return {
    counts,
    record(event) {
      const userAgent = event.userAgent
      if (!userAgent || !counts(event)) return false
      if (queue.length >= maxQueue) {
        dropped += 1
        totals.dropped += 1
        return false
      }
      totals.queued += 1
      queue.push({
        accountId: event.accountId,
        itemType: event.itemType,
        itemId: event.itemId,
        createdAt: nowTimestamp(event.at),
        ip: event.ip,
        userAgent: sharedAgent(userAgent),
        referrerHost: event.referrer ? referrerHost(event.referrer) : null,
        language: event.acceptLanguage ? language(event.acceptLanguage) : null,
        variant: event.variant ?? null,
        clickId: event.clickId ?? null,
      })
      if (queue.length >= batchSize) drainSoon()
      return true
    },
    flush,
    async close() {
      clearInterval(timer)
      // A database restarting under us gets a few seconds before queued visits are given up.
      const deadline = Date.now() + (options.closeTimeoutMs ?? 10_000)
      for (;;) {
        await flush()
        if (queue.length === 0) return
        const wait = Math.min(Math.max(retryAt - Date.now(), 0), deadline - Date.now())
        if (wait <= 0 && Date.now() >= deadline) break
        await new Promise((resolve) => setTimeout(resolve, wait))
      }
      options.onShutdownLoss?.(queue.length, lastError)
      queue = []
    },
    get pending() {
      return queue.length
    },
    totals,
    afterCommit(listener) {
      committedListeners.add(listener)
      return () => committedListeners.delete(listener)
    },
  }
}
