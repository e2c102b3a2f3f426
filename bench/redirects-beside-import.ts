// Redirects while a CSV import runs (issue 36): one server (SQLite), `GET /{alias}` under wrk in
// alternating rounds, with no import (the baseline, measured in the same run) and while a large CSV
// is uploaded to `POST /api/import`, checked and imported by the server's worker. Reports each
// round's rate and p99 latency, the ratio of the import rounds' rates to the baseline rounds', and
// how much of each import round the import was still running (a round the import outlived measures
// the import throughout). Server on one core, wrk on the other (as every throughput figure); a
// bare node:http server sending the same 302 on the server's core, in each round too, shows what
// wrk reaches when the server is no limit: the baseline must stay far below it.
//   BENCH_IMPORT_CSV_ROWS   rows of the uploaded CSV (default 100,000, about 6 MB)
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startServer, type ServerProcess } from '../test/helpers/server-process.js'
import { LOAD_CPU, SERVER_CPU, createBenchLink } from './redirect-throughput.js'
import { median } from './rounds.js'
import { runWrk, type WrkResult } from './wrk.js'
import { fixedResponseOf, startBareServer } from './bare-server.js'

export interface RedirectsBesideImportOptions {
  seconds: number
  rounds: number
  rows: number
  nodeArgs?: string[]
}

const ALIAS = 'bench-beside-import'
const CONNECTIONS = 50
/** The least the rate while importing may be, as a share of the rate without (issue 36: redirects keep answering). */
const TARGET_RATIO = 0.5

/** A CSV of `rows` links whose aliases start with `prefix` (each round imports new links). */
function csvOf(rows: number, prefix: string): string {
  const lines = ['url,alias,title,created,tags']
  for (let index = 0; index < rows; index += 1) lines.push(`https://example.com/landing/${index}?ref=bench,${prefix}${index},Imported link ${index},2024-03-01 10:00:00,bench|import`)
  return `${lines.join('\n')}\n`
}

async function startImport(server: ServerProcess, apiKey: string, content: string): Promise<number> {
  const form = new FormData()
  form.set('source', 'csv')
  form.set('onconflict', 'skip')
  form.set('file', new Blob([content], { type: 'text/csv' }), 'bench.csv')
  const response = await fetch(`${server.url}/api/import`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form })
  if (response.status !== 202) throw new Error(`POST /api/import answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { id: number }).id
}

async function importState(server: ServerProcess, apiKey: string, id: number): Promise<{ state: string; processed: number; total: number | null }> {
  // A kept-alive socket the busy server closed meanwhile answers ECONNRESET: asked again on a new one.
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await fetch(`${server.url}/api/import/${id}`, { headers: { authorization: `Bearer ${apiKey}`, connection: 'close' }, signal: AbortSignal.timeout(30_000) })
      return ((await response.json()) as { import: { state: string; processed: number; total: number | null } }).import
    } catch (error) {
      if (attempt === 5) throw error
    }
  }
}

interface ImportRound {
  wrk: WrkResult
  /** Seconds from the upload's start to the job's end (or the round's end, if it outlived it). */
  importSeconds: number
  finished: boolean
}

/** One wrk round with the upload sent as it starts; the job's state polled every 250 ms. */
async function roundWithImport(server: ServerProcess, apiKey: string, content: string, seconds: number): Promise<ImportRound> {
  const load = runWrk({ url: server.url, path: `/${ALIAS}`, seconds, connections: CONNECTIONS, cpu: LOAD_CPU })
  const started = performance.now()
  let ended: number | undefined
  const id = await startImport(server, apiKey, content)
  let done = false
  const polling = (async () => {
    while (!done) {
      const { state } = await importState(server, apiKey, id)
      if (state === 'done' || state === 'failed') {
        ended = performance.now()
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  })()
  const wrk = await load
  const roundEnd = performance.now()
  done = true
  await polling
  // The next round starts with no import running.
  while (ended === undefined) {
    const { state } = await importState(server, apiKey, id)
    if (state === 'done' || state === 'failed') ended = performance.now()
    else await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return { wrk, importSeconds: (Math.min(ended, roundEnd) - started) / 1000, finished: ended <= roundEnd }
}

export async function runRedirectsBesideImportBench(options: RedirectsBesideImportOptions): Promise<void> {
  console.log(`\nRedirects while a CSV import runs: wrk -t1 -c${CONNECTIONS}, server on core ${SERVER_CPU}, wrk on core ${LOAD_CPU}, ${options.rounds} alternating rounds of ${options.seconds} s, SQLite, ${options.rows.toLocaleString('en-US')} rows a file`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-beside-import-'))
  const apiKey = randomBytes(32).toString('base64url')
  const server = await startServer({
    DATABASE_URL: `file:${path.join(dir, 'bench.db')}`,
    LINKWELL_BOOTSTRAP_API_KEY: apiKey,
    RATE_LIMIT_PER_MINUTE: '1000000',
    IMPORT_MAX_ROWS: String(options.rows),
    IMPORT_MAX_BYTES: String(512 * 1024 * 1024),
    LOG_LEVEL: 'warn',
  }, { cpu: SERVER_CPU, nodeArgs: options.nodeArgs })
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined
  try {
    await createBenchLink(server.url, apiKey, ALIAS)
    bare = await startBareServer(await fixedResponseOf(`${server.url}/${ALIAS}`), SERVER_CPU)
    const size = Buffer.byteLength(csvOf(options.rows, 'r0-'))
    console.log(`  file: ${(size / 1024 / 1024).toFixed(1)} MB`)
    await runWrk({ url: server.url, path: `/${ALIAS}`, seconds: 3, connections: CONNECTIONS, cpu: LOAD_CPU })
    const ceiling: WrkResult[] = []
    const baseline: WrkResult[] = []
    const importing: ImportRound[] = []
    for (let round = 0; round < options.rounds; round += 1) {
      ceiling.push(await runWrk({ url: bare.url, path: `/${ALIAS}`, seconds: options.seconds, connections: CONNECTIONS, cpu: LOAD_CPU }))
      baseline.push(await runWrk({ url: server.url, path: `/${ALIAS}`, seconds: options.seconds, connections: CONNECTIONS, cpu: LOAD_CPU }))
      importing.push(await roundWithImport(server, apiKey, csvOf(options.rows, `r${round}-`), options.seconds))
    }
    const rate = (value: number) => value.toFixed(0).padStart(7)
    console.log(`    bare node:http   ${ceiling.map((result) => rate(result.perSecond)).join(' ')} req/s   median ${rate(median(ceiling.map((result) => result.perSecond)))} (wrk's ceiling here; the baseline is ${(median(baseline.map((result) => result.perSecond)) / median(ceiling.map((result) => result.perSecond))).toFixed(2)} of it)`)
    console.log(`    no import        ${baseline.map((result) => rate(result.perSecond)).join(' ')} req/s   median ${rate(median(baseline.map((result) => result.perSecond)))}, p99 ${median(baseline.map((result) => result.p99)).toFixed(2)} ms`)
    console.log(`    importing        ${importing.map((round) => rate(round.wrk.perSecond)).join(' ')} req/s   median ${rate(median(importing.map((round) => round.wrk.perSecond)))}, p99 ${median(importing.map((round) => round.wrk.p99)).toFixed(2)} ms (worst ${Math.max(...importing.map((round) => round.wrk.p99)).toFixed(2)} ms)`)
    const ratios = importing.map((round, index) => round.wrk.perSecond / baseline[index]!.perSecond)
    const ratio = median(ratios)
    console.log(`    ratio per round  ${ratios.map((value) => value.toFixed(2).padStart(7)).join(' ')}         median ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`)
    console.log(`    import ran       ${importing.map((round) => `${round.importSeconds.toFixed(1)} s${round.finished ? '' : '+'}`).join(', ')} of each ${options.seconds} s round (+: still running at the round's end)`)
    const errors = [...baseline, ...importing.map((round) => round.wrk)].reduce((sum, result) => sum + result.badStatuses + result.socketErrors, 0)
    if (errors > 0) console.log(`    WARNING: ${errors} answers ≥ 400 or socket errors`)
  } finally {
    await bare?.stop()
    const code = await server.stop()
    if (code !== 0) console.warn(`  linkwell exited with ${code}:\n${server.output()}`)
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
