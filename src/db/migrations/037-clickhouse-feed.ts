// The ClickHouse feeder's place (issue 40, ADR 035): one row that says which instance holds the
// lease to copy clicks into ClickHouse and until when, the highest click id copied, the ids skipped
// over (a PostgreSQL transaction that had not committed yet) still looked for, and the last
// journal id read for deletions. Kept in the main database, so an instance that takes over goes
// on from the same place. Written by analytics/clickhouse-feeder.ts only.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('clickhouse_feed')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_id', 'bigint', (col) => col.notNull().defaultTo(0))
    // JSON [[id, first missed (ms)], …]
    .addColumn('gaps', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('audit_id', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('retention_at', 'text')
    .addColumn('fed_at', 'text')
    .addColumn('fed_clicks', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.insertInto('clickhouse_feed').values({ id: 1 }).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('clickhouse_feed').execute()
}
