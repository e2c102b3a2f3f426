// SQLite cannot drop an inline UNIQUE (or change most of a column): the documented way is to
// rebuild the table from its own stored definition, changed, and copy the rows over, with foreign
// keys off meanwhile (the tables that reference it resolve to the rebuilt one by name) and its
// indexes and triggers made again. Columns other migrations added are in the stored definition.
import { sql, type Kysely } from 'kysely'

/** Rebuilds `table` with the definition `change` makes of its stored one; throws when `change` changes nothing. */
export async function rebuildSqliteTable(db: Kysely<any>, table: string, change: (definition: string) => string): Promise<void> {
  const { rows } = await sql<{ type: string; sql: string }>`select type, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(db)
  const definition = rows.find((row) => row.type === 'table')!.sql
  const rebuiltName = `${table}_rebuilt`
  const rebuilt = change(definition).replace(new RegExp(`^create table "?${table}"?`, 'i'), `create table "${rebuiltName}"`)
  if (!rebuilt.includes(rebuiltName) || change(definition) === definition) throw new Error(`rebuilding ${table}: unexpected definition ${definition}`)
  await sql`pragma foreign_keys = off`.execute(db)
  // The rename must not re-check the triggers that name the table (migration 008) while it is away.
  await sql`pragma legacy_alter_table = on`.execute(db)
  try {
    await sql.raw(rebuilt).execute(db)
    await sql.raw(`insert into "${rebuiltName}" select * from "${table}"`).execute(db)
    await sql.raw(`drop table "${table}"`).execute(db)
    await sql.raw(`alter table "${rebuiltName}" rename to "${table}"`).execute(db)
    for (const row of rows.filter((entry) => entry.type !== 'table')) await sql.raw(row.sql).execute(db)
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db)
    await sql`pragma foreign_keys = on`.execute(db)
  }
}
