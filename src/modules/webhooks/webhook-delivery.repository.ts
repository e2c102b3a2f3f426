// SQL for webhook deliveries (the one file that writes `webhook_deliveries`): what the outbox writes
// for each subscribed webhook, what the delivery worker takes, sends and records, and the log a
// workspace reads. Account-facing methods take the account id; the worker's act on delivery ids it
// holds, whatever their account (it serves every workspace).
import type { Insertable } from 'kysely'
import type { DB } from '../../db/database.js'
import { fetchPage } from '../../db/paging.js'
import { skippingLockedRows } from '../../db/row-claims.js'
import type { WebhookDeliveriesTable } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

/** A delivery the worker holds (taken, or handed over): everything its attempt needs. */
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

/** What an attempt leaves on its delivery. */
export interface AttemptRecord {
  attempts: number
  last_attempt_at: string
  request_headers: string
  response_status: number | null
  response_ms: number | null
  response_body: string | null
  error: string | null
}

export function createWebhookDeliveryRepository(db: DB) {
  return {
    /** Writes deliveries (in the transaction of their events). */
    async insert(rows: ReadonlyArray<Insertable<WebhookDeliveriesTable>>): Promise<void> {
      await db.insertInto('webhook_deliveries').values([...rows]).execute()
    },

    /** Writes deliveries and answers their ids with the event and webhook each is for. */
    insertReturningIds(rows: ReadonlyArray<Insertable<WebhookDeliveriesTable>>): Promise<Array<{ id: number; event_id: number; webhook_id: number }>> {
      return db.insertInto('webhook_deliveries').values([...rows]).returning(['id', 'event_id', 'webhook_id']).execute()
    },

    /**
     * Takes up to `count` deliveries due at `at`: their next attempt moves to `leasedUntil` (on
     * PostgreSQL skipping rows another instance is taking), and they are answered with their
     * webhook and event.
     */
    async takeDue(at: string, leasedUntil: string, count: number): Promise<TakenDelivery[]> {
      const due = skippingLockedRows(db, db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', at).orderBy('next_attempt_at').limit(count))
      const taken = await db.updateTable('webhook_deliveries').set({ next_attempt_at: leasedUntil }).where('id', 'in', due).returning('id').execute()
      if (taken.length === 0) return []
      return db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
        .select(['d.id', 'd.attempts', 'd.retry_until', 'd.webhook_id', 'w.url', 'w.secret', 'w.enabled', 'e.event_id', 'e.type', 'e.payload', 'e.created_at as event_created_at'])
        .where('d.id', 'in', taken.map((row) => row.id))
        .execute()
    },

    /** The receiver answered 2xx. */
    async markDelivered(id: number, attempt: AttemptRecord): Promise<void> {
      await db.updateTable('webhook_deliveries').set({ ...attempt, status: 'delivered', next_attempt_at: null, delivered_at: attempt.last_attempt_at }).where('id', '=', id).execute()
    },

    /**
     * A failed attempt: tried again at `nextAttemptAt`, or failed for good with null. A delivery
     * failed meanwhile (its webhook switched off while the attempt ran) stays failed.
     */
    async markAttemptFailed(id: number, attempt: AttemptRecord, nextAttemptAt: string | null): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ ...attempt, status: nextAttemptAt === null ? 'failed' : 'pending', next_attempt_at: nextAttemptAt })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute()
    },

    /** One delivery fails unsent (its webhook is switched off). */
    async failUnsent(id: number, error: string): Promise<void> {
      await db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null, error }).where('id', '=', id).execute()
    },

    /** Every pending delivery of a webhook fails unsent (the worker switched the webhook off). */
    async failPendingOfWebhook(webhookId: number, error: string): Promise<void> {
      await db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null, error }).where('webhook_id', '=', webhookId).where('status', '=', 'pending').execute()
    },

    /** Pending deliveries of the account's webhook fail at once (a person switched it off). */
    async failPending(accountId: number, webhookId: number, error: string): Promise<void> {
      await db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null, error }).where('account_id', '=', accountId).where('webhook_id', '=', webhookId).where('status', '=', 'pending').execute()
    },

    /** Deliveries held but not sent after all: due again at `at`, for any worker (those still pending). */
    async dueAgain(ids: readonly number[], at: string): Promise<void> {
      if (ids.length === 0) return
      await db.updateTable('webhook_deliveries').set({ next_attempt_at: at }).where('id', 'in', [...ids]).where('status', '=', 'pending').execute()
    },

    /** Finished deliveries written before `cutoff` go. */
    async deleteFinishedBefore(cutoff: string): Promise<void> {
      await db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('created_at', '<', cutoff).execute()
    },

    /** Every instance's pending deliveries: how many, and when the oldest was written (null when none). */
    async pendingState(): Promise<{ pending: number; oldest: string | null }> {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min('created_at').as('oldest')])
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow()
      return { pending: Number(row.pending), oldest: row.oldest as string | null }
    },

    /** One page of a webhook's deliveries, newest first, with their event. */
    listPage(accountId: number, webhookId: number, page: PageRequest) {
      return fetchPage(
        db.selectFrom('webhook_deliveries as d').innerJoin('outbox_events as e', 'e.id', 'd.event_id').where('d.account_id', '=', accountId).where('d.webhook_id', '=', webhookId),
        page,
        (q) => q.selectAll('d').select(['e.event_id as event', 'e.type', 'e.payload']).orderBy('d.id', 'desc'),
      )
    },

    findById(accountId: number, id: number) {
      return db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
    },

    /** The delivery of an event written for one of the account's webhooks (a test). */
    async findIdOfEvent(accountId: number, eventId: string): Promise<number> {
      const row = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
        .select('d.id')
        .where('d.account_id', '=', accountId)
        .where('e.event_id', '=', eventId)
        .executeTakeFirstOrThrow()
      return row.id
    },

    /** Makes a delivery due now, retried until `retryUntil` (a manual retry); false when no such delivery. */
    async retry(accountId: number, id: number, retryUntil: string): Promise<boolean> {
      const result = await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: nowTimestamp(), retry_until: retryUntil })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
  }
}

export type WebhookDeliveryRepository = ReturnType<typeof createWebhookDeliveryRepository>
