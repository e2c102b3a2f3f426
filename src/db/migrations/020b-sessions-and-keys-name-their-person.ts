// Teams (issue 20), second step: a session is one person's, in their current workspace
// (`account_id`), and an API key records the person who made it, whose role in the key's
// workspace bounds what the key may do (checked at every request: http/auth.ts). Existing
// sessions and keys are their account's owner's, the one person migration 020 made of it.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['sessions', 'api_keys']) {
    // SQLite adds a referencing column only with a null default: filled in just below.
    await db.schema.alterTable(table).addColumn('person_id', 'integer', (col) => col.references('people.id').onDelete('cascade')).execute()
    await db
      .updateTable(table)
      .set((eb: any) => ({
        person_id: eb
          .selectFrom('memberships')
          .select('memberships.person_id')
          .whereRef('memberships.account_id', '=', `${table}.account_id`)
          .where('memberships.role', '=', 'owner')
          .orderBy('memberships.created_at')
          .orderBy('memberships.person_id')
          .limit(1),
      }))
      .execute()
  }
  await db.schema.createIndex('sessions_person_idx').on('sessions').columns(['person_id', 'expires_at']).execute()
  await db.schema.createIndex('api_keys_person_idx').on('api_keys').columns(['account_id', 'person_id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_keys_person_idx').execute()
  await db.schema.dropIndex('sessions_person_idx').execute()
  await db.schema.alterTable('api_keys').dropColumn('person_id').execute()
  await db.schema.alterTable('sessions').dropColumn('person_id').execute()
}
