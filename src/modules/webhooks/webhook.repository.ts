// SQL for webhooks (the one file that writes `webhooks`; their deliveries: webhook-delivery.repository.ts).
// Every method a workspace reaches is scoped by account id; the outbox and the delivery worker,
// which serve every workspace, read subscriptions by account and note a webhook's health by its id.
import type { DB } from '../../db/database.js'
import { countOwnedRows, deleteOwnedRow, fetchOwnedPage, findOwnedRow, updateOwnedRow } from '../../db/owned-rows.js'
import { inTransaction } from '../../db/transactions.js'
import { createWebhookDeliveryRepository } from './webhook-delivery.repository.js'
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

    /** The enabled webhooks of these accounts, with what the outbox needs to write and send their deliveries. */
    listEnabledOf(accountIds: readonly number[]): Promise<Array<Pick<WebhookRow, 'id' | 'account_id' | 'url' | 'secret' | 'events'>>> {
      if (accountIds.length === 0) return Promise.resolve([])
      return db.selectFrom('webhooks').select(['id', 'account_id', 'url', 'secret', 'events']).where('enabled', '=', 1).where('account_id', 'in', [...accountIds]).execute()
    },

    /**
     * Notes a failed delivery of webhook `id` (the delivery worker's, any account's) at `at`: it is
     * failing since then unless it already was. A webhook failing since before `switchOffBefore`
     * is switched off with the reason `reasonOf(since)`, and every pending delivery of it fails
     * with `deliveryError`; answers whether it was. In one transaction.
     */
    async noteFailure(id: number, at: string, switchOffBefore: string, reasonOf: (since: string) => string, deliveryError: string): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const webhook = await trx.selectFrom('webhooks').select(['enabled', 'failing_since']).where('id', '=', id).executeTakeFirst()
        if (!webhook || webhook.enabled !== 1) return false
        const since = webhook.failing_since ?? at
        if (webhook.failing_since === null) await trx.updateTable('webhooks').set({ failing_since: at }).where('id', '=', id).execute()
        if (since > switchOffBefore) return false
        const switched = await trx
          .updateTable('webhooks')
          .set({ enabled: 0, disabled_at: at, disabled_reason: reasonOf(since) })
          .where('id', '=', id)
          .where('enabled', '=', 1)
          .executeTakeFirst()
        if (Number(switched.numUpdatedRows) === 0) return false
        await createWebhookDeliveryRepository(trx).failPendingOfWebhook(id, deliveryError)
        return true
      })
    },

    /** A delivery of webhook `id` (the delivery worker's, any account's) succeeded: it is not failing. */
    async noteSuccess(id: number): Promise<void> {
      await db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute()
    },
  }
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>
