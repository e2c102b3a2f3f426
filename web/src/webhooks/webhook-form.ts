// A webhook form's values and its checks, the server's rules (webhook.schemas.ts) in the browser.
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

/** The form's field for a field the server names: `events.3` is about the list. */
export function webhookFieldOf(serverField: string): WebhookField | undefined {
  if (serverField === 'url' || serverField === 'description') return serverField
  return /^events(\.\d+)?$/.test(serverField) ? 'events' : undefined
}
