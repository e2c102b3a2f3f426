// Redirects per second: Linkwell answering `GET /{alias}` of one direct link with every click
// recorded, enriched and aggregated, against a bare node:http server sending the same 302, in
// alternating rounds under wrk: the default configuration, the tuned one (ADR 014), the default
// without metrics (ADR 019), the default with a `link.clicked` webhook (issue 22: a receiver on
// loopback, WEBHOOK_ALLOW_PRIVATE=1), with the webhook's deliveries per second, and the default
// redirecting a link with every option (ADR 020) side by side.
// On SQLite and on PostgreSQL, each server with its own database (every redirect after the first
// a cache hit). Visitors vary (20,000 addresses, 8 browsers, referrers, languages).
// Afterwards the clicks table, the link counter and the aggregates must each count one click per
// redirect answered: exactly for a counted run, and for the wrk rounds up to the requests wrk
// abandons in flight when it stops (at most one per connection per run).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { spawn } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { openDatabase, type DatabaseHandle, type DB } from '../src/db/database.js'
import { freePort, startServer, type ServerProcess } from '../test/helpers/server-process.js'
import { fixedResponseOf, startBareServer } from './bare-server.js'
import { runLoad } from './load.js'
import { alternateMany, median, printRounds, type RoundsSummary } from './rounds.js'
import { visitorHeaders } from './visitors.js'
import { withBenchDatabase } from './postgres-database.js'

export interface RedirectBenchOptions {
  seconds: number
  rounds: number
  postgresUrl: string
  /** Node flags for the server (e.g. --cpu-prof while profiling). */
  nodeArgs?: string[]
  /** Only these configurations (their numbers in CONFIGURATIONS, from 0), and the comparisons among them; by default all. */
  configurations?: readonly number[]
}

const CONNECTIONS = 50
const DESTINATION = 'https://example.com/landing?utm_source=bench'
const ALIAS = 'bench-link'
/**
 * The path every visit asks: the alias, with BENCH_VISITOR_QUERY as the visitor's own query string
 * (`gclid=abc&utm_source=ads`, as ad clicks arrive) when set; a link that does not pass it on drops it.
 */
const VISIT_PATH = `/${ALIAS}${process.env.BENCH_VISITOR_QUERY ? `?${process.env.BENCH_VISITOR_QUERY}` : ''}`
const VISITORS = 20_000
const COUNTED_REQUESTS = 5_000
export const SERVER_CPU = 0
export const LOAD_CPU = 1
const TARGETS = { sqlite: 0.75, postgres: 0.6 }

export async function createBenchLink(baseUrl: string, apiKey: string, alias: string, url = DESTINATION, options: Record<string, unknown> = {}): Promise<void> {
  const response = await fetch(`${baseUrl}/api/url/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, custom: alias, ...options }),
  })
  if (response.status !== 201) throw new Error(`POST /api/url/add answered ${response.status}: ${await response.text()}`)
}

/** The link's raw clicks, its counter and its click aggregate. */
export async function countClicks(db: DB, alias: string): Promise<{ rows: number; counter: number; aggregate: number }> {
  const link = await db.selectFrom('links').select(['id', 'clicks']).where('host', '=', '').where('alias', '=', alias).executeTakeFirstOrThrow()
  const rows = await db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('count')).where('item_type', '=', 'link').where('item_id', '=', link.id).executeTakeFirstOrThrow()
  const total = await db.selectFrom('click_totals').select('clicks').where('item_type', '=', 'link').where('item_id', '=', link.id).where('dimension', '=', 'clicks').executeTakeFirst()
  return { rows: Number(rows.count), counter: link.clicks, aggregate: total?.clicks ?? 0 }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500))

/**
 * Every link option of issue 23 at once (ADR 020): UTM parameters merged into the destination, a
 * click cap that is never reached (so every visit counts against it), app links for iOS and
 * Android visitors and a three-way split test.
 */
const EVERY_LINK_OPTION = {
  utm: { source: 'newsletter', medium: 'email', campaign: 'bench' },
  clicklimit: 1_000_000_000,
  expiredurl: 'https://example.com/expired',
  ios: 'https://apps.apple.com/app/id000000001',
  android: 'https://play.google.com/store/apps/details?id=com.example.bench',
  variants: [{ url: 'https://example.com/a', weight: 2 }, { url: 'https://example.com/b', weight: 1 }, { url: 'https://example.com/c', weight: 1 }],
}

/**
 * The configurations measured side by side: what `npm start` runs with nothing set (LOG_LEVEL=info:
 * API lines, visitors counted per minute; metrics on), the quietest (LOG_LEVEL=warn), the default
 * without metrics (METRICS=off), and the default with a webhook for `link.clicked` (every recorded
 * click is also an outbox event in its batch's transaction, then a signed delivery), and the default
 * redirecting a link with every option set.
 */
/** The columnar store's file of the configuration that has one. */
const ANALYTICS_FILE = path.join(os.tmpdir(), `lw-bench-analytics-${process.pid}.duckdb`)

const CONFIGURATIONS: ReadonlyArray<{ name: string; env: Record<string, string>; webhook?: boolean; link?: Record<string, unknown> }> = [
  { name: 'default (LOG_LEVEL=info)', env: { LOG_LEVEL: 'info' } },
  { name: 'tuned (LOG_LEVEL=warn)', env: { LOG_LEVEL: 'warn' } },
  { name: 'default without metrics (METRICS=off)', env: { LOG_LEVEL: 'info', METRICS: 'off' } },
  { name: 'default with a link.clicked webhook', env: { LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE: '1' }, webhook: true },
  { name: 'default, a link with every option', env: { LOG_LEVEL: 'info' }, link: EVERY_LINK_OPTION },
  // The columnar store (ADR 022) tails the clicks into DuckDB beside the server; removed after each database's run.
  { name: 'default with the columnar store (ANALYTICS_STORE)', env: { LOG_LEVEL: 'info', ANALYTICS_STORE: ANALYTICS_FILE } },
  // Conversions (issue 39, ADR 034): a click id made on the request and appended; then also the
  // visitor's own query passed on (BENCH_VISITOR_QUERY gives every configuration's visits one).
  { name: 'default, a link tracking conversions (click ids)', env: { LOG_LEVEL: 'info' }, link: { trackconversions: true } },
  { name: 'default, click ids and the visitor\'s query passed on', env: { LOG_LEVEL: 'info' }, link: { trackconversions: true, passthrough: true } },
]

/**
 * Ratios of two configurations' rates, per round, and the least each may be: ADR 014 (5 %), ADR 019
 * (2 %), issue 22 (10 %). A link with every option set does more per visit (a split test's pick, the
 * UTM merge, the platform's app link): issue 23 bounds only options left unused (the
 * redirect-options bench), so that price is reported, not held to a bound.
 */
const COMPARISONS: ReadonlyArray<{ label: string; of: number; to: number; atLeast: number | null }> = [
  { label: 'default ÷ tuned', of: 0, to: 1, atLeast: 0.95 },
  { label: 'metrics on ÷ off', of: 0, to: 2, atLeast: 0.98 },
  { label: 'webhooks on ÷ off', of: 3, to: 0, atLeast: 0.9 },
  { label: 'options ÷ none', of: 4, to: 0, atLeast: null },
  { label: 'columnar ÷ none', of: 5, to: 0, atLeast: 0.9 },
  { label: 'click ids ÷ none', of: 6, to: 0, atLeast: 0.95 },
  { label: 'click ids and passthrough ÷ none', of: 7, to: 0, atLeast: 0.95 },
]

/**
 * The webhook receiver: a node:http server on loopback answering 204 at once, counting deliveries
 * and the clicks they carry (GET /count tells). It runs in its own process pinned to the load
 * generator's core: in this process (unpinned) it could take the core of the server it measures.
 */
const CLICK_RECEIVER = `
const http = require('node:http')
let deliveries = 0
let clicks = 0
const server = http.createServer((request, response) => {
  if (request.method === 'GET') return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ deliveries, clicks }))
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', () => {
    deliveries += 1
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    if (event.type === 'link.clicked') clicks += event.data.clicks ? event.data.clicks.length : 0
    response.writeHead(204).end()
  })
})
server.keepAliveTimeout = 60000
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
`

interface ClickReceiver {
  url: string
  /** Deliveries received so far and the clicks they carried. */
  counts(): Promise<{ deliveries: number; clicks: number }>
  close(): Promise<void>
}

export async function startClickReceiver(cpu: number): Promise<ClickReceiver> {
  const child = spawn('taskset', ['-c', String(cpu), process.execPath, '-e', CLICK_RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk) => {
      output += chunk
      if (output.includes('\n')) resolve(Number(output.trim()))
    })
    child.once('exit', (code) => reject(new Error(`webhook receiver exited with ${code}`)))
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const base = `http://127.0.0.1:${port}`
  return {
    url: `${base}/clicks`,
    counts: async () => (await (await fetch(`${base}/count`)).json()) as { deliveries: number; clicks: number },
    close: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

export async function addClickWebhook(baseUrl: string, apiKey: string, url: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/webhook/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['link.clicked'] }),
  })
  if (response.status !== 201) throw new Error(`POST /api/webhook/add answered ${response.status}: ${await response.text()}`)
}

interface BenchServer {
  name: string
  server: ServerProcess
  handle: DatabaseHandle
}

async function startBenchServer(name: string, databaseUrl: string, env: Record<string, string>, options: RedirectBenchOptions, webhookUrl?: string, link: Record<string, unknown> = {}, entry?: { file: string; cwd: string }): Promise<BenchServer> {
  const apiKey = randomBytes(32).toString('base64url')
  // PUBLIC_URL names the exact host wrk sends, so the alias is on the main host.
  const port = await freePort()
  const server = await startServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    LINKWELL_BOOTSTRAP_API_KEY: apiKey,
    RATE_LIMIT_PER_MINUTE: '1000000',
    // wrk plays a proxy in front of many visitors.
    TRUSTED_PROXIES: '127.0.0.1',
    ...env,
  }, { cpu: SERVER_CPU, nodeArgs: options.nodeArgs, entry })
  const handle = openDatabase(databaseUrl)
  await createBenchLink(server.url, apiKey, ALIAS, DESTINATION, link)
  if (webhookUrl) await addClickWebhook(server.url, apiKey, webhookUrl)
  return { name, server, handle }
}

/** The counted run on one server, its clean stop, and the check that every answered redirect left one click. */
async function checkClicks(bench: BenchServer, summary: RoundsSummary & { warmUpRequests: number }, extraAnswers: number): Promise<void> {
  const { server, handle } = bench
  // Exactly counted: every one of these requests has its answer before the run ends.
  await settle()
  const before = await countClicks(handle.db, ALIAS)
  const counted = await runLoad({ targets: [server.url], path: VISIT_PATH, headers: visitorHeaders(VISITORS), concurrency: 16, seconds: 60, maxRequests: COUNTED_REQUESTS })
  await settle()
  const after = await countClicks(handle.db, ALIAS)
  const code = await server.stop()
  if (code !== 0) console.warn(`  linkwell exited with ${code}:\n${server.output()}`)
  // A clean stop has written every queued click.
  const final = await countClicks(handle.db, ALIAS)
  const exact = after.rows - before.rows === counted.statuses[302] && after.counter - before.counter === counted.statuses[302] && after.aggregate - before.aggregate === counted.statuses[302]
  console.log(`    ${bench.name}, counted run: ${counted.statuses[302] ?? 0} redirects of ${counted.requests} requests → ${after.rows - before.rows} rows, counter +${after.counter - before.counter}, aggregate +${after.aggregate - before.aggregate}: ${exact ? 'every click recorded' : 'MISMATCH'}`)
  const answered = summary.requests + summary.warmUpRequests + (counted.statuses[302] ?? 0) + extraAnswers
  const runs = summary.rounds.length + 1
  const abandoned = final.rows - answered
  const consistent = final.rows === final.counter && final.rows === final.aggregate && abandoned >= 0 && abandoned <= CONNECTIONS * runs
  console.log(`    ${bench.name}, all runs: ${final.rows} rows, counter ${final.counter}, aggregate ${final.aggregate}; wrk and the counted run saw ${answered} answers, ${abandoned} more were in flight when wrk stopped (at most ${CONNECTIONS * runs}): ${consistent ? 'consistent' : 'MISMATCH'}`)
}

/**
 * Alternating wrk rounds of `servers` beside a bare node:http server sending the first one's answer
 * (taken with one counted visit of the first server).
 */
async function roundsAgainstBare(servers: BenchServer[], options: RedirectBenchOptions): Promise<Array<RoundsSummary & { warmUpRequests: number }>> {
  const bare = await startBareServer(await fixedResponseOf(`${servers[0]!.server.url}${VISIT_PATH}`, visitorHeaders(VISITORS)(0)), SERVER_CPU)
  try {
    return await alternateMany({
      bare: { url: bare.url, pid: bare.pid },
      linkwell: servers.map(({ server }) => ({ url: server.url, pid: server.child.pid! })),
      rounds: options.rounds,
      load: { path: VISIT_PATH, seconds: options.seconds, headers: visitorHeaders(VISITORS), variants: VISITORS, connections: CONNECTIONS, cpu: LOAD_CPU },
    })
  } finally {
    await bare.stop()
  }
}

async function measureOn(label: string, databaseUrls: readonly string[], options: RedirectBenchOptions, target: number): Promise<void> {
  const servers: BenchServer[] = []
  // Configuration number → its place among those measured.
  const chosen = CONFIGURATIONS.map((_, index) => index).filter((index) => !options.configurations || options.configurations.includes(index))
  const placeOf = (index: number) => chosen.indexOf(index)
  // On the load generator's core, never the measured server's.
  const receiver = await startClickReceiver(LOAD_CPU)
  try {
    for (const index of chosen) {
      const configuration = CONFIGURATIONS[index]!
      servers.push(await startBenchServer(configuration.name, databaseUrls[index]!, configuration.env, options, configuration.webhook ? receiver.url : undefined, configuration.link))
    }
    const summaries = await roundsAgainstBare(servers, options)
    for (const [index, summary] of summaries.entries()) printRounds(`${label}, ${servers[index]!.name}: GET /{alias} → 302, every click recorded`, summary, target)
    for (const { label: comparison, of, to, atLeast } of COMPARISONS) {
      if (placeOf(of) === -1 || placeOf(to) === -1) continue
      const perRound = summaries[placeOf(of)]!.rounds.map((round, index) => round.linkwell.perSecond / summaries[placeOf(to)]!.rounds[index]!.linkwell.perSecond)
      const ratio = median(perRound)
      const verdict = atLeast === null ? 'reported, no bound' : `target ≥ ${atLeast.toFixed(2)}: ${ratio >= atLeast ? 'met' : 'NOT met'}`
      console.log(`    ${comparison.padEnd(17)}${perRound.map((value) => value.toFixed(2).padStart(7)).join(' ')}         median ${ratio.toFixed(3)} (${verdict})`)
    }
    const webhook = placeOf(CONFIGURATIONS.findIndex((configuration) => configuration.webhook))
    if (webhook !== -1) await printDeliveries(servers[webhook]!, receiver, options)
    // +1 on the first server: the request that took the bare server's fixed answer from it was a counted visit too.
    for (const [index, bench] of servers.entries()) await checkClicks(bench, summaries[index]!, index === 0 ? 1 : 0)
  } finally {
    for (const { server, handle } of servers) {
      if (server.child.exitCode === null) await server.stop()
      await handle.close()
    }
    await receiver.close()
    for (const file of [ANALYTICS_FILE, `${ANALYTICS_FILE}.wal`]) fs.rmSync(file, { force: true })
  }
}

/**
 * The webhook's deliveries: per second over the time its server was under load (deliveries run
 * beside the redirects and catch up during the other servers' rounds), then, once the outbox has
 * drained, whether the clicks delivered are the clicks recorded.
 */
async function printDeliveries(bench: BenchServer, receiver: ClickReceiver, options: RedirectBenchOptions): Promise<void> {
  const loadSeconds = options.rounds * options.seconds
  let received = await receiver.counts()
  console.log(`    webhook: ${received.deliveries} deliveries carrying ${received.clicks} clicks by the end of the rounds: ${(received.deliveries / loadSeconds).toFixed(1)} deliveries/s, ${Math.round(received.clicks / loadSeconds)} clicks/s over its ${loadSeconds} s of load (receiver on core ${LOAD_CPU})`)
  const deadline = Date.now() + 60_000
  let recorded = await countClicks(bench.handle.db, ALIAS)
  while (received.clicks < recorded.rows && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500))
    recorded = await countClicks(bench.handle.db, ALIAS)
    received = await receiver.counts()
  }
  console.log(`    webhook, drained: ${received.clicks} clicks delivered in ${received.deliveries} deliveries, ${recorded.rows} recorded: ${received.clicks === recorded.rows ? 'every recorded click delivered' : 'MISMATCH (or not drained in 60 s)'}`)
}

/** Runs the redirect benchmark on SQLite and on PostgreSQL. */
export async function runRedirectThroughputBench(options: RedirectBenchOptions, only: Set<string> = new Set(['sqlite', 'postgres'])): Promise<void> {
  console.log(`\nRedirect throughput: wrk -t1 -c${CONNECTIONS}, server on core ${SERVER_CPU}, wrk on core ${LOAD_CPU}, ${options.rounds} alternating rounds of ${options.seconds} s, ${os.cpus().length} cores`)
  if (only.has('sqlite')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-redirect-'))
    try {
      await measureOn('SQLite', CONFIGURATIONS.map((_, index) => `file:${path.join(dir, `bench-${index}.db`)}`), options, TARGETS.sqlite)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
  if (only.has('postgres')) {
    // One database per configuration, each dropped afterwards.
    const withDatabases = (urls: string[]): Promise<void> => urls.length === CONFIGURATIONS.length
      ? measureOn('PostgreSQL', urls, options, TARGETS.postgres)
      : withBenchDatabase(options.postgresUrl, (url) => withDatabases([...urls, url]))
    await withDatabases([])
  }
}

/** A built checkout a baseline bench measures: its label and folder (undefined: this checkout). */
interface Build {
  label: string
  dir?: string
}

/**
 * One redirect, a link without options, on other builds side by side with a baseline build, in
 * alternating rounds of one run beside the bare node:http server, each server on a fresh database
 * of its own, SQLite and (with a PostgreSQL URL) PostgreSQL. Opt-in (BENCH_ONLY=redirect-baseline,
 * or redirect-options for issue 23's SQLite-only figure): the baseline is another checkout, built
 * there, named by BENCH_BASELINE_DIR; BENCH_CURRENT_DIR names further built checkouts measured beside
 * this one (comma-separated), to tell which commit costs what. Each build's rate is printed with its
 * ratio to the baseline's, per round and as the median (issue 23: ≥ 0.95; issue 41: within 5 %).
 */
export async function runRedirectBaselineBench(options: RedirectBenchOptions & { baselineDir: string; baselineLabel?: string; currentDirs?: string[]; databases: ReadonlyArray<'sqlite' | 'postgres'> }): Promise<void> {
  const baselineDir = path.resolve(options.baselineDir)
  const entryOf = (dir: string) => path.join(path.resolve(dir), 'dist/linkwell.mjs')
  if (!fs.existsSync(entryOf(baselineDir))) {
    throw new Error(`BENCH_BASELINE_DIR: ${entryOf(baselineDir)} is missing. Build the baseline first:\n  git worktree add ../linkwell-baseline <commit> && cd ../linkwell-baseline && ln -s "$OLDPWD/node_modules" node_modules && npm run build\n(node_modules from this checkout), then BENCH_BASELINE_DIR=../linkwell-baseline`)
  }
  const builds: Build[] = [
    { label: 'this checkout' },
    ...(options.currentDirs ?? []).map((dir) => ({ label: dir, dir })),
    { label: `baseline ${options.baselineLabel ?? options.baselineDir}`, dir: baselineDir },
  ]
  for (const build of builds) if (build.dir && !fs.existsSync(entryOf(build.dir))) throw new Error(`${entryOf(build.dir)} is missing: build that checkout first (npm run build)`)
  for (const database of options.databases) {
    console.log(`\nRedirect without options, each build ÷ the baseline (${builds.at(-1)!.label}), ${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: wrk -t1 -c${CONNECTIONS}, server on core ${SERVER_CPU}, wrk on core ${LOAD_CPU}, ${options.rounds} alternating rounds of ${options.seconds} s`)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-redirect-baseline-'))
    const servers: BenchServer[] = []
    const measure = async (urls: string[]) => {
      try {
        for (const [index, build] of builds.entries()) {
          const entry = build.dir ? { file: entryOf(build.dir), cwd: path.resolve(build.dir) } : undefined
          servers.push(await startBenchServer(`${build.label}, a link without options`, urls[index]!, { LOG_LEVEL: 'info' }, options, undefined, {}, entry))
        }
        const summaries = await roundsAgainstBare(servers, options)
        const target = database === 'sqlite' ? TARGETS.sqlite : TARGETS.postgres
        for (const [index, summary] of summaries.entries()) printRounds(`${database}, ${servers[index]!.name}: GET /{alias} → 302, every click recorded`, summary, target)
        const baseline = summaries.at(-1)!
        for (const [index, summary] of summaries.slice(0, -1).entries()) {
          const perRound = summary.rounds.map((round, at) => round.linkwell.perSecond / baseline.rounds[at]!.linkwell.perSecond)
          const ratio = median(perRound)
          console.log(`    ${builds[index]!.label} ÷ baseline ${perRound.map((value) => value.toFixed(3).padStart(7)).join(' ')}   median ${ratio.toFixed(3)} (within 5 %: ${ratio >= 0.95 ? 'yes' : 'NO'})`)
          const cpuPerRound = summary.rounds.map((round, at) => baseline.rounds[at]!.linkwell.cpuMicroseconds / round.linkwell.cpuMicroseconds)
          console.log(`    CPU-time ratio (baseline µs ÷ this build's µs per answer) ${cpuPerRound.map((value) => value.toFixed(3)).join(', ')}; median ${median(cpuPerRound).toFixed(3)}`)
        }
        // +1 on the first server: the request that took the bare server's fixed answer from it was a counted visit too.
        for (const [index, bench] of servers.entries()) await checkClicks(bench, summaries[index]!, index === 0 ? 1 : 0)
      } finally {
        for (const { server, handle } of servers) {
          if (server.child.exitCode === null) await server.stop()
          await handle.close()
        }
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }
    if (database === 'sqlite') await measure(builds.map((_, index) => `file:${path.join(dir, `build-${index}.db`)}`))
    else {
      const withDatabases = (urls: string[]): Promise<void> => urls.length === builds.length ? measure(urls) : withBenchDatabase(options.postgresUrl, (url) => withDatabases([...urls, url]))
      await withDatabases([])
    }
  }
}
