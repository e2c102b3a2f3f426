// Teams (issue 20): the spec's account becomes a workspace that people belong to. People sign in
// with their own username or e-mail and password; a membership gives one person one role in one
// workspace; an invitation offers one to whoever opens its link. Every existing account becomes a
// workspace whose only member is its owner: a person made from the account's sign-in credentials,
// which move to the person (the account's column is emptied: one password per person, kept in one
// place). Portable types only (docs/adr/001).
import { sql, type Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'
import { rebuildSqliteTable } from './sqlite-rebuild.js'

/**
 * An account's e-mail is its contact address, no longer a sign-in name (people have those): two
 * workspaces of one person may share it. PostgreSQL drops the constraint; SQLite cannot drop an
 * inline UNIQUE, so the table is rebuilt (sqlite-rebuild.ts).
 */
async function dropAccountEmailUniqueness(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table accounts drop constraint if exists accounts_email_key`.execute(db)
    return
  }
  await rebuildSqliteTable(db, 'accounts', (definition) => definition.replace(/("email" text not null) unique/i, '$1'))
}

export async function up(db: Kysely<any>): Promise<void> {
  await dropAccountEmailUniqueness(db)
  await addIdColumn(db.schema.createTable('people'), dialectOf(db))
    .addColumn('username', 'text', (col) => col.notNull().unique())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_sign_in_at', 'text')
    .execute()

  // owner | admin | editor | viewer (modules/accounts/roles.ts).
  await db.schema
    .createTable('memberships')
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (col) => col.notNull().references('people.id').onDelete('cascade'))
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('memberships_pkey', ['account_id', 'person_id'])
    .execute()
  await db.schema.createIndex('memberships_person_idx').on('memberships').column('person_id').execute()

  // A pending invitation to a workspace: a single-use link (only the SHA-256 of its token is kept),
  // valid until `expires_at`; accepting it deletes it.
  await addIdColumn(db.schema.createTable('invitations'), dialectOf(db))
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('invited_by', 'integer', (col) => col.references('people.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('invitations_account_idx').on('invitations').column('account_id').execute()

  // Usernames and e-mail addresses are unique among accounts, so each names one new person.
  await db
    .insertInto('people')
    .columns(['username', 'email', 'password_hash', 'created_at'])
    .expression(db.selectFrom('accounts').select(['username', 'email', 'password_hash', 'created_at']).orderBy('id'))
    .execute()
  await db
    .insertInto('memberships')
    .columns(['account_id', 'person_id', 'role', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('accounts')
        .innerJoin('people', 'people.username', 'accounts.username')
        .select(['accounts.id', 'people.id', sql<string>`'owner'`.as('role'), 'accounts.created_at']),
    )
    .execute()
  await db.updateTable('accounts').set({ password_hash: null }).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  // The founding owner's password goes back to the account it came from.
  await db
    .updateTable('accounts')
    .set((eb: any) => ({
      password_hash: eb.selectFrom('people').select('people.password_hash').whereRef('people.username', '=', 'accounts.username'),
    }))
    .execute()
  await db.schema.dropTable('invitations').execute()
  await db.schema.dropTable('memberships').execute()
  await db.schema.dropTable('people').execute()
}
