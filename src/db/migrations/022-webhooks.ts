// Webhooks (issue 22, ADR 018): the endpoints an account registers, the outbox of events written in
// the transaction of the change they report, and one delivery per event and subscribed webhook,
// which the delivery worker takes (PostgreSQL: `for update skip locked`), tries and retries.
import type { Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)
  await addIdColumn(db.schema.createTable('webhooks'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    // JSON array of the event types the webhook receives.
    .addColumn('events', 'text', (col) => col.notNull())
    // `whsec_…`: the receiver checks signatures with it, so it is kept as given (shown once).
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
    // First failed attempt since the last success; null while deliveries succeed.
    .addColumn('failing_since', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('webhooks_account_id').on('webhooks').columns(['account_id', 'id']).execute()

  await addIdColumn(db.schema.createTable('outbox_events'), dialect)
    // `evt_…`: the payload's id and the `webhook-id` header, the same on every attempt.
    .addColumn('event_id', 'text', (col) => col.notNull().unique())
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('type', 'text', (col) => col.notNull())
    // The JSON body every delivery sends, byte for byte (its signature covers these bytes).
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('outbox_events_created_at').on('outbox_events').column('created_at').execute()

  await addIdColumn(db.schema.createTable('webhook_deliveries'), dialect)
    .addColumn('webhook_id', 'integer', (col) => col.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (col) => col.notNull())
    .addColumn('event_id', 'integer', (col) => col.notNull().references('outbox_events.id').onDelete('cascade'))
    // pending | delivered | failed
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    // When a worker may take it next (a worker taking it moves this past its attempt: a lease).
    .addColumn('next_attempt_at', 'text')
    // No automatic attempt after this (24 hours after the event, or the moment of a manual retry).
    .addColumn('retry_until', 'text', (col) => col.notNull())
    .addColumn('last_attempt_at', 'text')
    // The last attempt: the headers sent (JSON), the answer's status, time and first bytes, or the error.
    .addColumn('request_headers', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('response_ms', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('delivered_at', 'text')
    .execute()
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute()
  await db.schema.createIndex('webhook_deliveries_webhook_id').on('webhook_deliveries').columns(['webhook_id', 'id']).execute()
  await db.schema.createIndex('webhook_deliveries_event_id').on('webhook_deliveries').column('event_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute()
  await db.schema.dropTable('outbox_events').execute()
  await db.schema.dropTable('webhooks').execute()
}
