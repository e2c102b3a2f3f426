// Social cards (issue 23, docs/adr/023-tags-and-social-cards.md "Social cards"): one uploaded image
// per link, already resized to 1200×630 JPEG, kept in the database like QR logos (ADR 003) so
// instances share no disk. `token` is the image's public name (`/card/{token}.jpg`): random, new
// at every upload, so the image can be cached for good and link ids are not enumerable through it.
// A link's deletion takes its card with it.
import type { Kysely } from 'kysely'
import { binaryType, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('link_cards')
    .addColumn('link_id', 'integer', (col) => col.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('token', 'text', (col) => col.notNull().unique())
    .addColumn('image', binaryType(dialectOf(db)), (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('link_cards').execute()
}
