// SQL for the outbox's events (the one file that writes `outbox_events`, ADR 018): written in the
// transaction of the change they report, taken by the event stream with a lease, and cleared once
// no delivery or stream waits for them. The outbox serves every workspace: rows carry their account.
import type { Insertable } from 'kysely'
import type { DB } from '../../db/database.js'
import { skippingLockedRows } from '../../db/row-claims.js'
import type { OutboxEventsTable } from '../../db/schema.js'

/** An event taken for the event stream. */
export interface StreamedEvent {
  id: number
  event_id: string
  account_id: number
  type: string
  payload: string
}

export function createEventOutboxRepository(db: DB) {
  return {
    /** Writes events; answers each one's row id by its event id. */
    insert(rows: ReadonlyArray<Insertable<OutboxEventsTable>>): Promise<Array<{ id: number; event_id: string }>> {
      return db.insertInto('outbox_events').values([...rows]).returning(['id', 'event_id']).execute()
    },

    /**
     * Takes up to `count` events due for the stream at `at`, oldest first: their next turn moves to
     * `leasedUntil` (on PostgreSQL skipping rows another instance is taking).
     */
    async takeDueForStream(at: string, leasedUntil: string, count: number): Promise<StreamedEvent[]> {
      const due = skippingLockedRows(db, db.selectFrom('outbox_events').select('id').where('stream_next_at', '<=', at).orderBy('id').limit(count))
      const taken = await db
        .updateTable('outbox_events')
        .set({ stream_next_at: leasedUntil })
        .where('id', 'in', due)
        .returning(['id', 'event_id', 'account_id', 'type', 'payload'])
        .execute()
      return taken.sort((a, b) => a.id - b.id)
    },

    /** The event is published: the stream no longer waits for it. */
    async markStreamed(id: number, at: string): Promise<void> {
      await db.updateTable('outbox_events').set({ stream_next_at: null, streamed_at: at }).where('id', '=', id).execute()
    },

    /** Events not published after all: due for the stream again at `at` (those it still waits for). */
    async streamAgainAt(ids: readonly number[], at: string): Promise<void> {
      if (ids.length === 0) return
      await db.updateTable('outbox_events').set({ stream_next_at: at }).where('id', 'in', [...ids]).where('stream_next_at', 'is not', null).execute()
    },

    /** Events written before `cutoff` that neither the stream nor any delivery waits for go. */
    async deleteUnwantedBefore(cutoff: string): Promise<void> {
      await db
        .deleteFrom('outbox_events')
        .where('created_at', '<', cutoff)
        .where('stream_next_at', 'is', null)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('webhook_deliveries').select('webhook_deliveries.id').whereRef('webhook_deliveries.event_id', '=', 'outbox_events.id'))))
        .execute()
    },
  }
}

export type EventOutboxRepository = ReturnType<typeof createEventOutboxRepository>
