// Short links, bio pages, raw click events and overlay contact submissions (issue: short links
// and the public side). Runs on SQLite and PostgreSQL alike.
import type { Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)

  await addIdColumn(db.schema.createTable('links'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    // A branded domain still used by links cannot be deleted (the domain service refuses).
    .addColumn('domain_id', 'integer', (col) => col.references('domains.id'))
    // Host the alias lives on: '' for PUBLIC_URL, else the branded domain's hostname. The redirect
    // path finds a link by (host, alias) in one indexed read.
    .addColumn('host', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('alias', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'text')
    // direct | frame | splash | overlay
    .addColumn('type', 'text', (col) => col.notNull().defaultTo('direct'))
    .addColumn('splash_id', 'integer', (col) => col.references('splash_pages.id').onDelete('set null'))
    .addColumn('overlay_id', 'integer', (col) => col.references('overlays.id').onDelete('set null'))
    .addColumn('campaign_id', 'integer', (col) => col.references('campaigns.id').onDelete('set null'))
    // JSON {geo: [{location, link}], device: [{device, link}], language: [{language, link}]}
    .addColumn('targeting', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('clicks', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('unique_clicks', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('links_host_alias_unique', ['host', 'alias'])
    .execute()
  await db.schema.createIndex('links_account_idx').on('links').columns(['account_id', 'id']).execute()
  await db.schema.createIndex('links_campaign_idx').on('links').column('campaign_id').execute()

  await db.schema
    .createTable('link_pixels')
    .addColumn('link_id', 'integer', (col) => col.notNull().references('links.id').onDelete('cascade'))
    .addColumn('pixel_id', 'integer', (col) => col.notNull().references('pixels.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('link_pixels_pk', ['link_id', 'pixel_id'])
    .execute()
  await db.schema.createIndex('link_pixels_pixel_idx').on('link_pixels').column('pixel_id').execute()

  // Bio pages are served at {PUBLIC_URL}/{alias}: their aliases share the main domain's namespace
  // with links (the services check both tables).
  await addIdColumn(db.schema.createTable('bio_pages'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('alias', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('avatar', 'text')
    // JSON array of {title, url}, in display order
    .addColumn('blocks', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('bio_pages_account_idx').on('bio_pages').columns(['account_id', 'id']).execute()

  // One row per counted visit. No foreign keys: raw events are written in batches off the
  // response path and must not fail because their item was deleted meanwhile.
  await addIdColumn(db.schema.createTable('clicks'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull())
    // link | qr | campaign | bio
    .addColumn('item_type', 'text', (col) => col.notNull())
    .addColumn('item_id', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('referrer_host', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('language', 'text')
    // Salted daily hash of IP and user agent; the raw IP is never stored.
    .addColumn('visitor_hash', 'text')
    .addColumn('country', 'text')
    .addColumn('browser', 'text')
    .addColumn('os', 'text')
    .addColumn('device', 'text')
    .addColumn('is_unique', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('clicks_item_idx').on('clicks').columns(['item_type', 'item_id', 'created_at']).execute()
  await db.schema.createIndex('clicks_created_idx').on('clicks').column('created_at').execute()

  await addIdColumn(db.schema.createTable('contacts'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('overlay_id', 'integer', (col) => col.references('overlays.id').onDelete('set null'))
    .addColumn('link_id', 'integer', (col) => col.references('links.id').onDelete('set null'))
    .addColumn('name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('contacts_account_idx').on('contacts').column('account_id').execute()

  // Server-wide values created once and shared by every instance (e.g. the visitor-hash secret).
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['settings', 'contacts', 'clicks', 'bio_pages', 'link_pixels', 'links']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
