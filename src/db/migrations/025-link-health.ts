// Link health (issue 23, "Links that report when they break"; docs/adr/026-link-health.md): what
// the background checker (modules/link-health/link-checker.ts) last found at each link's
// destination, and when the link is next due. `health_next_at` is '' for a link never checked,
// which sorts before every timestamp, so "due" is one indexed range: `health_next_at <= now`.
// One column per ALTER TABLE: SQLite adds a single column at a time. Updating these columns
// counts as a change of the link for its account's list version (migration 008's triggers).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // ok | redirected | broken | unknown
  await db.schema.alterTable('links').addColumn('health', 'text', (col) => col.notNull().defaultTo('unknown')).execute()
  await db.schema.alterTable('links').addColumn('health_status', 'integer').execute()
  await db.schema.alterTable('links').addColumn('health_checked_at', 'text').execute()
  await db.schema.alterTable('links').addColumn('health_next_at', 'text', (col) => col.notNull().defaultTo('')).execute()
  await db.schema.createIndex('links_health_next_at').on('links').columns(['health_next_at']).execute()
  await db.schema.createIndex('links_account_id_health').on('links').columns(['account_id', 'health']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('links_account_id_health').execute()
  await db.schema.dropIndex('links_health_next_at').execute()
  for (const column of ['health_next_at', 'health_checked_at', 'health_status', 'health']) {
    await db.schema.alterTable('links').dropColumn(column).execute()
  }
}
