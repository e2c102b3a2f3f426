// The event stream (issue 22, ADR 018): with EVENTS_URL set every outbox event is also published to
// NATS JetStream. An event waiting to be published has `stream_next_at` (its next attempt, moved a
// lease ahead by the publisher that takes it); a published one has `streamed_at`.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox_events').addColumn('stream_next_at', 'text').execute()
  await db.schema.alterTable('outbox_events').addColumn('streamed_at', 'text').execute()
  await db.schema.createIndex('outbox_events_stream_next_at').on('outbox_events').column('stream_next_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_events_stream_next_at').execute()
  await db.schema.alterTable('outbox_events').dropColumn('streamed_at').execute()
  await db.schema.alterTable('outbox_events').dropColumn('stream_next_at').execute()
}
