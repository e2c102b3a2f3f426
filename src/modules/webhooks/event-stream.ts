// The event stream (EVENTS_URL, ADR 018): every outbox event is also published to NATS JetStream,
// on `linkwell.<workspace>.<event type>` with the event id as the message id (JetStream drops a
// repeat within its duplicate window). The same outbox guarantees: events are taken with a lease
// (PostgreSQL: `for update skip locked`), published, and marked; an instance that dies, or NATS
// being away, leaves them to be published later, however long that takes.
import type { JetStreamClient } from '@nats-io/jetstream'
import type { NatsConnection } from '@nats-io/transport-node'
import { nowTimestamp } from '../../core/time.js'
import type { EventOutboxRepository } from './event-outbox.repository.js'
import { backgroundLoop, type LeasedWorkerOptions } from '../../core/background-loop.js'
import { pauseFor } from '../../core/pause.js'

/** The stream created when none takes `linkwell.>` yet. */
export const STREAM_NAME = 'LINKWELL'
export const SUBJECT_PREFIX = 'linkwell'

/** The subject of an event: `linkwell.12.link.created`. */
export function subjectOf(accountId: number, type: string): string {
  return `${SUBJECT_PREFIX}.${accountId}.${type}`
}

export interface EventStreamOptions extends LeasedWorkerOptions {
  url: string
  /** Events published per round. */
  batchSize?: number
}

export function createEventStream(options: EventStreamOptions & { events: Pick<EventOutboxRepository, 'takeDueForStream' | 'markStreamed' | 'streamAgainAt'> }) {
  const { events } = options
  const now = options.now ?? (() => new Date())
  const pollMs = options.pollMs ?? 1_000
  const batchSize = options.batchSize ?? 200
  const leaseMs = options.leaseMs ?? 60_000
  let connection: NatsConnection | null = null
  let client: JetStreamClient | null = null
  /** Pause after a failed round: doubles up to a minute while NATS is away. */
  let pauseMs = 0

  /** Connects (once; the client reconnects by itself) and makes sure a stream takes our subjects. */
  async function connected(): Promise<JetStreamClient> {
    if (client) return client
    // Loaded only when EVENTS_URL is set.
    const [{ connect }, { jetstream, jetstreamManager }] = await Promise.all([import('@nats-io/transport-node'), import('@nats-io/jetstream')])
    const nc = await connect({ servers: options.url, name: 'linkwell', maxReconnectAttempts: -1, timeout: 5_000 })
    try {
      const manager = await jetstreamManager(nc)
      const taken = await manager.streams.find(`${SUBJECT_PREFIX}.0.probe`).catch(() => null)
      if (!taken) await manager.streams.add({ name: STREAM_NAME, subjects: [`${SUBJECT_PREFIX}.>`] })
    } catch (error) {
      await nc.close()
      throw error
    }
    connection = nc
    client = jetstream(nc)
    return client
  }

  /** Takes up to `batchSize` events waiting for the stream, oldest first. */
  async function take() {
    const at = now()
    return events.takeDueForStream(nowTimestamp(at), nowTimestamp(new Date(at.getTime() + leaseMs)), batchSize)
  }

  /** One round: publishes what is due; answers how many were published. */
  async function publishDue(): Promise<number> {
    const due = await take()
    if (due.length === 0) return 0
    let published = 0
    try {
      const js = await connected()
      for (const event of due) {
        await js.publish(subjectOf(event.account_id, event.type), event.payload, { msgID: event.event_id })
        await events.markStreamed(event.id, nowTimestamp(now()))
        published += 1
      }
      return published
    } catch (error) {
      // What was not published is due again after the pause.
      pauseMs = Math.min(Math.max(pauseMs * 2, 1_000), 60_000)
      const retryAt = nowTimestamp(new Date(now().getTime() + pauseMs))
      await events.streamAgainAt(due.slice(published).map((event) => event.id), retryAt)
      throw error
    }
  }

  async function loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let published = 0
      try {
        published = await publishDue()
        pauseMs = 0
      } catch (error) {
        if (!signal.aborted) options.onError?.(error)
      }
      if (published === batchSize || signal.aborted) continue
      await pauseFor(Math.max(pollMs, pauseMs), signal)
    }
  }

  const background = backgroundLoop(loop)

  return {
    /** Starts publishing (the HTTP app does, on ready). */
    start(): void {
      background.start()
    },

    /** Stops publishing and closes the connection (what was not published waits in the outbox). */
    async stop(): Promise<void> {
      if (!(await background.stop())) return
      const closing = connection
      connection = null
      client = null
      await closing?.drain().catch(() => closing.close())
    },
  }
}

export type EventStream = ReturnType<typeof createEventStream>
