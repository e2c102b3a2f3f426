// Logos uploaded for QR codes (POST /api/upload/logo) are kept as the other QR logos are, in the
// database, with the workspace that sent them (issue 36, item 9): counted against its plan
// (`logos`), usable only by it, and collected once no code has asked for them for a while (a code
// keeps its own copy of the image). Before, they were files in the upload folder nobody deleted.
import type { Kysely } from 'kysely'
import { addIdColumn, binaryType, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)
  await addIdColumn(db.schema.createTable('logo_uploads'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    // The path answered (`logos/<random>.png`), what a QR code's `logo` names it by.
    .addColumn('path', 'text', (col) => col.notNull().unique())
    // The normalised PNG, as a QR code stores it.
    .addColumn('image', binaryType(dialect), (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    // When a QR code (or its preview) last took it; the collection counts from the later of the two.
    .addColumn('used_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('logo_uploads_account').on('logo_uploads').column('account_id').execute()
  await db.schema.createIndex('logo_uploads_used').on('logo_uploads').column('used_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('logo_uploads').execute()
}
