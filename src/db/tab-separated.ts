// Text columns joined and escaped as ClickHouse's TabSeparated format reads them, built by the
// database (the ClickHouse feeder's page, ADR 035): chosen here, since only PostgreSQL's text is
// known to hold no NUL (which the format escapes too); on SQLite the caller escapes the rows itself.
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { dialectOf } from './dialect.js'

/**
 * `columns` ('' for null) escaped (backslash, tab, line feed, carriage return, in that order) and
 * joined by tabs, then `flag` as 0 or 1; null on a database that does not build it (SQLite).
 */
export function tabSeparatedText(db: Kysely<any>, columns: readonly string[], flag: string): RawBuilder<string> | null {
  if (dialectOf(db) !== 'postgres') return null
  const escaped = (column: string) => sql`replace(replace(replace(replace(coalesce(${sql.ref(column)}, ''), chr(92), chr(92) || chr(92)), chr(9), chr(92) || 't'), chr(10), chr(92) || 'n'), chr(13), chr(92) || 'r')`
  return sql<string>`concat_ws(chr(9), ${sql.join(columns.map(escaped))}, case when ${sql.ref(flag)} = 1 then '1' else '0' end)`
}
