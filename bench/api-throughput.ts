// API requests per second: one instance on SQLite (the baseline), one on PostgreSQL, two on
// PostgreSQL + Redis, each serving an authenticated, rate-limited, paged list request.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startServer, type ServerProcess } from '../test/helpers/server-process.js'
import { runLoad, type LoadResult } from './load.js'

interface Options {
  seconds: number
  postgresUrl: string
  redisUrl: string
}

const CONCURRENCY = 32
const PATH = '/api/campaigns?limit=15'

async function withDatabase<T>(postgresUrl: string, work: (url: string) => Promise<T>): Promise<T> {
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

async function measure(label: string, servers: ServerProcess[], key: string, seconds: number): Promise<LoadResult> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  // A few campaigns so the list has rows to page through.
  for (let i = 0; i < 20; i += 1) {
    await fetch(`${servers[0]!.url}/api/campaign/add`, { method: 'POST', headers, body: JSON.stringify({ name: `bench ${i}` }) })
  }
  await runLoad({ targets: servers.map((s) => s.url), path: PATH, headers, concurrency: CONCURRENCY, seconds: 1 })
  const result = await runLoad({ targets: servers.map((s) => s.url), path: PATH, headers, concurrency: CONCURRENCY, seconds })
  const other = Object.entries(result.statuses).filter(([status]) => status !== '200')
  if (other.length || result.errors) console.warn(`  ${label}: non-200 answers ${JSON.stringify(result.statuses)}, errors ${result.errors}`)
  return result
}

export async function runApiThroughputBench(options: Options): Promise<void> {
  const key = randomBytes(32).toString('base64url')
  const common = { LINKWELL_BOOTSTRAP_API_KEY: key, RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' }
  const results: Array<[string, LoadResult]> = []

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-'))
  const sqlite = await startServer({ ...common, DATABASE_URL: `file:${path.join(dir, 'bench.db')}` })
  try {
    results.push(['1 instance, SQLite', await measure('sqlite', [sqlite], key, options.seconds)])
  } finally {
    await sqlite.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }

  await withDatabase(options.postgresUrl, async (url) => {
    const single = await startServer({ ...common, DATABASE_URL: url })
    try {
      results.push(['1 instance, PostgreSQL', await measure('postgres', [single], key, options.seconds)])
    } finally {
      await single.stop()
    }
  })

  await withDatabase(options.postgresUrl, async (url) => {
    const env = { ...common, DATABASE_URL: url, REDIS_URL: options.redisUrl, REDIS_PREFIX: `lwbench:${randomBytes(3).toString('hex')}:` }
    const pair = await Promise.all([startServer(env), startServer(env)])
    try {
      results.push(['2 instances, PostgreSQL + Redis', await measure('postgres+redis', pair, key, options.seconds)])
    } finally {
      await Promise.all(pair.map((server) => server.stop()))
    }
  })

  const baseline = results[0]![1].perSecond
  console.log(`\nAPI throughput: GET ${PATH}, ${CONCURRENCY} concurrent keep-alive clients, ${options.seconds} s each, ${os.cpus().length} cores`)
  for (const [label, result] of results) {
    console.log(`  ${label.padEnd(34)} ${result.perSecond.toFixed(0).padStart(7)} req/s   ratio to SQLite ${(result.perSecond / baseline).toFixed(2)}`)
  }
}
