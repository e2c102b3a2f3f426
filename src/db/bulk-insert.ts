// Inserting many rows of one shape fast: a full chunk always compiles to the same SQL, so it is
// compiled once (per dialect) and reused with new parameters; with the SQLite statement cache
// (database.ts) a chunk then costs neither Kysely's compilation nor SQLite's parsing. Used by the
// click writer, which inserts thousands of rows a second.
import { CompiledQuery, type InsertObject, type Kysely } from 'kysely'
import { dialectOf, type DialectName } from './dialect.js'
import type { Database } from './schema.js'

/** Rows per statement: well under SQLite's and PostgreSQL's parameter limits for ~15 columns. */
const CHUNK_ROWS = 500

/** Builds `insert(db, rows)` for `table`; every row must give every one of `columns`. */
export function createBulkInsert<T extends keyof Database, C extends keyof Database[T] & string>(table: T, columns: readonly C[]) {
  const compiledSql = new Map<DialectName, string>()

  function fullChunkSql(db: Kysely<Database>): string {
    const dialect = dialectOf(db)
    let text = compiledSql.get(dialect)
    if (text === undefined) {
      const template = Array.from({ length: CHUNK_ROWS }, () => Object.fromEntries(columns.map((column) => [column, null])))
      const compiled = db.insertInto(table).values(template as InsertObject<Database, T>[]).compile()
      // The reuse below relies on row-major parameters in `columns` order.
      if (compiled.parameters.length !== CHUNK_ROWS * columns.length) throw new Error(`bulk insert into ${table}: unexpected parameter count`)
      text = compiled.sql
      compiledSql.set(dialect, text)
    }
    return text
  }

  return async function insert(db: Kysely<Database>, rows: ReadonlyArray<InsertObject<Database, T> & Record<C, unknown>>): Promise<void> {
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const chunk = rows.slice(start, start + CHUNK_ROWS)
      if (chunk.length < CHUNK_ROWS) {
        await db.insertInto(table).values(chunk).execute()
        continue
      }
      const parameters: unknown[] = []
      for (const row of chunk) {
        for (const column of columns) {
          // Kysely would write DEFAULT for a missing value; the reused statement cannot.
          if (row[column] === undefined) throw new Error(`bulk insert into ${table}: no value for ${column}`)
          parameters.push(row[column])
        }
      }
      await db.executeQuery(CompiledQuery.raw(fullChunkSql(db), parameters))
    }
  }
}
