// API keys may be limited to some resources and/or to reads (issue 13). Existing keys keep full
// access: `scopes` null means every resource, `read_only` 0 means writes too. One column per
// statement: SQLite's ALTER TABLE adds a single column at a time.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('scopes', 'text').execute()
  await db.schema.alterTable('api_keys').addColumn('read_only', 'integer', (column) => column.notNull().defaultTo(0)).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('read_only').execute()
  await db.schema.alterTable('api_keys').dropColumn('scopes').execute()
}
