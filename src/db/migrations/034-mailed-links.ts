// Links mailed to a person (issue 38): a forgotten password's reset, a sign-up's confirmation, an
// e-mail change's confirmation. Only the SHA-256 of a link's token is kept; a link works once
// (`used_at`, set by one conditional update) until `expires_at`. A sign-up's row carries what the
// person chose (username, the scrypt hash of their password) until the address is confirmed;
// there is no person yet to hold it.
import type { Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  await addIdColumn(db.schema.createTable('mailed_links'), dialectOf(db))
    // password_reset | signup | email_change
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    // The person a reset or an e-mail change is for; null for a sign-up (nobody yet).
    .addColumn('person_id', 'integer', (col) => col.references('people.id').onDelete('cascade'))
    // The address the link was sent to (lower case): the new address of an e-mail change.
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('username', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute()
  await db.schema.createIndex('mailed_links_person').on('mailed_links').column('person_id').execute()
  await db.schema.createIndex('mailed_links_expires').on('mailed_links').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mailed_links').execute()
}
