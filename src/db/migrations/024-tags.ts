// Tags (issue 23, docs/adr/023-tags-and-social-cards.md): an account's named, coloured labels, made
// on first use, on links, QR codes and bio pages. Names are unique per account regardless of case
// (`name_key`, the lower-cased name). One join table per item kind, so that deleting an item or a
// tag cascades by foreign key and every join row names a real row.
// Link lists show a link's tags and filter by them (ADR 012): a link's tags added or taken away
// and a tag renamed move the account's list version, as migration 008's triggers do for pixels.
import { sql, type Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

/** Item kinds and their join table (item column, table it points at). */
const JOINS = [
  { table: 'link_tags', item: 'link_id', items: 'links' },
  { table: 'qr_code_tags', item: 'qr_code_id', items: 'qr_codes' },
  { table: 'bio_page_tags', item: 'bio_page_id', items: 'bio_pages' },
] as const

/** What a link list shows of tags, and how a changed row names its account. */
const SOURCES = [
  { table: 'link_tags', events: 'insert or delete', account: (row: string) => sql.raw(`(select account_id from links where id = ${row}.link_id)`) },
  { table: 'tags', events: 'update of name', account: (row: string) => sql.raw(`${row}.account_id`) },
] as const

/** Adds one to the version of the account `row` names, as migration 008 does. */
function bumpOf(account: (row: string) => ReturnType<typeof sql.raw>, row: string) {
  return sql`insert into link_list_versions (account_id, version)
    select id, 1 from accounts where id = ${account(row)}
    on conflict (account_id) do update set version = link_list_versions.version + 1`
}

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)
  await addIdColumn(db.schema.createTable('tags'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    // lower(name): one tag per name whatever its case.
    .addColumn('name_key', 'text', (col) => col.notNull())
    // #RRGGBB, or null for the dashboard's default.
    .addColumn('color', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('tags_account_name').unique().on('tags').columns(['account_id', 'name_key']).execute()
  for (const { table, item, items } of JOINS) {
    await db.schema
      .createTable(table)
      .addColumn(item, 'integer', (col) => col.notNull().references(`${items}.id`).onDelete('cascade'))
      .addColumn('tag_id', 'integer', (col) => col.notNull().references('tags.id').onDelete('cascade'))
      .addPrimaryKeyConstraint(`${table}_pk`, [item, 'tag_id'])
      .execute()
    // The filter `?tag=` starts from the tag.
    await db.schema.createIndex(`${table}_tag`).on(table).columns(['tag_id', item]).execute()
  }

  if (dialect === 'postgres') {
    for (const { table, events, account } of SOURCES) {
      await sql`create function ${sql.raw(`${table}_bump_list_version`)}() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') then ${bumpOf(account, 'old')}; end if;
          if tg_op in ('INSERT', 'UPDATE') then ${bumpOf(account, 'new')}; end if;
          return null;
        end $$`.execute(db)
      await sql`create constraint trigger ${sql.raw(`${table}_list_version`)} after ${sql.raw(events)} on ${sql.raw(table)}
        deferrable initially deferred for each row execute function ${sql.raw(`${table}_bump_list_version`)}()`.execute(db)
    }
    return
  }
  for (const { table, events, account } of SOURCES) {
    for (const event of events.split(' or ')) {
      const rows = event === 'insert' ? ['new'] : event === 'delete' ? ['old'] : ['old', 'new']
      await sql`create trigger ${sql.raw(`${table}_${event.split(' ')[0]}_list_version`)} after ${sql.raw(event)} on ${sql.raw(table)}
        begin ${sql.join(rows.map((row) => sql`${bumpOf(account, row)};`), sql.raw(' '))} end`.execute(db)
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, events } of SOURCES) {
    if (dialectOf(db) === 'postgres') {
      await sql`drop trigger if exists ${sql.raw(`${table}_list_version`)} on ${sql.raw(table)}`.execute(db)
      await sql`drop function if exists ${sql.raw(`${table}_bump_list_version`)}()`.execute(db)
    } else {
      for (const event of events.split(' or ')) await sql`drop trigger if exists ${sql.raw(`${table}_${event.split(' ')[0]}_list_version`)}`.execute(db)
    }
  }
  for (const { table } of JOINS) await db.schema.dropTable(table).execute()
  await db.schema.dropTable('tags').execute()
}
