// Memory of one server process (SQLite) under a sustained wrk redirect load with every click
// recorded: resident memory idle, after a warm-up, every 30 s during the load and after it. The
// click queue is bounded and written every 250 ms, so memory must stay flat however long the load.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, startServer } from '../test/helpers/server-process.js'
import { createBenchLink, LOAD_CPU, SERVER_CPU } from './redirect-throughput.js'
import { visitorHeaders } from './visitors.js'
import { runWrk } from './wrk.js'

export interface MemoryBenchOptions {
  /** Length of the measured load (default 300 s). */
  seconds: number
  nodeArgs?: string[]
}

const WARM_UP_SECONDS = 10
const SAMPLE_SECONDS = 30
const TARGET_MB = 150

/** Resident memory of a process in MB (Linux /proc). */
export function residentMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN) / 1024
}

export async function runMemoryBench(options: MemoryBenchOptions): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-memory-'))
  const apiKey = randomBytes(32).toString('base64url')
  const port = await freePort()
  const server = await startServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: `file:${path.join(dir, 'memory.db')}`,
    LINKWELL_BOOTSTRAP_API_KEY: apiKey,
    RATE_LIMIT_PER_MINUTE: '1000000',
    TRUSTED_PROXIES: '127.0.0.1',
    LOG_LEVEL: 'warn',
  }, { cpu: SERVER_CPU, nodeArgs: options.nodeArgs })
  const pid = server.child.pid!
  try {
    await createBenchLink(server.url, apiKey, 'memory')
    const idle = residentMb(pid)
    const load = { url: server.url, path: '/memory', headers: visitorHeaders(), variants: 20_000, cpu: LOAD_CPU }
    await runWrk({ ...load, seconds: WARM_UP_SECONDS })
    const before = residentMb(pid)

    const samples: number[] = []
    const sampler = setInterval(() => samples.push(residentMb(pid)), SAMPLE_SECONDS * 1000)
    const run = await runWrk({ ...load, seconds: options.seconds }).finally(() => clearInterval(sampler))
    // The last batch is written within 250 ms of the load's end.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const after = residentMb(pid)

    console.log(`\nMemory under load: GET /{alias} with varied visitors, wrk -t1 -c50, ${options.seconds} s, one instance on SQLite${options.nodeArgs?.length ? ` (node ${options.nodeArgs.join(' ')})` : ''}`)
    console.log(`  resident memory: idle ${idle.toFixed(0)} MB; after a ${WARM_UP_SECONDS} s warm-up ${before.toFixed(0)} MB; every ${SAMPLE_SECONDS} s ${samples.map((mb) => mb.toFixed(0)).join(', ')} MB; after ${after.toFixed(0)} MB`)
    // Flat means bounded: the second half of the load peaks no higher than the first, give or take the collector.
    const half = Math.ceil(samples.length / 2)
    const firstHalf = Math.max(before, ...samples.slice(0, half))
    const secondHalf = Math.max(...samples.slice(half), after)
    const highest = Math.max(firstHalf, secondHalf)
    console.log(`  highest in the first half ${firstHalf.toFixed(0)} MB, in the second half ${secondHalf.toFixed(0)} MB (${(secondHalf / firstHalf).toFixed(2)}); highest ${highest.toFixed(0)} MB (target < ${TARGET_MB}: ${highest < TARGET_MB ? 'met' : 'NOT met'})`)
    console.log(`  ${run.requests} redirects (${run.perSecond.toFixed(0)} req/s, p99 ${run.p99.toFixed(2)} ms), ${run.badStatuses} answers ≥ 400, ${run.socketErrors} socket errors`)
  } finally {
    await server.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
