// One time index on raw clicks instead of two (issue 23's redirect bound, issue 24's "redirect
// throughput not lower by more than 10 %"): every recorded click writes an entry in each index of
// `clicks`, and migration 026 had added a fourth. Every reader by time is scoped by account:
// - a workspace's statistics (modules/statistics/click-query.ts): the account's range, link clicks;
// - the clicks export (modules/exports/export.repository.ts): the account's range, in time order;
// - retention (analytics/click-retention.ts): account by account.
// So `(account_id, created_at)` serves them all, and `clicks_created_idx` (time alone, migration 003)
// and `clicks_account_time_idx` (migration 026) go. Measured in docs/adr/022-analytics-engine.md.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('clicks_account_created_idx').on('clicks').columns(['account_id', 'created_at']).execute()
  await db.schema.dropIndex('clicks_account_time_idx').execute()
  await db.schema.dropIndex('clicks_created_idx').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('clicks_created_idx').on('clicks').column('created_at').execute()
  await db.schema.createIndex('clicks_account_time_idx').on('clicks').columns(['account_id', 'item_type', 'created_at']).execute()
  await db.schema.dropIndex('clicks_account_created_idx').execute()
}
