// A workspace's time zone (issue 24): the IANA name its statistics' days, hours, weeks and months
// are counted in when a request names none (`tz`). Set with PUT /api/account/update (`timezone`).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('time_zone', 'text', (col) => col.notNull().defaultTo('UTC')).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('time_zone').execute()
}
