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
import type { EventOutboxRepository } from './event-outbox.repository.js'
import type { TakenDelivery, WebhookDeliveryRepository } from './webhook-delivery.repository.js'
import type { WebhookRepository } from './webhook.repository.js'
import { TEST_EVENT } from './webhook-events.js'
import type { AttemptResult, WebhookSender } from './webhook-sender.js'
import { signatureHeaders } from './webhook-signature.js'
import type { SecretBox } from '../../core/secret-box.js'
import { backgroundLoop, type LeasedWorkerOptions } from '../../core/background-loop.js'
import { pauseFor } from '../../core/pause.js'

/** A webhook failing this long without a success is switched off. */
export const SWITCH_OFF_AFTER_MS = 3 * 24 * 60 * 60 * 1000
/** Finished deliveries (and events no delivery or stream waits for) are kept this long for the log. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000

/** The pause after the `attempt`-th failed attempt: 30 s, doubling, at most 6 hours. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(attempt - 1, 0), 6 * 60 * 60 * 1000)
}

export interface DeliveryWorkerOptions extends LeasedWorkerOptions {
  send: WebhookSender
  /** Opens the signing secrets as stored (sealed with SECRETS_KEY, or plain; ADR 025). */
  secrets: SecretBox
  /** Deliveries in flight at once (another is taken as soon as a place is free). */
  concurrency?: number
  backoff?: (attempt: number) => number
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

export type { TakenDelivery }

/** The tables the worker reads and writes, each through its repository. */
export interface DeliveryWorkerRepositories {
  deliveries: WebhookDeliveryRepository
  webhooks: Pick<WebhookRepository, 'noteFailure' | 'noteSuccess'>
  events: Pick<EventOutboxRepository, 'deleteUnwantedBefore'>
}

/** A webhook's pending deliveries fail with this when it is switched off. */
const SWITCHED_OFF = 'not sent: the webhook was switched off'

export function createDeliveryWorker(options: DeliveryWorkerRepositories & DeliveryWorkerOptions) {
  const repositories: DeliveryWorkerRepositories = options
  const { deliveries, webhooks, events } = repositories
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
    return deliveries.takeDue(nowTimestamp(at), nowTimestamp(new Date(at.getTime() + leaseMs)), count)
  }

  /** A webhook failing since SWITCH_OFF_AFTER_MS ago is switched off; its pending deliveries fail. */
  async function noteFailure(webhookId: number, at: Date, error: string): Promise<void> {
    const stamp = nowTimestamp(at)
    const switchOffBefore = nowTimestamp(new Date(at.getTime() - SWITCH_OFF_AFTER_MS))
    await webhooks.noteFailure(webhookId, stamp, switchOffBefore, (since) => `Switched off: every delivery failed from ${since} UTC to ${stamp} UTC (the last: ${error}).`, SWITCHED_OFF)
  }

  /** Records the attempt's outcome, and what it says of the webhook's health. */
  async function record(delivery: TakenDelivery, at: Date, headers: Record<string, string>, result: AttemptResult): Promise<void> {
    const attempts = delivery.attempts + 1
    const stamp = nowTimestamp(at)
    const isTest = delivery.type === TEST_EVENT
    const last = { attempts, last_attempt_at: stamp, request_headers: JSON.stringify(headers), response_status: result.status, response_ms: result.ms, response_body: result.body, error: result.error }
    if (result.ok) {
      await deliveries.markDelivered(delivery.id, last)
      totals.delivered += 1
      const lag = secondsSince(delivery.event_created_at, now())
      for (const listener of deliveredListeners) listener(lag)
      if (!isTest) await webhooks.noteSuccess(delivery.webhook_id)
      return
    }
    const nextAt = nowTimestamp(new Date(at.getTime() + backoff(attempts)))
    // A test is tried once; anything else until its window closes (the last try at its end).
    const finished = isTest || stamp >= delivery.retry_until
    if (finished) totals.failed += 1
    else totals.retried += 1
    await deliveries.markAttemptFailed(delivery.id, last, finished ? null : nextAt < delivery.retry_until ? nextAt : delivery.retry_until)
    if (!isTest) await noteFailure(delivery.webhook_id, at, result.error ?? 'failed')
  }

  async function deliver(delivery: TakenDelivery, signal: AbortSignal): Promise<void> {
    if (delivery.enabled !== 1) {
      await deliveries.failUnsent(delivery.id, SWITCHED_OFF)
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
      await deliveries.dueAgain([delivery.id], nowTimestamp(now()))
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
    await deliveries.deleteFinishedBefore(cutoff)
    // Events go once no delivery and not the event stream waits for them.
    await events.deleteUnwantedBefore(cutoff)
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
    deliveries.dueAgain(ids, nowTimestamp(now())).catch((error: unknown) => options.onError?.(error))
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
      const { pending, oldest } = await deliveries.pendingState()
      return { pending, oldestSeconds: oldest === null ? 0 : secondsSince(oldest, now()) }
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
