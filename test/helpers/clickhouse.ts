// ClickHouse for a test file (issue 40): the run's server (test/global-setup.ts starts one, or
// TEST_CLICKHOUSE_URL names one) and a database of the file's own, dropped at the end. Files that
// need it use `describeWithClickhouse`: the global setup has already failed the run where the
// server is required (the binary installed, or CI's services set), so it skips only where no
// ClickHouse can be had and the run said so.
import { randomBytes } from 'node:crypto'
import { describe } from 'vitest'
import type { ClickhouseTarget } from '../../src/config.js'

const base = process.env.TEST_CLICKHOUSE_URL

export const describeWithClickhouse = base ? describe : describe.skip

/** The run's server's HTTP URL (`http://127.0.0.1:PORT`). */
export function clickhouseHttpUrl(): string {
  if (!base) throw new Error('TEST_CLICKHOUSE_URL is not set (test/global-setup.ts)')
  const url = new URL(base.replace(/^clickhouse:/, 'http:'))
  return `http://${url.host}`
}

/** A new database name on the run's server for this file. */
export function clickhouseTarget(prefix = 't'): ClickhouseTarget & { env: string } {
  const database = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`
  return { url: clickhouseHttpUrl(), database, username: 'default', password: '', env: `${base!.replace(/\/[^/]*$/, '')}/${database}` }
}

/** Runs a statement on the run's server (tests' own checks and clean-up). */
export async function clickhouseQuery(query: string): Promise<string> {
  const response = await fetch(`${clickhouseHttpUrl()}/`, { method: 'POST', body: query, signal: AbortSignal.timeout(30_000) })
  const text = await response.text()
  if (!response.ok) throw new Error(`ClickHouse refused ${query.slice(0, 80)}: ${text}`)
  return text
}

export async function dropClickhouseDatabase(database: string): Promise<void> {
  await clickhouseQuery(`DROP DATABASE IF EXISTS \`${database}\``)
}
