// The management API's schema (issue: management API). Runs on SQLite and PostgreSQL alike.
import type { Kysely } from 'kysely'
import { addIdColumn, binaryType, dialectOf } from '../dialect.js'
import { nowTimestamp } from '../../core/time.js'

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)
  const accountColumn = (table: any) =>
    table.addColumn('account_id', 'integer', (col: any) => col.notNull().references('accounts.id').onDelete('cascade'))

  await addIdColumn(db.schema.createTable('plans'), dialect)
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('apirate', 'integer')
    .addColumn('limits', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('is_default', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()

  await addIdColumn(db.schema.createTable('accounts'), dialect)
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('username', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('avatar', 'text')
    .addColumn('plan_id', 'integer', (col) => col.notNull().references('plans.id'))
    .addColumn('plan_expires', 'text')
    .addColumn('is_admin', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('is_suspended', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()

  await accountColumn(addIdColumn(db.schema.createTable('api_keys'), dialect))
    .addColumn('name', 'text', (col: any) => col.notNull())
    .addColumn('key_hash', 'text', (col: any) => col.notNull().unique())
    .addColumn('key_prefix', 'text', (col: any) => col.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('created_at', 'text', (col: any) => col.notNull())
    .execute()
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').column('account_id').execute()

  await accountColumn(addIdColumn(db.schema.createTable('domains'), dialect))
    .addColumn('domain', 'text', (col: any) => col.notNull().unique())
    .addColumn('hostname', 'text', (col: any) => col.notNull().unique())
    .addColumn('redirect_root', 'text')
    .addColumn('redirect_404', 'text')
    .addColumn('created_at', 'text', (col: any) => col.notNull())
    .execute()
  await db.schema.createIndex('domains_account_idx').on('domains').column('account_id').execute()

  await accountColumn(addIdColumn(db.schema.createTable('overlays'), dialect))
    .addColumn('type', 'text', (col: any) => col.notNull())
    .addColumn('name', 'text', (col: any) => col.notNull())
    .addColumn('config', 'text', (col: any) => col.notNull())
    .addColumn('created_at', 'text', (col: any) => col.notNull())
    .execute()
  await db.schema.createIndex('overlays_account_idx').on('overlays').column('account_id').execute()

  await accountColumn(addIdColumn(db.schema.createTable('splash_pages'), dialect))
    .addColumn('name', 'text', (col: any) => col.notNull())
    .addColumn('config', 'text', (col: any) => col.notNull())
    .addColumn('created_at', 'text', (col: any) => col.notNull())
    .execute()
  await db.schema.createIndex('splash_pages_account_idx').on('splash_pages').column('account_id').execute()

  await accountColumn(addIdColumn(db.schema.createTable('campaigns'), dialect))
    .addColumn('name', 'text', (col: any) => col.notNull())
    .addColumn('slug', 'text', (col: any) => col.unique())
    .addColumn('is_public', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col: any) => col.notNull())
    .addUniqueConstraint('campaigns_account_name_unique', ['account_id', 'name'])
    .execute()

  await accountColumn(addIdColumn(db.schema.createTable('channels'), dialect))
    .addColumn('name', 'text', (col: any) => col.notNull())
    .addColumn('description', 'text', (col: any) => col.notNull().defaultTo(''))
    .addColumn('color', 'text', (col: any) => col.notNull())
    .addColumn('starred', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col: any) => col.notNull())
    .addUniqueConstraint('channels_account_name_unique', ['account_id', 'name'])
    .execute()

  // Items are polymorphic (`links`, `bio`, `qr`): no foreign key to the item; each item's
  // service removes its channel rows when the item is deleted.
  await accountColumn(addIdColumn(db.schema.createTable('channel_items'), dialect))
    .addColumn('channel_id', 'integer', (col: any) => col.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('item_type', 'text', (col: any) => col.notNull())
    .addColumn('item_id', 'integer', (col: any) => col.notNull())
    .addColumn('created_at', 'text', (col: any) => col.notNull())
    .addUniqueConstraint('channel_items_unique', ['channel_id', 'item_type', 'item_id'])
    .execute()
  await db.schema.createIndex('channel_items_item_idx').on('channel_items').columns(['item_type', 'item_id']).execute()

  await accountColumn(addIdColumn(db.schema.createTable('pixels'), dialect))
    .addColumn('type', 'text', (col: any) => col.notNull())
    .addColumn('name', 'text', (col: any) => col.notNull())
    .addColumn('tag', 'text', (col: any) => col.notNull())
    .addColumn('created_at', 'text', (col: any) => col.notNull())
    .addUniqueConstraint('pixels_account_type_tag_unique', ['account_id', 'type', 'tag'])
    .execute()

  await accountColumn(addIdColumn(db.schema.createTable('qr_codes'), dialect))
    .addColumn('alias', 'text', (col: any) => col.notNull().unique())
    .addColumn('name', 'text', (col: any) => col.notNull())
    .addColumn('type', 'text', (col: any) => col.notNull())
    .addColumn('data', 'text', (col: any) => col.notNull())
    .addColumn('background', 'text', (col: any) => col.notNull())
    .addColumn('foreground', 'text', (col: any) => col.notNull())
    .addColumn('logo', binaryType(dialect))
    .addColumn('logo_source', 'text')
    .addColumn('scans', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col: any) => col.notNull())
    .addColumn('updated_at', 'text', (col: any) => col.notNull())
    .execute()
  await db.schema.createIndex('qr_codes_account_idx').on('qr_codes').column('account_id').execute()

  // The plan every new account gets unless told otherwise: the server's default rate, no limits.
  await db
    .insertInto('plans')
    .values({ name: 'Pro', code: 'pro', apirate: null, limits: '{}', is_default: 1, created_at: nowTimestamp() })
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['qr_codes', 'pixels', 'channel_items', 'channels', 'campaigns', 'splash_pages', 'overlays', 'domains', 'api_keys', 'accounts', 'plans']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
