// Standard Webhooks signatures (https://www.standardwebhooks.com): the receiver checks
// `webhook-signature` = `v1,` + base64(HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")),
// the key being the base64 after `whsec_` of the webhook's secret. Any Standard Webhooks library
// verifies it (the tests use the reference one, `standardwebhooks`).
import { createHmac, randomBytes } from 'node:crypto'

const SECRET_PREFIX = 'whsec_'

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64')
}

/** The headers that identify, date and sign one attempt of one event (`body`: its text, or its UTF-8 bytes). */
export function signatureHeaders(secret: string, eventId: string, at: Date, body: string | Uint8Array): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000))
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  // The signed content is "id.timestamp.body", fed in two parts: the body is not copied into a new string.
  const signature = createHmac('sha256', key).update(`${eventId}.${timestamp}.`).update(body).digest('base64')
  return { 'webhook-id': eventId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` }
}
