// Queries built and compiled once, then run with new values: on a hot path (an API list several
// thousand times a second) Kysely's building and compiling costs more than SQLite's running the
// statement, which database.ts's statement cache has prepared already. The query is built with
// named placeholders in place of values; compiling it tells where each one went.
import { CompiledQuery, type Compilable, type Kysely } from 'kysely'

const PLACEHOLDER = Symbol('placeholder')

interface Placeholder {
  readonly [PLACEHOLDER]: string
}

function isPlaceholder(value: unknown): value is Placeholder {
  return typeof value === 'object' && value !== null && PLACEHOLDER in value
}

/**
 * A compiled query: run with `values` it answers the rows the built query would. `executor` (a
 * transaction of the same database) runs it instead of the database it was prepared on.
 */
export type PreparedQuery<Values, Row> = (values: Values, executor?: Kysely<any>) => Promise<Row[]>

/**
 * Prepares `build` on `db`: `build` receives placeholders for `values` (use them where the values
 * go, as they are; not inside expressions that would compute with them) and is called once, on
 * the first run, so the SQL is that of `db`'s dialect. Constants in the built query stay as they are.
 */
export function prepareQuery<Values extends Record<string, unknown>, Row>(db: Kysely<any>, build: (values: Values) => Compilable<Row>): PreparedQuery<Values, Row> {
  let compiled: { sql: string; parameters: readonly unknown[] } | undefined
  return async (values, executor = db) => {
    compiled ??= build(new Proxy({}, { get: (_, name) => ({ [PLACEHOLDER]: String(name) }) }) as Values).compile()
    const parameters = compiled.parameters.map((parameter) => (isPlaceholder(parameter) ? values[parameter[PLACEHOLDER]] : parameter))
    const result = await executor.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters))
    return result.rows
  }
}
