// Retention: raw clicks older than CLICK_RETENTION_DAYS may go (`linkwell clicks prune`); the
// aggregates are kept whole, so statistics do not change when their raw clicks are deleted.
import type { DB } from '../db/database.js'
import { SALT_KEY_PREFIX } from './visitor-hash.js'

const DAY_MS = 86_400_000

/** The day `days` days before `day` (both `YYYY-MM-DD`, UTC). */
export function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10)
}

/**
 * Deletes raw clicks recorded before `before` (`YYYY-MM-DD HH:MM:SS`, UTC), `chunk` rows per
 * statement so that a large prune never holds the database (or the click writer) for long.
 * Answers how many were deleted.
 */
export async function pruneRawClicks(db: DB, before: string, chunk = 10_000): Promise<number> {
  let deleted = 0
  for (;;) {
    const result = await db
      .deleteFrom('clicks')
      .where('id', 'in', (eb) => eb.selectFrom('clicks').select('id').where('created_at', '<', before).limit(chunk))
      .executeTakeFirst()
    const count = Number(result.numDeletedRows)
    deleted += count
    if (count < chunk) break
  }
  // With the salts gone, the hashes of those days can no longer be tied to anyone.
  await db.deleteFrom('settings').where('key', 'like', `${SALT_KEY_PREFIX}%`).where('key', '<', `${SALT_KEY_PREFIX}${before}`).execute()
  return deleted
}

/**
 * Drops the visitor hashes of days before yesterday: uniqueness is decided per day, and a batch
 * written just after midnight may still hold yesterday's clicks.
 */
export async function pruneVisitorDays(db: DB, today: string, chunk = 10_000): Promise<number> {
  // In chunks, like raw clicks: a busy day leaves millions of rows, and one statement deleting them
  // all would hold the click writer (and, on SQLite, every query) until it is done.
  const before = daysBefore(today, 1)
  let deleted = 0
  for (;;) {
    const result = await db
      .deleteFrom('click_visitors')
      .where((eb) => eb(eb.refTuple('day', 'item_type', 'item_id', 'visitor_hash'), 'in',
        // A row-value IN (SQLite ≥ 3.15, PostgreSQL); Kysely's types do not model it.
        eb.selectFrom('click_visitors').select(['day', 'item_type', 'item_id', 'visitor_hash']).where('day', '<', before).limit(chunk) as never))
      .executeTakeFirst()
    const count = Number(result.numDeletedRows)
    deleted += count
    if (count < chunk) break
  }
  // With the salts gone, the hashes of those days can no longer be tied to anyone.
  await db.deleteFrom('settings').where('key', 'like', `${SALT_KEY_PREFIX}%`).where('key', '<', `${SALT_KEY_PREFIX}${before}`).execute()
  return deleted
}
