// A page of rows carrying the ids of a child table in the same query: one aggregate whose SQL
// differs by database (SQLite's group_concat, PostgreSQL's string_agg), chosen here.
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { dialectOf } from './dialect.js'

/**
 * The integer values of `column` over the rows aggregated, ascending, as one text (`"3,7,12"`;
 * null for no rows): SQLite's group_concat, PostgreSQL's string_agg. Read back with idsOfList.
 * Lets a page of rows carry their ids of a child table in the same query, not one more.
 */
export function orderedIdList(db: Kysely<any>, column: string): RawBuilder<string | null> {
  const ref = sql.ref(column)
  return dialectOf(db) === 'postgres' ? sql<string | null>`string_agg(${ref}::text, ',' order by ${ref})` : sql<string | null>`group_concat(${ref}, ',' order by ${ref})`
}

/** The ids of an orderedIdList text, in its order. */
export function idsOfList(text: string | null): number[] {
  return text ? text.split(',').map(Number) : []
}
