// What Linkwell tells other systems (ADR 018): the event types a webhook may subscribe to, and the
// one body every event is sent as, `{id, type, timestamp, workspace, data}`.
import { randomBytes } from 'node:crypto'
import { isoTimestamp } from '../../core/time.js'

/** Changes of records, reported with the record as the API shows it (before a deletion). */
const RECORD_EVENTS = [
  'link.created', 'link.updated', 'link.deleted',
  'qr.created', 'qr.updated', 'qr.deleted',
  'bio.created', 'bio.updated', 'bio.deleted',
  'campaign.created', 'campaign.updated', 'campaign.deleted',
  'channel.created', 'channel.updated', 'channel.deleted',
  'tag.created', 'tag.updated', 'tag.deleted',
] as const

/** Members' changes, reported with the member as `GET /api/members` shows them (id, username, email, role). */
const MEMBER_EVENTS = ['member.added', 'member.updated', 'member.removed'] as const

/** The journal's member actions (their audit names) and the event each is reported as. */
const EVENT_OF_MEMBER_ACTION: Readonly<Record<string, (typeof MEMBER_EVENTS)[number]>> = {
  'member.added': 'member.added',
  // Accepting an invitation adds a member too.
  'member.joined': 'member.added',
  'member.role_changed': 'member.updated',
  'member.removed': 'member.removed',
}

/** Every event a webhook may subscribe to. */
export const EVENT_TYPES = [
  ...RECORD_EVENTS,
  // Recorded clicks, from the click writer's batch: several in one event.
  'link.clicked',
  'qr.scanned',
  // What a visitor sent through a contact overlay.
  'contact.submitted',
  // The workspace's people (issue 20): joined or added, role changed, removed or left.
  ...MEMBER_EVENTS,
  // The link checker found a link's destination broken, or answering again (modules/link-health).
  'link.broken',
  'link.recovered',
  // Conversions (issue 39): a lead or a sale recorded (tracking API, Stripe), with its record.
  'lead.created',
  'sale.created',
] as const

export type EventType = (typeof EVENT_TYPES)[number]

/** The event `POST /api/webhook/{id}/test` sends to one webhook (not subscribable). */
export const TEST_EVENT = 'webhook.test'

const RECORD_EVENT_SET: ReadonlySet<string> = new Set(RECORD_EVENTS)

/** True for a change the journal records that webhooks report under its own name (`link.created`, …). */
export function isRecordEvent(action: string): action is EventType {
  return RECORD_EVENT_SET.has(action)
}

/** The event a change the journal records is reported as (`member.role_changed` → `member.updated`); undefined: none. */
export function eventTypeOfChange(action: string): EventType | undefined {
  return isRecordEvent(action) ? action : EVENT_OF_MEMBER_ACTION[action]
}

/**
 * Data already written as JSON text: the clicks of a batch, written without an object per click
 * (event-outbox.ts `clicksJson`), exactly as JSON.stringify would write them.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** An event before it is written: who it belongs to, what it says. */
export interface NewEvent {
  accountId: number
  type: EventType | typeof TEST_EVENT
  data: unknown
}

/** An event as written to the outbox: its id and the exact body every delivery sends. */
export interface WrittenEvent {
  eventId: string
  accountId: number
  type: string
  payload: string
}

/** A new event id: `evt_` and 128 random bits. */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('base64url')}`
}

/** The body of an event: id, type, ISO 8601 time, workspace (the account) and the data. */
export function eventBody(event: NewEvent, eventId: string, at: Date): string {
  if (!(event.data instanceof JsonText)) return JSON.stringify({ id: eventId, type: event.type, timestamp: isoTimestamp(at), workspace: event.accountId, data: event.data })
  // The same bytes: `data` is the last key, its placeholder `0}` replaced by the text.
  const head = JSON.stringify({ id: eventId, type: event.type, timestamp: isoTimestamp(at), workspace: event.accountId, data: 0 })
  return `${head.slice(0, -2)}${event.data.text}}`
}
