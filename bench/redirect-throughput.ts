// Redirects per second: the real server (one instance, SQLite) answering `GET /{alias}` of one
// direct link with every click recorded, enriched and aggregated, against a bare node:http
// server answering a fixed 302, under the same load in the same run. Visitors vary (20,000
// addresses, 7 browsers, referrers, languages). Afterwards the clicks table, the link counter
// and the aggregates must each count one click per 302.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase, type DB } from '../src/db/database.js'
import { freePort, startServer } from '../test/helpers/server-process.js'
import { runLoad, type LoadResult } from './load.js'
import { visitorHeaders } from './visitors.js'

interface Options {
  seconds: number
}

const CONCURRENCY = 32
const DESTINATION = 'https://example.com/landing?utm_source=bench'
const ALIAS = 'bench-link'
const HEADERS = visitorHeaders()
/** What the target ratio to the bare server is (the redirect path must stay short). */
const TARGET_RATIO = 0.6

// The baseline: as little as a Node HTTP server can do for a redirect (same keep-alive timeout).
const BARE_SERVER = `
const http = require('node:http')
const server = http.createServer((request, response) => {
  response.writeHead(302, { location: ${JSON.stringify(DESTINATION)}, 'cache-control': 'private, max-age=0' })
  response.end()
})
server.keepAliveTimeout = 5000
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
`

async function startBareServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk) => {
      output += chunk
      if (output.includes('\n')) resolve(Number(output.trim()))
    })
    child.once('exit', (code) => reject(new Error(`bare redirect server exited with ${code}`)))
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** Creates the benchmarked link through the API; falls back to a direct insert when the API refuses. */
async function createLink(baseUrl: string, apiKey: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/url/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: DESTINATION, custom: ALIAS }),
  })
  if (response.status !== 201) throw new Error(`POST /api/url/add answered ${response.status}: ${await response.text()}`)
}

const ROUNDS = 5

/** One measured load on one server; warns about any answer that is not the expected 302. */
async function measure(label: string, baseUrl: string, seconds: number): Promise<LoadResult> {
  const run = await runLoad({ targets: [baseUrl], path: `/${ALIAS}`, headers: HEADERS, concurrency: CONCURRENCY, seconds })
  const other = Object.entries(run.statuses).filter(([status]) => status !== '302')
  if (other.length || run.errors) console.warn(`  ${label}: non-302 answers ${JSON.stringify(run.statuses)}, errors ${run.errors}`)
  return run
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function countClicks(db: DB): Promise<{ rows: number; counter: number; aggregate: number }> {
  const link = await db.selectFrom('links').select(['id', 'clicks']).where('host', '=', '').where('alias', '=', ALIAS).executeTakeFirstOrThrow()
  const rows = await db
    .selectFrom('clicks')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('item_type', '=', 'link')
    .where('item_id', '=', link.id)
    .executeTakeFirstOrThrow()
  const total = await db
    .selectFrom('click_totals')
    .select('clicks')
    .where('item_type', '=', 'link')
    .where('item_id', '=', link.id)
    .where('dimension', '=', 'clicks')
    .executeTakeFirst()
  return { rows: Number(rows.count), counter: link.clicks, aggregate: total?.clicks ?? 0 }
}

/** Runs the redirect benchmark and prints req/s of both servers, their ratio and the click check. */
export async function runRedirectThroughputBench(options: Options): Promise<void> {
  const apiKey = randomBytes(32).toString('base64url')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-redirect-'))
  const databaseFile = path.join(dir, 'bench.db')
  // Both servers run side by side and take turns under load, so a slow patch of the machine
  // weighs on both; the ratio reported is the median of the rounds' ratios.
  const bare = await startBareServer()
  // PUBLIC_URL names the exact host the load generator sends, so the alias is on the main host.
  const port = await freePort()
  const server = await startServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: `file:${databaseFile}`,
    LINKWELL_BOOTSTRAP_API_KEY: apiKey,
    RATE_LIMIT_PER_MINUTE: '1000000',
    // The load generator plays a proxy in front of many visitors.
    TRUSTED_PROXIES: '127.0.0.1',
    LOG_LEVEL: 'warn',
  })
  try {
    let redirects = 0
    const rounds: Array<{ bare: LoadResult; linkwell: LoadResult }> = []
    try {
      await createLink(server.url, apiKey)
      await measure('bare node:http', bare.url, 1)
      redirects += (await measure('linkwell', server.url, 1)).statuses[302] ?? 0
      for (let round = 0; round < ROUNDS; round += 1) {
        const bareRun = await measure('bare node:http', bare.url, options.seconds)
        const linkwellRun = await measure('linkwell', server.url, options.seconds)
        redirects += linkwellRun.statuses[302] ?? 0
        rounds.push({ bare: bareRun, linkwell: linkwellRun })
      }
    } finally {
      await bare.stop()
      // A clean stop flushes every queued click before the process exits.
      const code = await server.stop()
      if (code !== 0) console.warn(`  linkwell exited with ${code}:\n${server.output()}`)
    }

    const handle = openDatabase(`file:${databaseFile}`)
    const recorded = await countClicks(handle.db).finally(() => handle.close())

    const ratios = rounds.map((round) => round.linkwell.perSecond / round.bare.perSecond)
    const ratio = median(ratios)
    console.log(`\nRedirect throughput: GET /{alias}, ${CONCURRENCY} concurrent keep-alive clients, ${ROUNDS} alternating rounds of ${options.seconds} s, ${os.cpus().length} cores`)
    console.log(`  ${'bare node:http, fixed 302'.padEnd(34)} ${rounds.map((round) => round.bare.perSecond.toFixed(0).padStart(7)).join(' ')} req/s`)
    console.log(`  ${'Linkwell, SQLite, clicks counted'.padEnd(34)} ${rounds.map((round) => round.linkwell.perSecond.toFixed(0).padStart(7)).join(' ')} req/s`)
    console.log(`  ratio per round ${ratios.map((value) => value.toFixed(2)).join(', ')}; median ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`)
    const complete = recorded.rows === redirects && recorded.counter === redirects && recorded.aggregate === redirects
    console.log(`  clicks recorded: ${recorded.rows} rows, link counter ${recorded.counter}, aggregate ${recorded.aggregate}, for ${redirects} redirects (warm-up included): ${complete ? 'every click recorded' : 'MISMATCH'}`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
