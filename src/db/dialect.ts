// What db/ code needs to tell SQLite from PostgreSQL (migrations, bulk inserts) and the driver
// errors of both, so that no code outside db/ ever asks which database it is on (STYLE habit 5).
import type { ColumnDataType, CreateTableBuilder, Kysely, RawBuilder } from 'kysely'
import { PostgresAdapter, sql } from 'kysely'

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

/**
 * The integer values of `column` over the rows aggregated, ascending, as one text (`"3,7,12"`;
 * null for no rows): SQLite's group_concat, PostgreSQL's string_agg. Read back with idsOfList.
 * Lets a page of rows carry their ids of a child table in the same query, not one more.
 */
export function orderedIdList(dialect: DialectName, column: string): RawBuilder<string | null> {
  const ref = sql.ref(column)
  return dialect === 'postgres' ? sql<string | null>`string_agg(${ref}::text, ',' order by ${ref})` : sql<string | null>`group_concat(${ref}, ',' order by ${ref})`
}

/** The ids of an orderedIdList text, in its order. */
export function idsOfList(text: string | null): number[] {
  return text ? text.split(',').map(Number) : []
}

/** True when a driver error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505'
}

/** True when a driver error is a foreign-key violation (a row is still referenced). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503'
}

// Connection-level failures: the database is down or unreachable, not the query at fault.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', 'SQLITE_BUSY', 'SQLITE_CANTOPEN'])

/** True when an error means the database cannot be reached right now (answer 503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true
  return typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|driver has already been destroyed/i.test(message)
}
