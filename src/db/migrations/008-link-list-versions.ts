// A version per account of everything its link lists show (issue 12, docs/adr/012-link-list-cache.md):
// the database itself counts every change of a link row (API writes, click counters, foreign keys
// setting a splash page or campaign to null), of the pixels attached to links and of a branded
// domain's name, so a list answered before is reused only while its account's version is unchanged,
// whichever instance or command made the change.
// SQLite runs its triggers at once (one writer at a time, nothing to deadlock with). PostgreSQL's
// are deferred to commit: a transaction then takes the version row's lock after every row lock it
// holds, so two transactions can never each hold what the other waits for.
import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.js'

/** Tables whose rows a link list shows, and how a changed row names its account. */
const SOURCES = [
  { table: 'links', events: 'insert or update or delete', account: (row: string) => sql.raw(`${row}.account_id`) },
  { table: 'link_pixels', events: 'insert or delete', account: (row: string) => sql.raw(`(select account_id from links where id = ${row}.link_id)`) },
  { table: 'domains', events: 'update of domain or delete', account: (row: string) => sql.raw(`${row}.account_id`) },
] as const

/** Adds one to the version of the account `row` (old or new) names; none when the account is gone (its deletion cascading). */
function bumpOf(account: (row: string) => ReturnType<typeof sql.raw>, row: string) {
  return sql`insert into link_list_versions (account_id, version)
    select id, 1 from accounts where id = ${account(row)}
    on conflict (account_id) do update set version = link_list_versions.version + 1`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('link_list_versions')
    .addColumn('account_id', 'integer', (col) => col.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('version', dialectOf(db) === 'postgres' ? 'bigint' : 'integer', (col) => col.notNull())
    .execute()

  if (dialectOf(db) === 'postgres') {
    // One function per source: how the account is found differs.
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
  await db.schema.dropTable('link_list_versions').execute()
}
