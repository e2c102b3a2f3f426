// Rate-limit counters on PostgreSQL are written by every API request (instances without Redis):
// as an unlogged table they cost no write-ahead log and no flush to disk per request. After a crash
// PostgreSQL empties an unlogged table, which resets windows of at most a minute; standbys do not
// get its rows, which a promoted standby starts without in the same way. SQLite has no such tables.
import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`alter table rate_limits set unlogged`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`alter table rate_limits set logged`.execute(db)
}
