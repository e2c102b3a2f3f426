// Another system's database read as an import's source (Kutt, Shlink; issue 21): a SQLite file,
// a PostgreSQL URL or a MySQL/MariaDB URL, answered through one read-only interface. Queries
// are written with `?` placeholders (numbered for PostgreSQL here). Nothing is ever written:
// SQLite is opened read-only, PostgreSQL and MySQL sessions are set read-only. The drivers stay
// in db/, as every database driver does.
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { nowTimestamp } from '../core/time.js'
import { openMysqlSource } from './mysql-source.js'

export type SourceDialect = 'sqlite' | 'postgres' | 'mysql'

export interface SqlSource {
  dialect: SourceDialect
  /** Rows of a read-only query with `?` parameters. */
  rows<R>(sql: string, parameters?: unknown[]): Promise<R[]>
  /** Whether `table` is in the database (the schema the connection reads). */
  hasTable(table: string): Promise<boolean>
  close(): Promise<void>
}

/** The dialect an address names: `sqlite:/path` (or `file:`), `postgres://`, `postgresql://`, `mysql://`, `mariadb://`. */
export function sourceDialectOf(url: string): SourceDialect | undefined {
  if (/^(sqlite|file):/i.test(url)) return 'sqlite'
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgres'
  if (/^(mysql|mariadb):\/\//i.test(url)) return 'mysql'
  return undefined
}

/** The address without its password, to name the source in reports. */
export function sourceNameOf(url: string): string {
  if (sourceDialectOf(url) === 'sqlite') return url
  try {
    const parsed = new URL(url)
    parsed.password = ''
    return parsed.toString()
  } catch {
    return '(unreadable address)'
  }
}

function sqlitePathOf(url: string): string {
  // sqlite:/abs/path, sqlite:///abs/path, sqlite:relative/path, file:/abs/path
  const rest = url.replace(/^(sqlite|file):/i, '')
  return rest.startsWith('///') ? rest.slice(2) : rest.startsWith('//') ? rest.slice(2) : rest
}

function openSqlite(url: string): SqlSource {
  const database = new SQLite(sqlitePathOf(url), { readonly: true, fileMustExist: true })
  return {
    dialect: 'sqlite',
    async rows<R>(sql: string, parameters: unknown[] = []) {
      return database.prepare(sql).all(...(parameters as unknown[])) as R[]
    },
    async hasTable(table) {
      return database.prepare("select 1 from sqlite_master where type in ('table', 'view') and name = ?").get(table) !== undefined
    },
    async close() {
      database.close()
    },
  }
}

/** `?` → `$1`, `$2`, … (no `?` appears in the importers' SQL other than as a placeholder). */
function numbered(sql: string): string {
  let index = 0
  return sql.replace(/\?/g, () => `$${++index}`)
}

async function openPostgres(url: string): Promise<SqlSource> {
  // Dates as the server writes them (text), in UTC: read the same whatever this process's zone.
  const textType = (value: string) => value
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === 1114 || oid === 1184 || oid === 1082 ? textType : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser },
  })
  await client.connect()
  try {
    await client.query("set session characteristics as transaction read only; set time zone 'UTC'")
  } catch (error) {
    await client.end()
    throw error
  }
  return {
    dialect: 'postgres',
    async rows<R>(sql: string, parameters: unknown[] = []) {
      return (await client.query(numbered(sql), parameters)).rows as R[]
    },
    async hasTable(table) {
      return (await client.query('select to_regclass($1) is not null as found', [table])).rows[0]?.found === true
    },
    close: () => client.end(),
  }
}

async function openMysql(url: string): Promise<SqlSource> {
  const source = await openMysqlSource(url.replace(/^mariadb:/i, 'mysql:'))
  return {
    dialect: 'mysql',
    rows: (sql, parameters) => source.rows(sql, parameters),
    async hasTable(table) {
      return (await source.rows('select 1 from information_schema.tables where table_schema = database() and table_name = ?', [table])).length > 0
    },
    close: () => source.close(),
  }
}

/** Opens the source database `url` names; throws the driver's reason when it cannot (wrong password, no such host or file). */
export async function openSqlSource(url: string): Promise<SqlSource> {
  const dialect = sourceDialectOf(url)
  if (dialect === 'sqlite') return openSqlite(url)
  if (dialect === 'postgres') return openPostgres(url)
  if (dialect === 'mysql') return openMysql(url)
  throw new Error('the address must start with sqlite:, postgres:// or mysql://')
}

/** A date or time a source driver answered (text, a Date, or epoch milliseconds or seconds) as `YYYY-MM-DD HH:MM:SS` UTC text, or undefined. */
export function sourceTimestamp(value: unknown): string | undefined {
  const iso = (date: Date) => (Number.isNaN(date.getTime()) ? undefined : nowTimestamp(date))
  if (value instanceof Date) return iso(value)
  if (typeof value === 'number' || (typeof value === 'string' && /^\d{9,13}$/.test(value))) {
    const number = Number(value)
    return iso(new Date(number > 1e11 ? number : number * 1000))
  }
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  // `YYYY-MM-DD HH:MM:SS[.fff]` without a zone is UTC (as every source here writes it).
  const plain = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?$/.exec(text)
  if (plain) return `${plain[1]} ${plain[2]}`
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text} 00:00:00`
  // With a zone: `+00`, `+01:00`, `Z`.
  const zoned = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}(?::?\d{2})?)$/.exec(text)
  if (zoned) {
    const zone = zoned[3] === 'Z' ? 'Z' : zoned[3]!.length === 3 ? `${zoned[3]}:00` : zoned[3]!.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')
    return iso(new Date(`${zoned[1]}T${zoned[2]}${zone}`))
  }
  return undefined
}

/** A JSON column as drivers answer it: parsed already (PostgreSQL jsonb, MySQL json) or text (SQLite). */
export function sourceJson(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return undefined
  }
}
