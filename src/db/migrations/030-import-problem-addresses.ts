// An import report's row names the address the link had in its source beside the one it has here
// (issue 42): a renamed link's old address is what its printed links still say. `alias` stays the
// address here; `old_alias` is the source's (null for rows without one).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('import_problems').addColumn('old_alias', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('import_problems').dropColumn('old_alias').execute()
}
