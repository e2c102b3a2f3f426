// Branded domains on the open internet (issue 43, ADR 031): a domain proves who controls it before
// anything is certified, and certificates live in the database so every instance serves the same.
//
// - A hostname may be claimed by several workspaces until one of them proves control: the
//   service-wide uniqueness of `domain` and `hostname` gives way to one claim per workspace and
//   one *verified* claim per hostname (a partial unique index). Until then the oldest claim is
//   the one served, as before.
// - Every claim gets a verification token (existing ones too) and the state of its checks.
// - `tls_certificates` holds one certificate per hostname (the chain, its key sealed with
//   SECRETS_KEY when set, expiry, the last order's error and back-off, and the claim of the
//   instance ordering it); `acme_accounts` the ACME account key per directory; `acme_challenges`
//   the HTTP-01 answers any instance may be asked for.
import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.js'
import { rebuildSqliteTable } from './sqlite-rebuild.js'

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table domains drop constraint if exists domains_domain_key`.execute(db)
    await sql`alter table domains drop constraint if exists domains_hostname_key`.execute(db)
  } else {
    await rebuildSqliteTable(db, 'domains', (definition) =>
      definition.replace(/("domain" text not null) unique/i, '$1').replace(/("hostname" text not null) unique/i, '$1'))
  }
  await db.schema.alterTable('domains').addColumn('verification_token', 'text').execute()
  await db.schema.alterTable('domains').addColumn('status', 'text', (col) => col.notNull().defaultTo('pending')).execute()
  await db.schema.alterTable('domains').addColumn('verified_at', 'text').execute()
  // 'txt' or 'http': how control was proven (ADR 031).
  await db.schema.alterTable('domains').addColumn('verified_by', 'text').execute()
  // Checks run on a schedule that counts from here (the claim, or the last check asked for).
  await db.schema.alterTable('domains').addColumn('checks_since', 'text').execute()
  await db.schema.alterTable('domains').addColumn('checked_at', 'text').execute()
  await db.schema.alterTable('domains').addColumn('check_error', 'text').execute()
  await db.schema.alterTable('domains').addColumn('next_check_at', 'text').execute()
  // Set when another workspace proved control of the name: this claim's links are no longer served.
  await db.schema.alterTable('domains').addColumn('released_at', 'text').execute()
  const claims = await db.selectFrom('domains').select(['id', 'created_at']).execute()
  for (const claim of claims) {
    await db.updateTable('domains')
      .set({ verification_token: randomBytes(18).toString('base64url'), checks_since: claim.created_at, next_check_at: claim.created_at })
      .where('id', '=', claim.id)
      .execute()
  }
  await db.schema.createIndex('domains_account_hostname_unique').unique().on('domains').columns(['account_id', 'hostname']).execute()
  await db.schema.createIndex('domains_hostname_idx').on('domains').column('hostname').execute()
  await sql`create unique index domains_verified_hostname_unique on domains (hostname) where status = 'verified'`.execute(db)
  await db.schema.createIndex('domains_next_check_idx').on('domains').column('next_check_at').execute()

  await db.schema.createTable('tls_certificates')
    .addColumn('hostname', 'text', (col) => col.primaryKey())
    // 'pending' (ordered, none yet), 'active' (served), 'failed' (the last order failed; an older certificate may still be served).
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('certificate', 'text')
    .addColumn('private_key', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('error', 'text')
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()

  await db.schema.createTable('acme_accounts')
    .addColumn('directory_url', 'text', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('private_key', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()

  await db.schema.createTable('acme_challenges')
    .addColumn('token', 'text', (col) => col.primaryKey())
    .addColumn('key_authorization', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('acme_challenges').execute()
  await db.schema.dropTable('acme_accounts').execute()
  await db.schema.dropTable('tls_certificates').execute()
  for (const index of ['domains_next_check_idx', 'domains_verified_hostname_unique', 'domains_hostname_idx', 'domains_account_hostname_unique']) {
    await db.schema.dropIndex(index).ifExists().execute()
  }
  for (const column of ['released_at', 'next_check_at', 'check_error', 'checked_at', 'checks_since', 'verified_by', 'verified_at', 'status', 'verification_token']) {
    await db.schema.alterTable('domains').dropColumn(column).execute()
  }
}
