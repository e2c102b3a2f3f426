// Exporting raw clicks (issue 21): GET /api/export/clicks?format=csv of an account with 1,000,000
// clicks (written by `linkwell dev seed-clicks`), streamed to the client. Reports the time, rows
// and bytes per second, and the server's resident memory sampled every 50 ms: before, and its
// peak while exporting the whole range and while exporting a tenth of it, so that "flat" is a
// comparison in the same run, not a guess. Target: under 30 s for 1,000,000 clicks.
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { migrateToLatest, openDatabase } from '../src/db/database.js'
import { daysBefore, nowTimestamp } from '../src/core/time.js'
import { startServer, type ServerProcess } from '../test/helpers/server-process.js'

interface Options {
  /** Clicks to export (default 1,000,000). */
  clicks: number
}

const CLI = path.resolve('dist/src/cli.js')
const TARGET_SECONDS = 30
const DAYS = 100

function residentMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return kb / 1024
}

interface Exported { seconds: number; rows: number; bytes: number; peakMb: number }

async function exportClicks(server: ServerProcess, apiKey: string, query: string): Promise<Exported> {
  const pid = server.child.pid!
  let peakMb = residentMb(pid)
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, residentMb(pid))), 50)
  const started = performance.now()
  try {
    const response = await fetch(`${server.url}/api/export/clicks?format=csv${query}`, { headers: { authorization: `Bearer ${apiKey}` } })
    if (response.status !== 200 || !response.body) throw new Error(`GET /api/export/clicks answered ${response.status}: ${await response.text()}`)
    let bytes = 0
    let lines = 0
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength
      for (const byte of chunk) if (byte === 10) lines += 1
    }
    // The header line is not a click.
    return { seconds: (performance.now() - started) / 1000, rows: lines - 1, bytes, peakMb }
  } finally {
    clearInterval(sampler)
  }
}

export async function runExportBench(options: Options): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-export-'))
  const databaseUrl = `file:${path.join(dir, 'export.db')}`
  const apiKey = randomBytes(32).toString('base64url')
  try {
    const setup = await startServer({ DATABASE_URL: databaseUrl, LINKWELL_BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'warn' }, { timeoutMs: 60_000 })
    await setup.stop()
    const handle = openDatabase(databaseUrl)
    await migrateToLatest(handle)
    const account = await handle.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()
    const now = nowTimestamp()
    const link = await handle.db
      .insertInto('links')
      .values({ account_id: account.id, domain_id: null, host: '', alias: 'exported', url: 'https://example.com/', title: null, description: null, password_hash: null, expires_at: null, type: 'direct', splash_id: null, overlay_id: null, campaign_id: null, targeting: '{}', clicks: 0, unique_clicks: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    await handle.close()
    const lastDay = now.slice(0, 10)
    const seedStarted = performance.now()
    await promisify(execFile)(process.execPath, [CLI, 'dev', 'seed-clicks', '--link', String(link.id), '--count', String(options.clicks), '--days', String(DAYS), '--last-day', lastDay], { env: { ...process.env, DATABASE_URL: databaseUrl }, maxBuffer: 1 << 20 })
    const seedSeconds = (performance.now() - seedStarted) / 1000

    const server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000' }, { timeoutMs: 60_000 })
    try {
      const idleMb = residentMb(server.child.pid!)
      // A tenth of the days first (warms the code paths), then the whole range.
      const tenth = await exportClicks(server, apiKey, `&from=${daysBefore(lastDay, DAYS / 10 - 1)}&to=${lastDay}`)
      const whole = await exportClicks(server, apiKey, '')
      const line = (name: string, result: Exported) =>
        console.log(`  ${name}: ${result.rows} rows, ${(result.bytes / 1_048_576).toFixed(0)} MB in ${result.seconds.toFixed(1)} s (${Math.round(result.rows / result.seconds)} rows/s); server's peak resident memory ${result.peakMb.toFixed(0)} MB`)
      console.log(`\nClicks export: GET /api/export/clicks?format=csv, SQLite, ${options.clicks} clicks over ${DAYS} days (seeded in ${seedSeconds.toFixed(0)} s)`)
      console.log(`  server idle before: ${idleMb.toFixed(0)} MB resident`)
      line('a tenth of the days', tenth)
      line('every click       ', whole)
      if (whole.rows !== options.clicks) console.log(`  WRONG: ${whole.rows} rows exported, ${options.clicks} seeded`)
      const met = whole.seconds < TARGET_SECONDS && whole.rows === options.clicks
      console.log(`  memory while exporting 10× the rows: ${(whole.peakMb - tenth.peakMb >= 0 ? '+' : '')}${(whole.peakMb - tenth.peakMb).toFixed(0)} MB; target under ${TARGET_SECONDS} s: ${met ? 'met' : 'NOT met'}`)
    } finally {
      await server.stop()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
