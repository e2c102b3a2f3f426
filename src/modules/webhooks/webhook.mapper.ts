// Webhook and delivery rows to API records (the secret is never among them).
import type { WebhookDeliveryRow, WebhookRow } from '../../db/schema.js'

export function toWebhookRecord(webhook: WebhookRow) {
  return {
    id: webhook.id,
    url: webhook.url,
    description: webhook.description,
    events: JSON.parse(webhook.events) as string[],
    enabled: webhook.enabled === 1,
    disabledReason: webhook.enabled === 1 ? null : webhook.disabled_reason,
    disabledAt: webhook.enabled === 1 ? null : webhook.disabled_at,
    failingSince: webhook.failing_since,
    date: webhook.created_at,
  }
}

const STATUSES = ['pending', 'delivered', 'failed'] as const

export function toDeliveryRecord(delivery: WebhookDeliveryRow & { event: string; type: string; payload: string }) {
  const status = STATUSES.find((known) => known === delivery.status)
  // Rows are only written by the outbox and the worker: another value is a broken database.
  if (!status) throw new Error(`delivery ${delivery.id} has the unknown status "${delivery.status}"`)
  return {
    id: delivery.id,
    event: delivery.event,
    type: delivery.type,
    status,
    attempts: delivery.attempts,
    responseCode: delivery.response_status,
    responseTime: delivery.response_ms,
    responseBody: delivery.response_body,
    error: delivery.error,
    nextTry: status === 'pending' ? delivery.next_attempt_at : null,
    lastTry: delivery.last_attempt_at,
    date: delivery.created_at,
    request: { headers: delivery.request_headers === null ? null : (JSON.parse(delivery.request_headers) as Record<string, string>), body: delivery.payload },
  }
}
