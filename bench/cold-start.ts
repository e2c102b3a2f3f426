// Cold start: from spawning the server as `npm start` runs it on an existing database (migrated, with an
// account and a link) to the first 200 from /healthz, polled every 5 ms. Median of several starts.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, SERVER_ENTRY, SERVER_NODE_FLAGS, startServer } from '../test/helpers/server-process.js'
import { createBenchLink, SERVER_CPU } from './redirect-throughput.js'
import { median } from './rounds.js'

const STARTS = 5
const TARGET_MS = 1_000

async function timeOneStart(env: Record<string, string>, nodeArgs: string[]): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn('taskset', ['-c', String(SERVER_CPU), process.execPath, ...SERVER_NODE_FLAGS, ...nodeArgs, SERVER_ENTRY], { env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) }, stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    const deadline = started + 20_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then((response) => response.status === 200, () => false)
      if (healthy) return performance.now() - started
      if (performance.now() > deadline) throw new Error('server did not become healthy in 20 s')
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

export async function runColdStartBench(options: { nodeArgs?: string[] } = {}): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-start-'))
  const apiKey = randomBytes(32).toString('base64url')
  const env = { DATABASE_URL: `file:${path.join(dir, 'start.db')}`, LINKWELL_BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'warn' }
  try {
    // The first start creates the schema and the account; the measured ones find them.
    const setup = await startServer(env)
    await createBenchLink(setup.url, apiKey, 'existing')
    await setup.stop()
    const times: number[] = []
    for (let start = 0; start < STARTS; start += 1) times.push(await timeOneStart(env, options.nodeArgs ?? []))
    const typical = median(times)
    console.log(`\nCold start: spawn of node dist/linkwell.mjs (npm start) on an existing SQLite database to /healthz = 200, on core ${SERVER_CPU}`)
    console.log(`  ${times.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}; median ${typical.toFixed(0)} ms (target < ${TARGET_MS} ms: ${typical < TARGET_MS ? 'met' : 'NOT met'})`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
