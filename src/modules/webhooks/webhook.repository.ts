// SQL for webhooks and their delivery log. Every method is scoped by account id.
import type { DB } from '../../db/database.js'
import { countOwnedRows, deleteOwnedRow, fetchOwnedPage, findOwnedRow, updateOwnedRow } from '../../db/owned-rows.js'
import { fetchPage } from '../../db/paging.js'
import type { WebhookRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

export interface WebhookValues {
  url: string
  description: string
  events: readonly string[]
}

export function createWebhookRepository(db: DB) {
  return {
    findById(accountId: number, id: number): Promise<WebhookRow | undefined> {
      return findOwnedRow(db, 'webhooks', accountId, id)
    },

    listPage(accountId: number, page: PageRequest) {
      return fetchOwnedPage(db, 'webhooks', accountId, page)
    },

    count(accountId: number): Promise<number> {
      return countOwnedRows(db, 'webhooks', accountId)
    },

    /** Every webhook's stored signing secret, whatever its account: the operator's `linkwell secrets seal` (ADR 025). */
    listStoredSecrets(): Promise<Array<{ id: number; secret: string }>> {
      return db.selectFrom('webhooks').select(['id', 'secret']).execute()
    },

    /** Stores `to` in place of the webhook's secret `from` while it still is `from`; true when it was. */
    async replaceStoredSecret(id: number, from: string, to: string): Promise<boolean> {
      const result = await db.updateTable('webhooks').set({ secret: to }).where('id', '=', id).where('secret', '=', from).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    insert(accountId: number, values: WebhookValues, secret: string): Promise<WebhookRow> {
      return db
        .insertInto('webhooks')
        .values({ account_id: accountId, url: values.url, description: values.description, events: JSON.stringify(values.events), secret, created_at: nowTimestamp() })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** Changes the given values; `enabled: true` switches a webhook back on with a clean record. False when no such webhook. */
    update(accountId: number, id: number, values: Partial<WebhookValues> & { enabled?: boolean }): Promise<boolean> {
      return updateOwnedRow(db, 'webhooks', accountId, id, {
        url: values.url,
        description: values.description,
        events: values.events === undefined ? undefined : JSON.stringify(values.events),
        ...(values.enabled === undefined
          ? {}
          : values.enabled
            ? { enabled: 1, failing_since: null, disabled_at: null, disabled_reason: null }
            : { enabled: 0, disabled_at: nowTimestamp(), disabled_reason: 'Switched off by a person.' }),
      })
    },

    delete(accountId: number, id: number): Promise<boolean> {
      return deleteOwnedRow(db, 'webhooks', accountId, id)
    },

    /** Pending deliveries of a webhook switched off by a person fail at once. */
    async failPending(accountId: number, webhookId: number, error: string): Promise<void> {
      await db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null, error }).where('account_id', '=', accountId).where('webhook_id', '=', webhookId).where('status', '=', 'pending').execute()
    },

    /** One page of a webhook's deliveries, newest first, with their event. */
    listDeliveries(accountId: number, webhookId: number, page: PageRequest) {
      return fetchPage(
        db.selectFrom('webhook_deliveries as d').innerJoin('outbox_events as e', 'e.id', 'd.event_id').where('d.account_id', '=', accountId).where('d.webhook_id', '=', webhookId),
        page,
        (q) => q.selectAll('d').select(['e.event_id as event', 'e.type', 'e.payload']).orderBy('d.id', 'desc'),
      )
    },

    findDelivery(accountId: number, id: number) {
      return db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
    },

    /** The delivery of an event written for one webhook (a test). */
    async deliveryOfEvent(eventId: string): Promise<number> {
      const row = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
        .select('d.id')
        .where('e.event_id', '=', eventId)
        .executeTakeFirstOrThrow()
      return row.id
    },

    /** Makes a delivery due now, retried until `retryUntil` (a manual retry); false when no such delivery. */
    async retryDelivery(accountId: number, id: number, retryUntil: string): Promise<boolean> {
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

export type WebhookRepository = ReturnType<typeof createWebhookRepository>
