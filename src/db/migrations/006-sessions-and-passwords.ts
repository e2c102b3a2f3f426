// The dashboard's sign-in (issue 10): browser sessions, and when each API key was last used.
// Accounts have had a `password_hash` column (scrypt) since 001; this adds what signing in with it
// needs. Portable types only (docs/adr/001): timestamps as UTC text, the id as text.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // `id` is the SHA-256 (hex) of the random token in the cookie: a leaked table signs nobody in.
  // Expiry is fixed at sign-in (SESSION_DAYS); `last_seen_at` is refreshed at most once a minute.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_seen_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('ip', 'text', (col) => col.notNull().defaultTo(''))
    .execute()
  await db.schema.createIndex('sessions_account_idx').on('sessions').columns(['account_id', 'expires_at']).execute()

  // Shown on the dashboard's key list; written at most once a minute per key (account.service.ts).
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute()
  await db.schema.dropTable('sessions').ifExists().execute()
}
