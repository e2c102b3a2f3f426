// Memory of one server process (SQLite) under a sustained redirect load with every click
// recorded: resident memory after a warm-up, every 30 s during the load, and after it. The click
// queue is bounded and written every 250 ms, so memory must stay flat however long the load.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, startServer } from '../test/helpers/server-process.js'
import { runLoad } from './load.js'
import { visitorHeaders } from './visitors.js'

interface Options {
  /** Length of the measured load (default 300 s). */
  seconds: number
}

const CONCURRENCY = 32
const WARM_UP_SECONDS = 10
const SAMPLE_SECONDS = 30

/** Resident memory of a process in MB (Linux /proc). */
function residentMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kilobytes = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN)
  return kilobytes / 1024
}

export async function runMemoryBench(options: Options): Promise<void> {
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
  })
  const pid = server.child.pid!
  try {
    const created = await fetch(`${server.url}/api/url/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/landing', custom: 'memory' }),
    })
    if (created.status !== 201) throw new Error(`POST /api/url/add answered ${created.status}`)
    const idle = residentMb(pid)
    const load = { targets: [server.url], path: '/memory', headers: visitorHeaders(), concurrency: CONCURRENCY }
    await runLoad({ ...load, seconds: WARM_UP_SECONDS })
    const before = residentMb(pid)

    const samples: number[] = []
    const sampler = setInterval(() => samples.push(residentMb(pid)), SAMPLE_SECONDS * 1000)
    const run = await runLoad({ ...load, seconds: options.seconds }).finally(() => clearInterval(sampler))
    // The last batch is written within 250 ms of the load's end.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const after = residentMb(pid)

    console.log(`\nMemory under load: GET /{alias} with varied visitors, ${CONCURRENCY} clients, ${options.seconds} s, one instance on SQLite`)
    console.log(`  resident memory: idle ${idle.toFixed(0)} MB; after a ${WARM_UP_SECONDS} s warm-up (before) ${before.toFixed(0)} MB; every ${SAMPLE_SECONDS} s ${samples.map((mb) => mb.toFixed(0)).join(', ')} MB; after ${after.toFixed(0)} MB`)
    // Flat means bounded: the second half of the load peaks no higher than the first, give or take the collector.
    const half = Math.ceil(samples.length / 2)
    const firstHalf = Math.max(before, ...samples.slice(0, half))
    const secondHalf = Math.max(...samples.slice(half), after)
    console.log(`  after/before ${(after / before).toFixed(2)}; highest in the first half ${firstHalf.toFixed(0)} MB, in the second half ${secondHalf.toFixed(0)} MB (${(secondHalf / firstHalf).toFixed(2)})`)
    console.log(`  ${run.requests} requests (${run.perSecond.toFixed(0)} req/s), statuses ${JSON.stringify(run.statuses)}, errors ${run.errors}`)
  } finally {
    await server.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
