// Webhook endpoints (issue 22): add (the secret answered once), list, read, update, delete, the
// delivery log, a test event, and a manual retry of one delivery.
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'
import type { WebhookService } from './webhook.service.js'
import { toDeliveryRecord, toWebhookRecord } from './webhook.mapper.js'
import {
  DeliveryListResponse,
  WebhookCreateBody,
  WebhookCreatedResponse,
  WebhookDetailsResponse,
  WebhookListResponse,
  WebhookTestResponse,
  WebhookUpdateBody,
  WebhookUpdatedResponse,
} from './webhook.schemas.js'

const tags = ['webhooks']

/** What the routes use, handed over by app.ts. */
export interface WebhookRouteDependencies {
  webhooks: WebhookService
  listEnvelope: ListEnvelope
}

export function registerWebhookRoutes(app: App, { webhooks, listEnvelope }: WebhookRouteDependencies): void {
  app.get('/api/webhooks', {
    schema: { tags, summary: 'List webhooks', querystring: PageQuery, response: { 200: WebhookListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await webhooks.listWebhooks(accountOf(request).id, page)
    return listEnvelope('webhooks', page, total, rows.map(toWebhookRecord))
  })

  app.get('/api/webhook/:id', {
    schema: { tags, summary: 'Read one webhook (never its secret)', params: IdParams, response: { 200: WebhookDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const webhook = await webhooks.getWebhookOrThrow(accountOf(request).id, request.params.id)
    return { error: 0 as const, data: toWebhookRecord(webhook) }
  })

  app.post('/api/webhook/add', {
    schema: {
      tags,
      summary: 'Add a webhook; the answer carries its signing secret, shown this once',
      description: 'Events are POSTed as JSON `{id, type, timestamp, workspace, data}`, signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`), retried with back-off for 24 hours; a webhook failing for 3 days is switched off.',
      body: WebhookCreateBody,
      response: { 201: WebhookCreatedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const { webhook, secret } = await webhooks.createWebhook(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, id: webhook.id, secret })
  })

  app.put('/api/webhook/:id/update', {
    schema: { tags, summary: 'Update a webhook, or switch it off or on (`enabled`)', params: IdParams, body: WebhookUpdateBody, response: { 200: WebhookUpdatedResponse, ...errorResponses } },
  }, async (request) => {
    const webhook = await webhooks.updateWebhook(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'Webhook has been updated successfully.', ...toWebhookRecord(webhook) }
  })

  app.delete('/api/webhook/:id/delete', {
    schema: { tags, summary: 'Delete a webhook and its delivery log', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await webhooks.deleteWebhook(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Webhook has been deleted successfully.' }
  })

  app.get('/api/webhook/:id/deliveries', {
    schema: { tags, summary: 'The webhook\'s deliveries, newest first: status, attempts, the last request and answer, the next try', params: IdParams, querystring: PageQuery, response: { 200: DeliveryListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await webhooks.listDeliveries(accountOf(request).id, request.params.id, page)
    return listEnvelope('deliveries', page, total, rows.map(toDeliveryRecord))
  })

  app.post('/api/webhook/:id/test', {
    schema: { tags, summary: 'Send a `webhook.test` event to this webhook (tried once; see its deliveries)', params: IdParams, response: { 200: WebhookTestResponse, ...errorResponses } },
  }, async (request) => {
    const id = await webhooks.sendTest(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'A test event is on its way.', id }
  })

  app.post('/api/delivery/:id/retry', {
    schema: { tags, summary: 'Try a delivery again now', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await webhooks.retryDelivery(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'The delivery will be tried again now.' }
  })
}
