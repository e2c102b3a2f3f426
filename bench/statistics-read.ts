// The statistics read of a link with 10 million clicks (written by `linkwell dev seed-clicks`)
// against the same read for a link with 1,000 clicks, in the same database and run: the
// statistics object must not grow with the number of raw clicks. Measured twice: the service
// call alone (what the aggregates cost) and GET /api/url/{id} over HTTP (what a client sees).
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { migrateToLatest, openDatabase, type DB } from '../src/db/database.js'
import { createStatisticsRepository } from '../src/modules/statistics/statistics.repository.js'
import { createStatisticsService } from '../src/modules/statistics/statistics.service.js'
import { startServer } from '../test/helpers/server-process.js'
import { nowTimestamp } from '../src/core/time.js'

interface Options {
  /** Clicks of the large link (default 10 million). */
  largeClicks: number
}

const SMALL_CLICKS = 1_000
const READS = 300
const TARGET_RATIO = 2
const TARGET_MS = 20
const CLI = path.resolve('dist/src/cli.js')

async function insertLink(db: DB, accountId: number, alias: string): Promise<number> {
  const now = nowTimestamp()
  const row = await db
    .insertInto('links')
    .values({ account_id: accountId, domain_id: null, host: '', alias, url: 'https://example.com/', title: null, description: null, password_hash: null, expires_at: null, type: 'direct', splash_id: null, overlay_id: null, campaign_id: null, targeting: '{}', clicks: 0, unique_clicks: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Median and 95th percentile of `reads` timed calls, in milliseconds; calls alternate between items. */
async function timeAlternating(reads: number, items: Array<() => Promise<unknown>>): Promise<Array<{ median: number; p95: number }>> {
  const samples: number[][] = items.map(() => [])
  for (let round = 0; round < reads; round += 1) {
    for (const [index, read] of items.entries()) {
      const started = performance.now()
      await read()
      samples[index]!.push(performance.now() - started)
    }
  }
  return samples.map((values) => {
    const sorted = values.sort((a, b) => a - b)
    return { median: sorted[Math.floor(sorted.length / 2)]!, p95: sorted[Math.floor(sorted.length * 0.95)]! }
  })
}

const format = (value: number) => `${value.toFixed(3)} ms`

export async function runStatisticsReadBench(options: Options): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-stats-'))
  const databaseUrl = `file:${path.join(dir, 'stats.db')}`
  const apiKey = randomBytes(32).toString('base64url')
  try {
    // The server creates the schema and the admin account; the links are inserted directly.
    const setup = await startServer({ DATABASE_URL: databaseUrl, LINKWELL_BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'warn' })
    await setup.stop()
    const handle = openDatabase(databaseUrl)
    await migrateToLatest(handle)
    const account = await handle.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()
    const large = await insertLink(handle.db, account.id, 'large')
    const small = await insertLink(handle.db, account.id, 'small')
    await handle.close()

    const seed = async (linkId: number, count: number) => {
      const started = performance.now()
      await promisify(execFile)(process.execPath, [CLI, 'dev', 'seed-clicks', '--link', String(linkId), '--count', String(count), '--days', '365'], { env: { ...process.env, DATABASE_URL: databaseUrl }, maxBuffer: 1 << 20 })
      return (performance.now() - started) / 1000
    }
    const seedSeconds = await seed(large, options.largeClicks)
    await seed(small, SMALL_CLICKS)

    const reader = openDatabase(databaseUrl)
    const statistics = createStatisticsService({ statistics: createStatisticsRepository(reader.db) })
    const rawRows = await reader.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
    const [largeStats, smallStats] = await Promise.all([large, small].map((itemId) => statistics.overall({ itemType: 'link', itemId })))
    const [serviceLarge, serviceSmall] = await timeAlternating(READS, [
      () => statistics.overall({ itemType: 'link', itemId: large }),
      () => statistics.overall({ itemType: 'link', itemId: small }),
    ])
    await reader.close()

    const server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000' })
    const read = (id: number) => async () => {
      const response = await fetch(`${server.url}/api/url/${id}`, { headers: { authorization: `Bearer ${apiKey}` } })
      if (response.status !== 200) throw new Error(`GET /api/url/${id} answered ${response.status}`)
      await response.arrayBuffer()
    }
    const [httpLarge, httpSmall] = await timeAlternating(READS, [read(large), read(small)]).finally(() => server.stop())

    const ratio = serviceLarge!.median / serviceSmall!.median
    const httpRatio = httpLarge!.median / httpSmall!.median
    const sizeMb = fs.statSync(path.join(dir, 'stats.db')).size / 1_048_576
    console.log(`\nStatistics read: the statistics object of a link, ${READS} reads each, alternating, SQLite (${sizeMb.toFixed(0)} MB database, ${Number(rawRows.count)} raw clicks)`)
    console.log(`  seeded with linkwell dev seed-clicks: ${options.largeClicks} clicks over 365 days in ${seedSeconds.toFixed(0)} s; counted clicks ${largeStats!.clicks} and ${smallStats!.clicks}`)
    console.log(`  service call   ${String(options.largeClicks).padStart(9)} clicks: median ${format(serviceLarge!.median)}, p95 ${format(serviceLarge!.p95)}`)
    console.log(`  service call   ${String(SMALL_CLICKS).padStart(9)} clicks: median ${format(serviceSmall!.median)}, p95 ${format(serviceSmall!.p95)}`)
    console.log(`  GET /api/url/{id} ${String(options.largeClicks).padStart(6)} clicks: median ${format(httpLarge!.median)}, p95 ${format(httpLarge!.p95)}`)
    console.log(`  GET /api/url/{id} ${String(SMALL_CLICKS).padStart(6)} clicks: median ${format(httpSmall!.median)}, p95 ${format(httpSmall!.p95)}`)
    const met = ratio < TARGET_RATIO && serviceLarge!.median < TARGET_MS
    console.log(`  ratio large/small: service ${ratio.toFixed(2)}, HTTP ${httpRatio.toFixed(2)} (target < ${TARGET_RATIO} and < ${TARGET_MS} ms at the large size: ${met ? 'met' : 'NOT met'})`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
