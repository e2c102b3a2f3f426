// Indexes the raw-click query module reads through (issue 24, docs/adr/022-analytics-engine.md,
// modules/statistics/click-query.ts). An item's filtered answer is scoped by
// `clicks_item_idx (item_type, item_id, created_at)` (migration 003); a workspace's by the account's
// links and a time range, which no index served: `clicks_created_idx` alone walks every account's
// clicks of the range. Filters on dimensions are checked on the rows of that range.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('clicks_account_time_idx').on('clicks').columns(['account_id', 'item_type', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('clicks_account_time_idx').execute()
}
