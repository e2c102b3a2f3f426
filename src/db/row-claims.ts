// Rows of a queue that several instances work through (webhook deliveries): each row must be taken
// by one of them. On PostgreSQL the select that picks them locks what it picks and skips what
// another transaction has locked (`for update skip locked`), so two workers never take the same
// row and neither waits for the other. SQLite has one writer at a time and one instance (ADR 018):
// the statement alone is enough there.
import type { SelectQueryBuilder } from 'kysely'
import type { DB } from './database.js'
import { dialectOf } from './dialect.js'

/** `query`, locking the rows it selects and skipping rows others have locked (PostgreSQL). */
export function skippingLockedRows<DBT, TB extends keyof DBT, O>(db: DB, query: SelectQueryBuilder<DBT, TB, O>): SelectQueryBuilder<DBT, TB, O> {
  return dialectOf(db) === 'postgres' ? query.forUpdate().skipLocked() : query
}
