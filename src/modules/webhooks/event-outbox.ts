// The outbox (ADR 018): every event is written in the transaction of the change it reports, with
// one delivery for each webhook of the account that subscribes to it, so a change that commits
// always sends and one that rolls back never does. Three writers feed it: the change journal (a
// listener: records created, updated, deleted), the click writer (a hook in its batch transaction:
// exactly the recorded clicks) and visitors' contact messages (`emitting`). The delivery worker
// (delivery-worker.ts) sends what it holds; a click batch's deliveries it is handed as the batch
// commits, written leased to it, so they go at once and are not read back.
import type { ClickBatchEnd, ClickInsertRow } from '../../analytics/click-writer.js'
import { nowTimestamp } from '../../core/time.js'
import type { DB } from '../../db/database.js'
import { inTransaction } from '../../db/transactions.js'
import type { Bindable } from '../../db/transactions.js'
import type { DeliveryWorker } from './delivery-worker.js'
import type { EventOutboxRepository } from './event-outbox.repository.js'
import type { TakenDelivery, WebhookDeliveryRepository } from './webhook-delivery.repository.js'
import type { WebhookRepository } from './webhook.repository.js'
import type { ChangeListener } from '../changes/change-journal.js'
import { eventBody, eventTypeOfChange, JsonText, newEventId, type NewEvent, type WrittenEvent } from './webhook-events.js'
import { enrichedFieldsOf } from '../../analytics/click-items.js'

/** How long a delivery is retried after its event (then it has failed). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000

/** At most this many clicks in one `link.clicked` or `qr.scanned` event (a batch may hold thousands). */
export const CLICKS_PER_EVENT = 500

export interface EventOutboxOptions {
  /** The clock (tests move it). */
  now?: () => Date
  /** EVENTS_URL is set: every event is written, for the event stream, whoever subscribes (event-stream.ts). */
  stream?: boolean
  /** This process's delivery worker: a click batch's deliveries are handed to it as the batch commits. */
  worker?: Pick<DeliveryWorker, 'reserve' | 'release' | 'handOver'>
}

/** A subscribed webhook as the outbox reads it: enough to send to it. */
interface Subscriber {
  id: number
  url: string
  secret: string
  events: Set<string>
}

/** How `write` writes: for one webhook alone (a test), to subscriptions already read in this transaction, handing deliveries over. */
interface WriteOptions {
  onlyWebhook?: { accountId: number; id: number }
  subscribers?: Map<number, Subscriber[]>
  handing?: TakenDelivery[]
}

/** Adds events to the transaction `work` runs in; they are written before it commits. */
export type Emit = (event: NewEvent) => void

/** A recorded click as events show it: the item, when, and what the click writer derived. */
export function toClickRecord(row: ClickInsertRow) {
  return {
    [row.item_type]: row.item_id,
    date: row.created_at,
    ...enrichedFieldsOf(row),
  }
}

/** Distinct texts a batch's clicks repeat (dates, countries, browsers …) whose JSON is kept for the batch. */
const KEPT_TEXTS = 1_000

/**
 * `{"clicks":[…]}` of these rows: byte for byte what JSON.stringify({ clicks: rows.map(toClickRecord) })
 * writes (a test holds them equal), without an object per click, and each of the few distinct
 * values of a batch escaped once. It runs in the click batch's transaction, for every click.
 */
export function clicksJson(rows: readonly ClickInsertRow[]): string {
  const texts = new Map<string, string>()
  const text = (value: string | null): string => {
    if (value === null) return 'null'
    let json = texts.get(value)
    if (json === undefined) {
      json = JSON.stringify(value)
      if (texts.size < KEPT_TEXTS) texts.set(value, json)
    }
    return json
  }
  // Appended to one string (a rope the database's binding flattens once): no array of per-click
  // strings to join; 465 clicks took 124 µs instead of 156, with a quarter fewer collections.
  let json = '{"clicks":['
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index]!
    if (index > 0) json += ','
    // The keys of toClickRecord, in its order (`+`, not a template: measured faster here).
    json += '{' + text(row.item_type) + ':' + row.item_id + ',"date":' + text(row.created_at) + ',"country":' + text(row.country) + ',"referrer":' + text(row.referrer_host) +
      ',"browser":' + text(row.browser) + ',"os":' + text(row.os) + ',"device":' + text(row.device) + ',"language":' + text(row.language) + (row.is_unique === 1 ? ',"unique":true}' : ',"unique":false}')
  }
  return `${json}]}`
}

/** The event type of a clicked item's recorded clicks, for the items events report. */
const CLICK_EVENTS: Partial<Record<ClickInsertRow['item_type'], 'link.clicked' | 'qr.scanned'>> = { link: 'link.clicked', qr: 'qr.scanned' }

/**
 * The tables the outbox writes and reads, each through its repository, bound to the transaction
 * of the change an event reports; `db` opens the transactions of `emitting`.
 */
export interface EventOutboxRepositories {
  db: DB
  events: Bindable<EventOutboxRepository>
  deliveries: Bindable<WebhookDeliveryRepository>
  webhooks: Bindable<Pick<WebhookRepository, 'listEnabledOf'>>
}

export function createEventOutbox(options: EventOutboxRepositories & EventOutboxOptions) {
  const repositories: EventOutboxRepositories = options
  const { db } = repositories
  const now = options.now ?? (() => new Date())
  const stream = options.stream ?? false

  /** The enabled webhooks of these accounts and the events each receives. */
  async function subscribersOf(trx: DB, accountIds: number[]): Promise<Map<number, Subscriber[]>> {
    const byAccount = new Map<number, Subscriber[]>()
    if (accountIds.length === 0) return byAccount
    const rows = await repositories.webhooks.in(trx).listEnabledOf(accountIds)
    for (const row of rows) {
      const list = byAccount.get(row.account_id) ?? []
      list.push({ id: row.id, url: row.url, secret: row.secret, events: new Set(JSON.parse(row.events) as string[]) })
      byAccount.set(row.account_id, list)
    }
    return byAccount
  }

  /**
   * Writes `events` on `trx` with a delivery for every webhook that receives them (or for
   * `onlyWebhook` alone: a test), and for the event stream when there is one; events nobody
   * receives are not written. Answers what was written. With `handing` (a click batch, and a
   * worker to hand to), deliveries are written leased to the worker in the places it reserved,
   * and collected there for `handOver` after the commit.
   */
  async function write(trx: DB, events: readonly NewEvent[], how: WriteOptions = {}): Promise<WrittenEvent[]> {
    if (events.length === 0) return []
    const { onlyWebhook, handing } = how
    // null events: the one webhook a test is for, whatever it subscribes to.
    const targets: Map<number, Array<{ id: number; events: Set<string> | null } | Subscriber>> = onlyWebhook
      ? new Map([[onlyWebhook.accountId, [{ id: onlyWebhook.id, events: null }]]])
      : how.subscribers ?? await subscribersOf(trx, [...new Set(events.map((event) => event.accountId))])
    const at = now()
    const createdAt = nowTimestamp(at)
    // A test is for its webhook alone.
    const streamed = stream && !onlyWebhook
    const written: Array<WrittenEvent & { webhooks: Array<{ id: number; events: Set<string> | null } | Subscriber> }> = []
    for (const event of events) {
      const webhooks = (targets.get(event.accountId) ?? []).filter((hook) => hook.events === null || hook.events.has(event.type))
      if (webhooks.length === 0 && !streamed) continue
      const eventId = newEventId()
      written.push({ eventId, accountId: event.accountId, type: event.type, payload: eventBody(event, eventId, at), webhooks })
    }
    if (written.length === 0) return []
    const ids = await repositories.events.in(trx).insert(written.map((event) => ({ event_id: event.eventId, account_id: event.accountId, type: event.type, payload: event.payload, created_at: createdAt, stream_next_at: streamed ? createdAt : null })))
    const idOf = new Map(ids.map((row) => [row.event_id, row.id]))
    const answered = written.map(({ webhooks: _webhooks, ...event }) => event)
    const retryUntil = nowTimestamp(new Date(at.getTime() + RETRY_WINDOW_MS))
    const deliveries = written.flatMap((event) => event.webhooks.map((webhook) => ({ event, webhook })))
    if (deliveries.length === 0) return answered
    // The first `places` deliveries are leased to this process's worker, to be handed over.
    // (A test's delivery is never handed over: it is for its webhook alone, read by id.)
    const lease = handing && !onlyWebhook && options.worker ? options.worker.reserve(deliveries.length, at) : { places: 0, leasedUntil: createdAt }
    const values = deliveries.map(({ event, webhook }, index) => ({
      webhook_id: webhook.id,
      account_id: event.accountId,
      event_id: idOf.get(event.eventId)!,
      status: 'pending',
      next_attempt_at: index < lease.places ? lease.leasedUntil : createdAt,
      retry_until: retryUntil,
      created_at: createdAt,
    }))
    const deliveryRows = repositories.deliveries.in(trx)
    if (lease.places === 0 || !handing) {
      await deliveryRows.insert(values)
      return answered
    }
    let rows: Array<{ id: number; event_id: number; webhook_id: number }>
    try {
      rows = await deliveryRows.insertReturningIds(values)
    } catch (error) {
      options.worker?.release(lease.places)
      throw error
    }
    // Each delivery is one event's for one webhook.
    const deliveryOf = new Map(rows.map((row) => [`${row.event_id} ${row.webhook_id}`, row.id]))
    for (const { event, webhook } of deliveries.slice(0, lease.places)) {
      // Every target but a test's is a subscriber read with its URL and secret.
      if (!('url' in webhook)) continue
      handing.push({
        id: deliveryOf.get(`${idOf.get(event.eventId)!} ${webhook.id}`)!,
        attempts: 0,
        retry_until: retryUntil,
        webhook_id: webhook.id,
        url: webhook.url,
        secret: webhook.secret,
        enabled: 1,
        event_id: event.eventId,
        type: event.type,
        payload: event.payload,
        event_created_at: createdAt,
      })
    }
    return answered
  }

  /** The change journal's listener: every event a change reports (records', members'), in its transaction. */
  const onChanges: ChangeListener = async (trx, actor, changes) => {
    const events = changes.flatMap((change) => {
      const type = eventTypeOfChange(change.action)
      return type ? [{ accountId: change.accountId ?? actor.id, type, data: change.record ?? null }] : []
    })
    await write(trx, events)
  }

  /**
   * The click writer's hook: the batch's clicks of links and QR codes, per account, in its
   * transaction. Answers what to do once the transaction has ended: hand the deliveries written
   * leased to the worker over, or give their places back.
   */
  async function onClickBatch(trx: DB, rows: readonly ClickInsertRow[]): Promise<ClickBatchEnd | undefined> {
    const clicksOf = new Map<string, { accountId: number; type: 'link.clicked' | 'qr.scanned'; rows: ClickInsertRow[] }>()
    for (const row of rows) {
      const type = CLICK_EVENTS[row.item_type]
      if (!type) continue
      const key = `${row.account_id} ${type}`
      let group = clicksOf.get(key)
      if (!group) clicksOf.set(key, (group = { accountId: row.account_id, type, rows: [] }))
      group.rows.push(row)
    }
    if (clicksOf.size === 0) return undefined
    // Most batches go to accounts without a webhook for clicks: one look-up, nothing else (unless
    // the event stream takes every event).
    const subscribers = stream ? null : await subscribersOf(trx, [...new Set([...clicksOf.values()].map((group) => group.accountId))])
    const events: NewEvent[] = []
    for (const group of clicksOf.values()) {
      if (subscribers && !subscribers.get(group.accountId)?.some((hook) => hook.events.has(group.type))) continue
      for (let start = 0; start < group.rows.length; start += CLICKS_PER_EVENT) {
        events.push({ accountId: group.accountId, type: group.type, data: new JsonText(clicksJson(group.rows.slice(start, start + CLICKS_PER_EVENT))) })
      }
    }
    const handing: TakenDelivery[] = []
    // The subscriptions just read in this transaction are what `write` would read again.
    await write(trx, events, { subscribers: subscribers ?? undefined, handing })
    if (handing.length === 0) return undefined
    return {
      committed: () => options.worker?.handOver(handing),
      rolledBack: () => options.worker?.release(handing.length),
    }
  }

  return {
    write,
    onChanges,
    onClickBatch,

    /** Runs `work` in a transaction whose events (`emit`) are written before it commits: writes no person makes (contact messages). */
    async emitting<T>(work: (trx: DB, emit: Emit) => Promise<T>): Promise<T> {
      return inTransaction(db, async (trx) => {
        const events: NewEvent[] = []
        const result = await work(trx, (event) => events.push(event))
        await write(trx, events)
        return result
      })
    },
  }
}

export type EventOutbox = ReturnType<typeof createEventOutbox>
