// Teams (issue 20), two-factor sign-in (docs/adr/025-two-factor-sign-in.md): a person's TOTP secret
// (RFC 6238; kept readable, since checking a code needs it) with the time step of the last code
// accepted (a replayed code is refused), the secret of an enrolment not yet confirmed, and ten
// single-use recovery codes kept as SHA-256 digests. A workspace may require a second factor of
// its members; a session opened with a password only waits for its code. Portable types only
// (docs/adr/001).
import type { Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('people').addColumn('totp_secret', 'text').execute()
  await db.schema.alterTable('people').addColumn('totp_pending_secret', 'text').execute()
  await db.schema.alterTable('people').addColumn('totp_enabled_at', 'text').execute()
  await db.schema.alterTable('people').addColumn('totp_last_step', 'integer').execute()
  await db.schema.alterTable('accounts').addColumn('require_two_factor', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('sessions').addColumn('awaiting_code', 'integer', (col) => col.notNull().defaultTo(0)).execute()

  await addIdColumn(db.schema.createTable('recovery_codes'), dialectOf(db))
    .addColumn('person_id', 'integer', (col) => col.notNull().references('people.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .addUniqueConstraint('recovery_codes_person_code_key', ['person_id', 'code_hash'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recovery_codes').execute()
  await db.schema.alterTable('sessions').dropColumn('awaiting_code').execute()
  await db.schema.alterTable('accounts').dropColumn('require_two_factor').execute()
  for (const column of ['totp_last_step', 'totp_enabled_at', 'totp_pending_secret', 'totp_secret']) {
    await db.schema.alterTable('people').dropColumn(column).execute()
  }
}
