// Retention: raw clicks older than CLICK_RETENTION_DAYS may go (`linkwell clicks prune`); the
// aggregates are kept whole, so statistics do not change when their raw clicks are deleted.
import { sql } from 'kysely'
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

/**
 * Deletes raw clicks recorded before `before` (`YYYY-MM-DD HH:MM:SS`, UTC); answers how many.
 * Account by account: raw clicks have one time index, `(account_id, created_at)` (migration 029),
 * and each account's old clicks are the start of its range there.
 */
export async function pruneRawClicks(db: DB, before: string, chunk = 10_000): Promise<number> {
  let deleted = 0
  for (const accountId of await accountsWithClicks(db)) {
    deleted += await deleteInChunks(chunk, () =>
      db.deleteFrom('clicks').where('id', 'in', (eb) =>
        eb.selectFrom('clicks').select('id').where('account_id', '=', accountId).where('created_at', '<', before).limit(chunk)).executeTakeFirstOrThrow(),
    )
  }
  return deleted
}

/**
 * The accounts that have raw clicks (a deleted account's too: clicks keep no foreign key), one
 * index seek each: a loose scan of `clicks_account_created_idx` written as a recursive query,
 * which SQLite and PostgreSQL both run without reading every click.
 */
async function accountsWithClicks(db: DB): Promise<number[]> {
  const { rows } = await sql<{ id: number | string }>`with recursive seen(id) as (
      select min(account_id) from clicks
      union all
      select (select min(account_id) from clicks where account_id > seen.id) from seen where seen.id is not null
    ) select id from seen where id is not null`.execute(db)
  return rows.map((row) => Number(row.id))
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
