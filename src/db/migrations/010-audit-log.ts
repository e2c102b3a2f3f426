// The audit log (issue 20): one row per change made through the API, the dashboard or the CLI,
// written in the change's own transaction (modules/changes/change-journal.ts). Who: the person, or
// the key (and, with teams, its maker), or the command line; what: action, resource, id and the
// names of the fields it set; when; from which address.
import type { Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)
  await addIdColumn(db.schema.createTable('audit_log'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    // api | dashboard | cli | system
    .addColumn('via', 'text', (col) => col.notNull())
    .addColumn('person_id', 'integer')
    .addColumn('key_id', 'integer')
    .addColumn('address', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('resource', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'integer')
    // JSON array of the field names the change set.
    .addColumn('fields', 'text', (col) => col.notNull().defaultTo('[]'))
    .execute()
  await db.schema.createIndex('audit_log_account_id').on('audit_log').columns(['account_id', 'id']).execute()
  await db.schema.createIndex('audit_log_created_at').on('audit_log').column('created_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute()
}
