// A throw-away PostgreSQL database for one benchmark, dropped afterwards.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export async function withBenchDatabase<T>(postgresUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `lw_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  try {
    const url = new URL(postgresUrl)
    url.pathname = `/${name}`
    return await work(url.toString())
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
}
