// Aliases are unique regardless of letter case (the services compare lower-cased): the database
// now enforces it too, which closes the race between two requests claiming `Sale` and `sale`, and
// gives the services' lower(alias) look-ups an index. Expression indexes work on both dialects.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('links_host_lower_alias_unique').unique().on('links').columns(['host']).expression(sql`lower(alias)`).execute()
  await db.schema.createIndex('bio_pages_lower_alias_unique').unique().on('bio_pages').expression(sql`lower(alias)`).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('bio_pages_lower_alias_unique').ifExists().execute()
  await db.schema.dropIndex('links_host_lower_alias_unique').ifExists().execute()
}
