// A MySQL/MariaDB database read as an import's source (YOURLS, issue 21): read-only queries on
// one connection, rows answered as plain objects with dates as the server writes them (text).
// The driver (mysql2) stays in db/, as every database driver does.
import mysql from 'mysql2/promise'

export interface MysqlSource {
  /** Rows of a read-only query with `?` parameters. */
  rows<R>(sql: string, parameters?: unknown[]): Promise<R[]>
  close(): Promise<void>
}

/** Connects to `url` (`mysql://user:pass@host:port/db`); the session is read-only, so the source is never written. */
export async function openMysqlSource(url: string): Promise<MysqlSource> {
  const connection = await mysql.createConnection({ uri: url, dateStrings: true, connectTimeout: 10_000, supportBigNumbers: true, bigNumberStrings: false })
  try {
    await connection.query('SET SESSION TRANSACTION READ ONLY')
  } catch (error) {
    await connection.end()
    throw error
  }
  return {
    async rows<R>(sql: string, parameters: unknown[] = []) {
      const [rows] = await connection.query(sql, parameters)
      return rows as R[]
    },
    close: () => connection.end(),
  }
}
