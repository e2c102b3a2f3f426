// Request and response schemas of the webhook endpoints (issue 22, ADR 018).
import { Type, type Static } from 'typebox'
import { Clearable, DateTime, HttpUrl, listResponse, MULTILINE, UpdateBody } from '../../core/schemas.js'
import { EVENT_TYPES } from './webhook-events.js'

export const EVENT_RULE = `must be a list of event types: ${EVENT_TYPES.join(', ')}`
const EventList = Type.Array(Type.Enum(EVENT_TYPES, { errorMessage: `must be one of ${EVENT_TYPES.join(', ')}` }), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  errorMessage: EVENT_RULE,
  description: 'the events the webhook receives',
})
const Description = Type.String({ maxLength: 500, ...MULTILINE, errorMessage: 'must be text of at most 500 characters' })
const Enabled = Type.Boolean({ errorMessage: 'must be true or false', description: 'false switches the webhook off; true switches it back on (and forgets its failures)' })

export const WebhookCreateBody = Type.Object({
  url: HttpUrl,
  events: EventList,
  description: Type.Optional(Description),
})

export const WebhookUpdateBody = UpdateBody({
  url: Type.Optional(HttpUrl),
  events: Type.Optional(EventList),
  description: Type.Optional(Clearable(Description, 'no description')),
  enabled: Type.Optional(Enabled),
})

export type WebhookCreateInput = Static<typeof WebhookCreateBody>
export type WebhookUpdateInput = Static<typeof WebhookUpdateBody>

const NullableDateTime = Type.Union([DateTime, Type.Null()])

const webhookFields = {
  id: Type.Integer(),
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  /** Why the webhook is off: switched off by a person, or after 3 days of failures. */
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: 'why the webhook is switched off; null while it is on' }),
  disabledAt: NullableDateTime,
  failingSince: Type.Union([DateTime, Type.Null()], { description: 'first failed attempt since the last success; switched off 3 days after it' }),
  date: DateTime,
}

export const WebhookEntry = Type.Object(webhookFields)

export const WebhookListResponse = listResponse('webhooks', WebhookEntry)

export const WebhookDetailsResponse = Type.Object({ error: Type.Literal(0), data: WebhookEntry })

/** The secret is answered here only, once. */
export const WebhookCreatedResponse = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  secret: Type.String({ description: 'the signing secret (`whsec_…`), shown this once: store it to verify `webhook-signature`' }),
})

export const WebhookUpdatedResponse = Type.Object({ error: Type.Literal(0), message: Type.String(), ...webhookFields })

export const DeliveryEntry = Type.Object({
  id: Type.Integer(),
  event: Type.String({ description: 'the event id (`evt_…`), sent as `webhook-id`' }),
  type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  responseCode: Type.Union([Type.Integer(), Type.Null()], { description: 'the last answer\'s HTTP status' }),
  responseTime: Type.Union([Type.Integer(), Type.Null()], { description: 'the last attempt\'s duration, in milliseconds' }),
  responseBody: Type.Union([Type.String(), Type.Null()], { description: 'the first 1 KB of the last answer' }),
  error: Type.Union([Type.String(), Type.Null()]),
  nextTry: Type.Union([DateTime, Type.Null()], { description: 'the next automatic attempt; null once delivered or failed' }),
  lastTry: NullableDateTime,
  date: DateTime,
  request: Type.Object({
    headers: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], { description: 'the last attempt\'s headers; null before the first' }),
    body: Type.String(),
  }),
})

export const DeliveryListResponse = listResponse('deliveries', DeliveryEntry)

export const WebhookTestResponse = Type.Object({ error: Type.Literal(0), message: Type.String(), id: Type.Integer({ description: 'the test delivery, in the log' }) })
