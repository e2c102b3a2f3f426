// Webhook rules: what a webhook may point at and receive, its secret (shown once), its delivery
// log, a test event and a manual retry. The events themselves are written by the outbox
// (event-outbox.ts) and sent by the worker (delivery-worker.ts).
import { isIP } from 'node:net'
import { isPublicAddress } from '../../core/address-policy.js'
import { AppError, NotFoundError, ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { nowTimestamp } from '../../core/time.js'
import { checkHttpUrl } from '../../core/urls.js'
import type { WebhookRow } from '../../db/schema.js'
import type { Bindable } from '../../db/transactions.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { EventOutbox } from './event-outbox.js'
import { TEST_EVENT } from './webhook-events.js'
import { toWebhookRecord } from './webhook.mapper.js'
import type { WebhookDeliveryRepository } from './webhook-delivery.repository.js'
import type { WebhookRepository } from './webhook.repository.js'
import type { WebhookCreateInput, WebhookUpdateInput } from './webhook.schemas.js'
import { newWebhookSecret } from './webhook-signature.js'
import type { SecretBox } from '../../core/secret-box.js'

/** Webhooks one account may have. */
export const MAX_WEBHOOKS = 20

export interface WebhookServiceOptions {
  /** The webhooks' delivery log (webhook-delivery.repository.ts). */
  deliveries: Bindable<WebhookDeliveryRepository>
  journal: ChangeJournal
  outbox: Pick<EventOutbox, 'write'>
  /** Asked to look at the outbox at once (after a test or a retry). */
  worker: { wake(): void }
  /** WEBHOOK_ALLOW_PRIVATE: private and loopback targets allowed. */
  allowPrivate: boolean
  /** Seals the signing secret as it is stored (SECRETS_KEY, ADR 025); the delivery worker opens it. */
  secrets: SecretBox
}

function switchedOff(): AppError {
  return new AppError('webhook_disabled', 'This webhook is switched off. Switch it on first (PUT /api/webhook/{id}/update with "enabled": true).')
}

export function createWebhookService(options: WebhookServiceOptions & { webhooks: Bindable<WebhookRepository> }) {
  const { webhooks } = options
  const { journal, deliveries } = options

  async function getWebhookOrThrow(accountId: number, id: number): Promise<WebhookRow> {
    const webhook = await webhooks.findById(accountId, id)
    if (!webhook) throw NotFoundError.of('Webhook')
    return webhook
  }

  /** An http(s) URL; a literal private or loopback address is refused now (host names are checked at each delivery). */
  function checkedUrl(text: string): string {
    const url = checkHttpUrl('url', text)
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1')
    if (!options.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
      throw ValidationError.field('url', 'must not point at a private, loopback, link-local or reserved address')
    }
    return url
  }

  return {
    /** Seals every signing secret stored before SECRETS_KEY was set (`linkwell secrets seal`); answers how many. */
    async sealStoredSecrets(): Promise<number> {
      let sealed = 0
      for (const { id, secret } of await webhooks.listStoredSecrets()) {
        if (!options.secrets.isSealed(secret) && (await webhooks.replaceStoredSecret(id, secret, options.secrets.seal(secret)))) sealed += 1
      }
      return sealed
    },

    getWebhookOrThrow,

    listWebhooks(accountId: number, page: PageRequest) {
      return webhooks.listPage(accountId, page)
    },

    /** Creates a webhook; answers it with its secret, which is never shown again. */
    async createWebhook(account: AuthenticatedAccount, input: WebhookCreateInput): Promise<{ webhook: WebhookRow; secret: string }> {
      const values = { url: checkedUrl(input.url), events: input.events, description: input.description ?? '' }
      if ((await webhooks.count(account.id)) >= MAX_WEBHOOKS) throw new ValidationError(`An account may have at most ${MAX_WEBHOOKS} webhooks. Delete one first.`)
      const secret = newWebhookSecret()
      return journal.write(account, async (trx) => {
        const webhook = await webhooks.in(trx).insert(account.id, values, options.secrets.seal(secret))
        return { result: { webhook, secret }, changes: [{ action: 'webhook.created', resource: 'webhook', resourceId: webhook.id, fields: givenFields(input), record: toWebhookRecord(webhook) }] }
      })
    },

    async updateWebhook(account: AuthenticatedAccount, id: number, input: WebhookUpdateInput): Promise<WebhookRow> {
      await getWebhookOrThrow(account.id, id)
      const values = { url: input.url === undefined ? undefined : checkedUrl(input.url), events: input.events, description: input.description, enabled: input.enabled }
      return journal.write(account, async (trx) => {
        const repository = webhooks.in(trx)
        if (!(await repository.update(account.id, id, values))) throw NotFoundError.of('Webhook')
        if (input.enabled === false) await deliveries.in(trx).failPending(account.id, id, 'not sent: the webhook was switched off')
        const webhook = (await repository.findById(account.id, id))!
        return { result: webhook, changes: [{ action: 'webhook.updated', resource: 'webhook', resourceId: id, fields: givenFields(input), record: toWebhookRecord(webhook) }] }
      })
    },

    async deleteWebhook(account: AuthenticatedAccount, id: number): Promise<void> {
      const webhook = await getWebhookOrThrow(account.id, id)
      await journal.write(account, async (trx) => {
        if (!(await webhooks.in(trx).delete(account.id, id))) throw NotFoundError.of('Webhook')
        return { result: undefined, changes: [{ action: 'webhook.deleted', resource: 'webhook', resourceId: id, fields: [], record: toWebhookRecord(webhook) }] }
      })
    },

    async listDeliveries(accountId: number, webhookId: number, page: PageRequest) {
      await getWebhookOrThrow(accountId, webhookId)
      return deliveries.listPage(accountId, webhookId, page)
    },

    /** Queues a `webhook.test` event for this webhook alone (tried once); answers its delivery's id. */
    async sendTest(account: AuthenticatedAccount, id: number): Promise<number> {
      const webhook = await getWebhookOrThrow(account.id, id)
      if (webhook.enabled !== 1) throw switchedOff()
      const deliveryId = await journal.write(account, async (trx) => {
        const data = { webhook: id, message: 'A test event from Linkwell: this webhook receives events.' }
        const [event] = await options.outbox.write(trx, [{ accountId: account.id, type: TEST_EVENT, data }], { onlyWebhook: { accountId: account.id, id } })
        const delivery = await deliveries.in(trx).findIdOfEvent(account.id, event!.eventId)
        return { result: delivery, changes: [{ action: 'webhook.tested', resource: 'webhook', resourceId: id, fields: [] }] }
      })
      options.worker.wake()
      return deliveryId
    },

    /** Makes a delivery due now for one more attempt (and retried as before while its 24 hours last). */
    async retryDelivery(account: AuthenticatedAccount, deliveryId: number): Promise<void> {
      const delivery = await deliveries.findById(account.id, deliveryId)
      if (!delivery) throw NotFoundError.of('Delivery')
      const webhook = await getWebhookOrThrow(account.id, delivery.webhook_id)
      if (webhook.enabled !== 1) throw switchedOff()
      const now = nowTimestamp()
      await journal.write(account, async (trx) => {
        if (!(await deliveries.in(trx).retry(account.id, deliveryId, delivery.retry_until > now ? delivery.retry_until : now))) throw NotFoundError.of('Delivery')
        return { result: undefined, changes: [{ action: 'webhook.delivery_retried', resource: 'webhook', resourceId: webhook.id, fields: [], record: { delivery: deliveryId } }] }
      })
      options.worker.wake()
    },
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>
