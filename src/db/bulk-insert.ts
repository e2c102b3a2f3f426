// Writing many rows of one shape fast (the click writer: raw clicks, visitors and counters, several
// thousand rows a second). Building such a statement with Kysely measured 200-300 µs (a 90-row
// upsert), and a text SQLite has not seen must be prepared again, so every statement here is
// built once and reused with new values:
// - SQLite: rows go in chunks of fixed sizes (500, 100, 20, 5, 1), each size's statement compiled
//   once and kept prepared by the statement cache (database.ts), so any number of rows is a few
//   executions of statements already prepared;
// - PostgreSQL: all the rows in one statement of one array per column (`unnest`), whose text
//   never changes and whose parameters are as many as the columns, not rows × columns.
import { CompiledQuery, type InsertObject, type Kysely } from 'kysely'
import { dialectOf, type DialectName } from './dialect.js'
import type { Database } from './schema.js'

/** Rows per statement on SQLite, largest first: well under its parameter limit for ~15 columns. */
const CHUNK_SIZES = [500, 100, 20, 5, 1] as const

/** PostgreSQL element types of the column arrays. */
export type PostgresColumnType = 'integer' | 'bigint' | 'text'

export interface BulkInsertOptions<C extends string, R extends string> {
  /** Each column's PostgreSQL type, for its array. */
  postgresTypes: Record<C, PostgresColumnType>
  /**
   * A row whose `keys` exist already: with `add`, that column's value (or each of those columns')
   * is added to the stored one (a counter); without it the row is skipped. Rows of one call must
   * not share keys.
   */
  onConflict?: { keys: readonly C[]; add?: C | readonly C[] }
  /** Columns answered for each row actually inserted (skipped rows are not answered), given or not (`id`). */
  returning?: readonly R[]
}

type RowOf<T extends keyof Database, C extends string> = InsertObject<Database, T> & Record<C, unknown>

/** What the insert answers: the `returning` columns of the inserted rows (none without `returning`). */
export type BulkInsert<T extends keyof Database, C extends string, R extends string> = (db: Kysely<Database>, rows: ReadonlyArray<RowOf<T, C>>) => Promise<Record<R, unknown>[]>

/** Builds `insert(db, rows)` for `table`; every row must give every one of `columns`. */
export function createBulkInsert<T extends keyof Database, C extends keyof Database[T] & string, R extends keyof Database[T] & string = never>(
  table: T,
  columns: readonly C[],
  options: BulkInsertOptions<C, R>,
): BulkInsert<T, C, R> {
  const compiledSql = new Map<string, string>()
  const quoted = (name: string) => `"${name}"`
  const conflictClause = (target: string) => {
    if (!options.onConflict) return ''
    const { keys, add } = options.onConflict
    const added: readonly string[] = add === undefined ? [] : typeof add === 'string' ? [add] : add
    const action = added.length ? `do update set ${added.map((name) => `${quoted(name)} = ${quoted(target)}.${quoted(name)} + excluded.${quoted(name)}`).join(', ')}` : 'do nothing'
    return ` on conflict (${keys.map(quoted).join(', ')}) ${action}`
  }
  // Only the ids of rows that are all inserted (no conflict clause, ids not given; `id` the table's
  // integer primary key, as addIdColumn makes every one): on SQLite they are the statement's last
  // insert id and the ones before it (a statement's rows take consecutive ids, in order), so no
  // RETURNING clause is needed (about 1 µs a row less in a profile of the click writer, ADR 022).
  const idsFromLastInsert = !options.onConflict && options.returning?.length === 1 && options.returning[0] === 'id' && !(columns as readonly string[]).includes('id')
  const returningClause = options.returning?.length ? ` returning ${options.returning.map(quoted).join(', ')}` : ''
  const head = `insert into ${quoted(table)} (${columns.map(quoted).join(', ')})`

  /** The statement of `rows` rows on SQLite, or of any number of rows on PostgreSQL (rows = 0). */
  function statementOf(dialect: DialectName, rows: number): string {
    const key = `${dialect}:${rows}`
    let text = compiledSql.get(key)
    if (text === undefined) {
      const placeholders = `(${columns.map(() => '?').join(', ')})`
      text = dialect === 'postgres'
        ? `${head} select * from unnest(${columns.map((column, index) => `$${index + 1}::${options.postgresTypes[column]}[]`).join(', ')})${conflictClause(table)}${returningClause}`
        : `${head} values ${Array.from({ length: rows }, () => placeholders).join(', ')}${conflictClause(table)}${idsFromLastInsert ? '' : returningClause}`
      compiledSql.set(key, text)
    }
    return text
  }

  function valueOf(row: RowOf<T, C>, column: C): unknown {
    const value = row[column]
    // Kysely would write DEFAULT for a missing value; a reused statement cannot.
    if (value === undefined) throw new Error(`bulk insert into ${table}: no value for ${column}`)
    return value
  }

  return async function insert(db, rows) {
    if (rows.length === 0) return []
    const dialect = dialectOf(db)
    if (dialect === 'postgres') {
      const arrays = columns.map((column) => rows.map((row) => valueOf(row, column)))
      return (await db.executeQuery<Record<R, unknown>>(CompiledQuery.raw(statementOf(dialect, 0), arrays))).rows
    }
    const answered: Record<R, unknown>[] = []
    let start = 0
    for (const size of CHUNK_SIZES) {
      while (rows.length - start >= size) {
        const parameters: unknown[] = []
        for (let index = start; index < start + size; index += 1) {
          for (const column of columns) parameters.push(valueOf(rows[index]!, column))
        }
        const result = await db.executeQuery<Record<R, unknown>>(CompiledQuery.raw(statementOf(dialect, size), parameters))
        // Ids it cannot know (never so for a plain insert) are not answered: the rows stay written.
        if (idsFromLastInsert && result.insertId !== undefined && Number(result.numAffectedRows) === size) {
          const last = Number(result.insertId)
          for (let id = last - size + 1; id <= last; id += 1) answered.push({ id } as Record<R, unknown>)
        }
        for (const row of result.rows) answered.push(row)
        start += size
      }
    }
    return answered
  }
}
