// A webhook form's values and its checks, the server's rules (webhook.schemas.ts) in the browser.
import { placeServerError, type PlacedError } from '../components/server-field-error'
import type { WebhookEvent } from './webhook-queries'

export interface WebhookFormValues {
  url: string
  description: string
  events: WebhookEvent[]
}

export type WebhookField = 'url' | 'description' | 'events'

export function validateWebhookForm(values: WebhookFormValues): Partial<Record<WebhookField, string>> {
  const errors: Partial<Record<WebhookField, string>> = {}
  const url = values.url.trim()
  if (!/^https?:\/\/\S+$/i.test(url)) errors.url = 'Enter the http or https address that receives the events.'
  if (values.description.length > 500) errors.description = 'At most 500 characters.'
  if (values.events.length === 0) errors.events = 'Choose at least one event.'
  return errors
}

export function placeWebhookError(error: unknown): PlacedError<WebhookField> {
  const placed = placeServerError<WebhookField>(error, ['url', 'description', 'events'])
  // `events.3` is about the list.
  if (!placed.field && /"events\.\d+"/.test(placed.message)) return { field: 'events', message: placed.message }
  return placed
}
