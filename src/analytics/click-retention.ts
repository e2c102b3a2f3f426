// Retention: raw clicks older than CLICK_RETENTION_DAYS may go (`linkwell clicks prune`); the
// aggregates are kept whole, so statistics do not change when their raw clicks are deleted.
import type { DB } from '../db/database.js'
import { SALT_KEY_PREFIX } from './visitor-hash.js'
import { daysBefore } from '../core/time.js'


/**
 * Runs a delete of at most `chunk` rows until one deletes fewer: a large prune never holds the
 * database (or the click writer, and on SQLite every query) for long. Answers the rows deleted.
 */
async function deleteInChunks(chunk: number, deleteChunk: () => Promise<{ numDeletedRows: bigint }>): Promise<number> {
  let deleted = 0
  for (;;) {
    const count = Number((await deleteChunk()).numDeletedRows)
    deleted += count
    if (count < chunk) return deleted
  }
}

/** Deletes raw clicks recorded before `before` (`YYYY-MM-DD HH:MM:SS`, UTC); answers how many. */
export async function pruneRawClicks(db: DB, before: string, chunk = 10_000): Promise<number> {
  return deleteInChunks(chunk, () =>
    db.deleteFrom('clicks').where('id', 'in', (eb) => eb.selectFrom('clicks').select('id').where('created_at', '<', before).limit(chunk)).executeTakeFirstOrThrow(),
  )
}

/**
 * Drops the visitor hashes of days before yesterday, and those days' salts: uniqueness is decided
 * per day, and a batch written just after midnight may still hold yesterday's clicks.
 */
export async function pruneVisitorDays(db: DB, today: string, chunk = 10_000): Promise<number> {
  const before = daysBefore(today, 1)
  const deleted = await deleteInChunks(chunk, () =>
    db
      .deleteFrom('click_visitors')
      .where((eb) => eb(eb.refTuple('day', 'item_type', 'item_id', 'visitor_hash'), 'in',
        // A row-value IN (SQLite ≥ 3.15, PostgreSQL): the table has no single-column key.
        eb.selectFrom('click_visitors').select(['day', 'item_type', 'item_id', 'visitor_hash']).where('day', '<', before).limit(chunk).$asTuple('day', 'item_type', 'item_id', 'visitor_hash')))
      .executeTakeFirstOrThrow(),
  )
  // With the salts gone, the hashes of those days can no longer be tied to anyone.
  await db.deleteFrom('settings').where('key', 'like', `${SALT_KEY_PREFIX}%`).where('key', '<', `${SALT_KEY_PREFIX}${before}`).execute()
  return deleted
}
