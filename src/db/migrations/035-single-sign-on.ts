// Single sign-on with OpenID Connect (issue 38, ADR 033).
//
// - `sso_providers`: providers the instance administrator keeps in the admin pages (the one of
//   OIDC_ISSUER is configuration, not a row); the client secret sealed with SECRETS_KEY when set.
// - `sso_identities`: one person's account at one provider, by the provider's subject; the refresh
//   token (sealed) and the groups last read, and when they were last checked (OIDC_RECHECK).
// - `sso_sign_in_attempts`: a sign-in on its way to the provider: the state (hashed), nonce and
//   PKCE verifier, used once by the callback.
// - `sso_workspaces`: a workspace's provider, whether it requires single sign-on; `sso_group_roles`
//   its mapping from the provider's groups to roles.
// - `sessions.signed_in_with`: `password` or `sso`, so that a workspace requiring single sign-on
//   can refuse the sessions opened with a password.
import type { Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)
  await addIdColumn(db.schema.createTable('sso_providers'), dialect)
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('label', 'text', (col) => col.notNull())
    .addColumn('issuer', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('client_secret', 'text', (col) => col.notNull())
    .addColumn('group_claim', 'text', (col) => col.notNull().defaultTo('groups'))
    .addColumn('allowed_domains', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()

  await addIdColumn(db.schema.createTable('sso_identities'), dialect)
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('person_id', 'integer', (col) => col.notNull().references('people.id').onDelete('cascade'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('refresh_token', 'text')
    .addColumn('groups', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('checked_at', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('sso_identities_subject_unique').unique().on('sso_identities').columns(['provider', 'subject']).execute()
  await db.schema.createIndex('sso_identities_person_idx').on('sso_identities').column('person_id').execute()
  await db.schema.createIndex('sso_identities_checked_idx').on('sso_identities').column('checked_at').execute()

  await db.schema.createTable('sso_sign_in_attempts')
    .addColumn('state_hash', 'text', (col) => col.primaryKey())
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('nonce', 'text', (col) => col.notNull())
    .addColumn('code_verifier', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute()

  await db.schema.createTable('sso_workspaces')
    .addColumn('account_id', 'integer', (col) => col.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('require_sso', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()

  await addIdColumn(db.schema.createTable('sso_group_roles'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('group_name', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('sso_group_roles_unique').unique().on('sso_group_roles').columns(['account_id', 'group_name']).execute()

  await db.schema.alterTable('sessions').addColumn('signed_in_with', 'text', (col) => col.notNull().defaultTo('password')).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('signed_in_with').execute()
  for (const table of ['sso_group_roles', 'sso_workspaces', 'sso_sign_in_attempts', 'sso_identities', 'sso_providers']) {
    await db.schema.dropTable(table).execute()
  }
}
