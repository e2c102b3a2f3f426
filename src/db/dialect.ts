// What db/ code needs to tell SQLite from PostgreSQL (migrations, bulk inserts, SQL functions
// that differ), so that no code outside db/ ever asks which database it is on (STYLE habit 5):
// only src/db/ may import this file (.dependency-cruiser.cjs, db-dialect-stays-in-db). The driver
// errors of both are told apart in db/errors.ts.
import type { ColumnDataType, CreateTableBuilder, Kysely } from 'kysely'
import { PostgresAdapter } from 'kysely'

export type DialectName = 'sqlite' | 'postgres'

/** Tells which dialect a Kysely instance talks to, for migrations and db/ helpers only. */
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/** Adds an auto-incrementing integer primary key named `id`. */
export function addIdColumn<T extends string>(table: CreateTableBuilder<T, any>, dialect: DialectName) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (col) => col.primaryKey())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
}

/** Column type for binary data. */
export function binaryType(dialect: DialectName): ColumnDataType {
  return dialect === 'postgres' ? 'bytea' : 'blob'
}
