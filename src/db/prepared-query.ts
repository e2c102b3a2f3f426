// Queries built and compiled once, then run with new values: on a hot path (an API list several
// thousand times a second) Kysely's building and compiling costs more than SQLite's running the
// statement, which database.ts's statement cache has prepared already. The query is built with
// named placeholders in place of values; compiling it tells where each one went.
import { CompiledQuery, type Compilable, type Kysely } from 'kysely'
import { dialectOf, type DialectName } from './dialect.js'
import type { Database } from './schema.js'

const PLACEHOLDER = Symbol('placeholder')

interface Placeholder {
  readonly [PLACEHOLDER]: string
}

function isPlaceholder(value: unknown): value is Placeholder {
  return typeof value === 'object' && value !== null && PLACEHOLDER in value
}

/** A compiled query: run with `values` it answers the rows the built query would. */
export type PreparedQuery<Values, Row> = (values: Values) => Promise<Row[]>

interface CompiledTemplate {
  sql: string
  parameters: readonly unknown[]
}

/** Compiles the query `build` makes of placeholders: where each value goes is read off its parameters. */
function compileTemplate<Values>(build: (values: Values) => Compilable<unknown>): CompiledTemplate {
  return build(new Proxy({}, { get: (_, name) => ({ [PLACEHOLDER]: String(name) }) }) as Values).compile()
}

async function run<Row>(executor: Kysely<any>, template: CompiledTemplate, values: Record<string, unknown>): Promise<Row[]> {
  const parameters = template.parameters.map((parameter) => (isPlaceholder(parameter) ? values[parameter[PLACEHOLDER]] : parameter))
  return (await executor.executeQuery<Row>(CompiledQuery.raw(template.sql, parameters))).rows
}

/**
 * Prepares `build` on `db`: `build` receives placeholders for `values` (use them where the values
 * go, as they are; not inside expressions that would compute with them) and is called once, on
 * the first run, so the SQL is that of `db`'s dialect. Constants in the built query stay as they are.
 */
export function prepareQuery<Values extends Record<string, unknown>, Row>(db: Kysely<any>, build: (values: Values) => Compilable<Row>): PreparedQuery<Values, Row> {
  let template: CompiledTemplate | undefined
  return (values) => run<Row>(db, (template ??= compileTemplate(build)), values)
}

/**
 * Like prepareQuery, for a statement run on whichever database (or transaction) each caller
 * passes: compiled once per dialect, on the first run there, and keeping no database itself.
 */
export function prepareStatement<Values extends Record<string, unknown>, Row>(build: (db: Kysely<Database>, values: Values) => Compilable<Row>): (executor: Kysely<Database>, values: Values) => Promise<Row[]> {
  const templates = new Map<DialectName, CompiledTemplate>()
  return (executor, values) => {
    const dialect = dialectOf(executor)
    let template = templates.get(dialect)
    if (!template) templates.set(dialect, (template = compileTemplate((placeholders: Values) => build(executor, placeholders))))
    return run<Row>(executor, template, values)
  }
}
