// Link options (issue 23, docs/adr/020-link-options.md): one JSON text column on links for every
// option a visit reads (UTM parameters, click cap and fallback, app links, split-test variants),
// '{}' for a link without any, and the account's UTM templates. One column per ALTER TABLE:
// SQLite adds a single column at a time.
import type { Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('links').addColumn('options', 'text', (col) => col.notNull().defaultTo('{}')).execute()
  await addIdColumn(db.schema.createTable('utm_templates'), dialectOf(db))
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    // JSON {source?, medium?, campaign?, term?, content?}, at least one set.
    .addColumn('utm', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('utm_templates_account_id').on('utm_templates').columns(['account_id', 'id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('utm_templates').execute()
  await db.schema.alterTable('links').dropColumn('options').execute()
}
