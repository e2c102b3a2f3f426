// The delivery worker (ADR 018): takes due deliveries from the outbox, sends each signed, and
// records the answer. At least once: a delivery is taken by moving its next attempt a lease ahead
// (on PostgreSQL with `for update skip locked`, so several instances take each one once), and a
// worker that dies mid-attempt leaves it to be taken again when the lease ends. Failed attempts are
// retried with exponential back-off for 24 hours after the event; a webhook whose deliveries have
// all failed for 3 days is switched off, with the reason, and its pending deliveries fail.
// Deliveries of recorded clicks are handed over instead of taken: the click batch writes them
// already leased to this worker, in places it reserved, and hands them over once it commits, so
// they are sent at once and the outbox is not read back for them (`reserve`, `handOver`).
import { nowTimestamp, timeOfStored } from '../../core/time.js'
import type { DB } from '../../db/database.js'
import { skippingLockedRows } from '../../db/row-claims.js'
import { inTransaction } from '../../db/transactions.js'
import { TEST_EVENT } from './webhook-events.js'
import type { AttemptResult, WebhookSender } from './webhook-sender.js'
import { signatureHeaders } from './webhook-signature.js'
import type { SecretBox } from '../../core/secret-box.js'
import { backgroundLoop } from '../../core/background-loop.js'
import { pauseFor } from '../../core/pause.js'

/** A webhook failing this long without a success is switched off. */
export const SWITCH_OFF_AFTER_MS = 3 * 24 * 60 * 60 * 1000
/** Finished deliveries (and events no delivery or stream waits for) are kept this long for the log. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000

/** The pause after the `attempt`-th failed attempt: 30 s, doubling, at most 6 hours. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(attempt - 1, 0), 6 * 60 * 60 * 1000)
}

export interface DeliveryWorkerOptions {
  send: WebhookSender
  /** Opens the signing secrets as stored (sealed with SECRETS_KEY, or plain; ADR 025). */
  secrets: SecretBox
  now?: () => Date
  /** How often the outbox is asked for due deliveries. */
  pollMs?: number
  /** Deliveries in flight at once (another is taken as soon as a place is free). */
  concurrency?: number
  /** How long a taken delivery stays with its worker before another may take it. */
  leaseMs?: number
  backoff?: (attempt: number) => number
  onError?: (error: unknown) => void
}

/** What this process's attempts came to since it started (GET /metrics reads them, ADR 019). */
export interface DeliveryTotals {
  /** Attempts the receiver answered 2xx. */
  delivered: number
  /** Failed attempts that will be tried again. */
  retried: number
  /** Deliveries given up: their window closed, a test failed, or the webhook was switched off. */
  failed: number
}

/** The outbox as it stands: deliveries waiting to be sent, and how long the oldest has waited. */
export interface OutboxState {
  pending: number
  /** Seconds since the oldest pending delivery was written (with its event); 0 when none waits. */
  oldestSeconds: number
}

/** Seconds from a stored `YYYY-MM-DD HH:MM:SS` (UTC) to `at`. */
function secondsSince(stored: string, at: Date): number {
  return Math.max((at.getTime() - timeOfStored(stored)) / 1000, 0)
}

/** A delivery this worker holds (taken, or handed over): everything its attempt needs. */
export interface TakenDelivery {
  id: number
  attempts: number
  retry_until: string
  webhook_id: number
  url: string
  secret: string
  enabled: number
  event_id: string
  type: string
  payload: string
  /** When the event was written to the outbox. */
  event_created_at: string
}

export function createDeliveryWorker(db: DB, options: DeliveryWorkerOptions) {
  const now = options.now ?? (() => new Date())
  const pollMs = options.pollMs ?? 1_000
  const concurrency = options.concurrency ?? 20
  const leaseMs = options.leaseMs ?? 60_000
  const backoff = options.backoff ?? backoffMs
  let wakeUp: (() => void) | null = null
  let lastCleanup = 0
  const totals: DeliveryTotals = { delivered: 0, retried: 0, failed: 0 }
  const deliveredListeners = new Set<(lagSeconds: number) => void>()
  // The attempts in flight, and places promised to deliveries being written (`reserve`): a look
  // at the outbox takes only what is left.
  const inFlight = new Set<Promise<void>>()
  let reserved = 0
  // The running loop's signal; null while stopped.
  let running: AbortSignal | null = null
  // The last look filled every free place: more may be due than there was room for.
  let backlog = false

  /** Takes up to `count` due deliveries: their next attempt moves a lease ahead. */
  async function take(count: number): Promise<TakenDelivery[]> {
    const at = now()
    const due = skippingLockedRows(db, db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', nowTimestamp(at)).orderBy('next_attempt_at').limit(count))
    const taken = await db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: nowTimestamp(new Date(at.getTime() + leaseMs)) })
      .where('id', 'in', due)
      .returning('id')
      .execute()
    if (taken.length === 0) return []
    return db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
      .select(['d.id', 'd.attempts', 'd.retry_until', 'd.webhook_id', 'w.url', 'w.secret', 'w.enabled', 'e.event_id', 'e.type', 'e.payload', 'e.created_at as event_created_at'])
      .where('d.id', 'in', taken.map((row) => row.id))
      .execute()
  }

  /** A webhook failing since SWITCH_OFF_AFTER_MS ago is switched off; its pending deliveries fail. */
  async function noteFailure(webhookId: number, at: Date, error: string): Promise<void> {
    const stamp = nowTimestamp(at)
    await inTransaction(db, async (trx) => {
      const webhook = await trx.selectFrom('webhooks').select(['enabled', 'failing_since']).where('id', '=', webhookId).executeTakeFirst()
      if (!webhook || webhook.enabled !== 1) return
      const since = webhook.failing_since ?? stamp
      if (webhook.failing_since === null) await trx.updateTable('webhooks').set({ failing_since: stamp }).where('id', '=', webhookId).execute()
      if (since > nowTimestamp(new Date(at.getTime() - SWITCH_OFF_AFTER_MS))) return
      const switched = await trx
        .updateTable('webhooks')
        .set({ enabled: 0, disabled_at: stamp, disabled_reason: `Switched off: every delivery failed from ${since} UTC to ${stamp} UTC (the last: ${error}).` })
        .where('id', '=', webhookId)
        .where('enabled', '=', 1)
        .executeTakeFirst()
      if (Number(switched.numUpdatedRows) === 0) return
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', next_attempt_at: null, error: 'not sent: the webhook was switched off' })
        .where('webhook_id', '=', webhookId)
        .where('status', '=', 'pending')
        .execute()
    })
  }

  /** Records the attempt's outcome, and what it says of the webhook's health. */
  async function record(delivery: TakenDelivery, at: Date, headers: Record<string, string>, result: AttemptResult): Promise<void> {
    const attempts = delivery.attempts + 1
    const stamp = nowTimestamp(at)
    const isTest = delivery.type === TEST_EVENT
    const last = { attempts, last_attempt_at: stamp, request_headers: JSON.stringify(headers), response_status: result.status, response_ms: result.ms, response_body: result.body, error: result.error }
    if (result.ok) {
      await db.updateTable('webhook_deliveries').set({ ...last, status: 'delivered', next_attempt_at: null, delivered_at: stamp }).where('id', '=', delivery.id).execute()
      totals.delivered += 1
      const lag = secondsSince(delivery.event_created_at, now())
      for (const listener of deliveredListeners) listener(lag)
      if (!isTest) await db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', delivery.webhook_id).where('failing_since', 'is not', null).execute()
      return
    }
    const nextAt = nowTimestamp(new Date(at.getTime() + backoff(attempts)))
    // A test is tried once; anything else until its window closes (the last try at its end).
    const finished = isTest || stamp >= delivery.retry_until
    if (finished) totals.failed += 1
    else totals.retried += 1
    await db
      .updateTable('webhook_deliveries')
      .set({ ...last, status: finished ? 'failed' : 'pending', next_attempt_at: finished ? null : nextAt < delivery.retry_until ? nextAt : delivery.retry_until })
      .where('id', '=', delivery.id)
      // Failed meanwhile (the webhook was switched off while this attempt ran): it stays failed.
      .where('status', '=', 'pending')
      .execute()
    if (!isTest) await noteFailure(delivery.webhook_id, at, result.error ?? 'failed')
  }

  async function deliver(delivery: TakenDelivery, signal: AbortSignal): Promise<void> {
    if (delivery.enabled !== 1) {
      await db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null, error: 'not sent: the webhook was switched off' }).where('id', '=', delivery.id).execute()
      totals.failed += 1
      return
    }
    const at = now()
    // Encoded once: these bytes are signed and sent.
    const body = Buffer.from(delivery.payload, 'utf8')
    const headers = signatureHeaders(options.secrets.open(delivery.secret), delivery.event_id, at, body)
    const result = await options.send(delivery.url, headers, body, signal)
    // Stopped mid-attempt: no attempt is counted, and the next instance (or start) sends it at once.
    if (signal.aborted && !result.ok) {
      await db.updateTable('webhook_deliveries').set({ next_attempt_at: nowTimestamp(now()) }).where('id', '=', delivery.id).where('status', '=', 'pending').execute()
      return
    }
    await record(delivery, at, headers, result)
  }

  /** Finished deliveries and unwanted events past DELIVERY_RETENTION_MS go, once an hour. */
  async function cleanUp(): Promise<void> {
    const at = now().getTime()
    if (at - lastCleanup < 60 * 60 * 1000) return
    lastCleanup = at
    const cutoff = nowTimestamp(new Date(at - DELIVERY_RETENTION_MS))
    await db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('created_at', '<', cutoff).execute()
    await db
      .deleteFrom('outbox_events')
      .where('created_at', '<', cutoff)
      // Not while the event stream still waits for it.
      .where('stream_next_at', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('webhook_deliveries').select('webhook_deliveries.id').whereRef('webhook_deliveries.event_id', '=', 'outbox_events.id'))))
      .execute()
  }

  /** Sends `delivery` in a place of its own (a slow endpoint holds one of `concurrency` places, never the others). */
  function launch(delivery: TakenDelivery, signal: AbortSignal): void {
    const sending: Promise<void> = deliver(delivery, signal)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        inFlight.delete(sending)
        // A place is free and more may be waiting: look at once (else at the next poll: a look
        // after every delivery cost a query each when nothing more was due).
        if (backlog) wakeUp?.()
      })
    inFlight.add(sending)
  }

  async function loop(signal: AbortSignal): Promise<void> {
    running = signal
    backlog = false
    while (!signal.aborted) {
      const room = concurrency - inFlight.size - reserved
      let taken = 0
      if (room > 0) {
        try {
          const deliveries = await take(room)
          taken = deliveries.length
          backlog = taken > 0 && taken === room
          for (const delivery of deliveries) launch(delivery, signal)
          await cleanUp()
        } catch (error) {
          if (!signal.aborted) options.onError?.(error)
        }
      }
      // Every place filled suggests more are due: go on at once.
      if ((taken > 0 && taken === room) || signal.aborted) continue
      await pauseFor(pollMs, signal, (wake) => (wakeUp = wake))
      wakeUp = null
    }
    running = null
    // Stopping aborts the attempts in flight; each gives its delivery back before the loop ends.
    await Promise.all(inFlight)
  }

  /** Deliveries leased to this worker that it will not send after all: due again now, for any worker. */
  function giveBack(ids: number[]): void {
    if (ids.length === 0) return
    db.updateTable('webhook_deliveries').set({ next_attempt_at: nowTimestamp(now()) }).where('id', 'in', ids).where('status', '=', 'pending').execute().catch((error: unknown) => options.onError?.(error))
  }

  const background = backgroundLoop(loop)

  return {
    /** What this process's attempts came to since it started. */
    totals: totals as Readonly<DeliveryTotals>,

    /** Calls `listener` with each delivery's lag (event written → receiver answered 2xx, seconds); answers a function that stops it. */
    onDelivered(listener: (lagSeconds: number) => void): () => void {
      deliveredListeners.add(listener)
      return () => deliveredListeners.delete(listener)
    },

    /** The outbox read now (every instance's pending deliveries, not only this one's). */
    async outbox(): Promise<OutboxState> {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min('created_at').as('oldest')])
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow()
      const oldest = row.oldest as string | null
      return { pending: Number(row.pending), oldestSeconds: oldest === null ? 0 : secondsSince(oldest, now()) }
    },

    /**
     * Promises up to `count` free places to deliveries about to be written in a transaction (none
     * while stopped); answers how many, and the lease to write them with. Each place is then
     * either handed over (`handOver`, after the commit) or given back (`release`).
     */
    reserve(count: number, at: Date): { places: number; leasedUntil: string } {
      const places = running && !running.aborted ? Math.max(Math.min(count, concurrency - inFlight.size - reserved), 0) : 0
      reserved += places
      return { places, leasedUntil: nowTimestamp(new Date(at.getTime() + leaseMs)) }
    },

    /** The reserved places of a transaction that did not commit: free again. */
    release(places: number): void {
      reserved = Math.max(reserved - places, 0)
    },

    /** Committed deliveries written leased to this worker, one per reserved place: sent now. */
    handOver(deliveries: readonly TakenDelivery[]): void {
      reserved = Math.max(reserved - deliveries.length, 0)
      // Stopped meanwhile: due again, for the next start or another instance.
      if (!running || running.aborted) return giveBack(deliveries.map((delivery) => delivery.id))
      for (const delivery of deliveries) launch(delivery, running)
    },

    /** Starts polling the outbox (the HTTP app does, on ready); the CLI never does. */
    start(): void {
      background.start()
    },

    /** Asks for due deliveries now instead of at the next poll (after a test or a retry). */
    wake(): void {
      wakeUp?.()
    },

    /** Stops polling; attempts in flight are abandoned and left due (the app closing). */
    async stop(): Promise<void> {
      await background.stop()
    },
  }
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>
