// Conversions (issue 39, ADR 034): a click id made at redirect time and stored with the click, the
// workspace's settings for it (the parameter's name, whether new links track conversions, whether
// visitors' query strings reach destinations, the attribution window). A link's own switches are
// link options (links.options JSON, ADR 020): `trackconversions` and `passthrough`.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // The unguessable id of a click of a link that tracks conversions; null for every other click.
  await db.schema.alterTable('clicks').addColumn('click_id', 'text').execute()
  await db.schema.createIndex('clicks_click_id').on('clicks').column('click_id').execute()
  // 1: links created without `trackconversions` track them.
  await db.schema.alterTable('accounts').addColumn('track_conversions', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('accounts').addColumn('click_id_parameter', 'text', (col) => col.notNull().defaultTo('lw_id')).execute()
  // 0 for every workspace: visitors' query strings were never passed on, and no client sees a change it did not ask for (ADR 034).
  await db.schema.alterTable('accounts').addColumn('query_passthrough', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('accounts').addColumn('attribution_days', 'integer', (col) => col.notNull().defaultTo(90)).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['attribution_days', 'query_passthrough', 'click_id_parameter', 'track_conversions']) {
    await db.schema.alterTable('accounts').dropColumn(column).execute()
  }
  await db.schema.dropIndex('clicks_click_id').execute()
  await db.schema.alterTable('clicks').dropColumn('click_id').execute()
}
