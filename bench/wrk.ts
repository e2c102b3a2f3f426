// The load generator of every throughput figure: wrk (one thread, 50 connections), pinned to its
// own core so that it never competes with the server it measures. A Node client loop saturates
// near 15-20k req/s on this class of machine, below what a bare node:http server answers, and
// would flatter every ratio. Requests come from a Lua script that formats them all once (varied
// visitors cost wrk nothing per request) and reports the figures as one parseable line.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface WrkResult {
  requests: number
  perSecond: number
  /** Latency percentiles in milliseconds. */
  p50: number
  p99: number
  /** Answers with a status outside 2xx/3xx, and socket errors (connect, read, write, timeout). */
  badStatuses: number
  socketErrors: number
}

export interface WrkOptions {
  url: string
  path: string
  seconds: number
  /** Headers of the i-th distinct request; the script cycles through `variants` of them. */
  headers?: (index: number) => Record<string, string>
  variants?: number
  connections?: number
  /** The core wrk runs on (taskset); undefined: anywhere. */
  cpu?: number
}

/** Installs wrk when missing (Debian/Ubuntu), as the bench's only system dependency. */
export function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' })
    return
  } catch (error) {
    // wrk --version exits 1 after printing its usage; only a missing binary throws ENOENT.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return
  }
  console.log('wrk not found: apt-get install -y wrk')
  execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' })
}

const luaString = (text: string) => JSON.stringify(text)

/** The Lua script: every request pre-formatted in `init`, a summary line in `done`. */
function scriptOf(requestPath: string, headers: (index: number) => Record<string, string>, variants: number): string {
  const lines = ['local requests = {}', 'local count = 0', 'init = function(args)']
  for (let index = 0; index < variants; index += 1) {
    const fields = Object.entries(headers(index)).map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`).join(', ')
    lines.push(`  requests[${index + 1}] = wrk.format("GET", ${luaString(requestPath)}, { ${fields} })`)
  }
  lines.push(
    'end',
    'request = function()',
    '  count = count + 1',
    `  return requests[(count % ${variants}) + 1]`,
    'end',
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("WRK requests=%d duration=%d status=%d sockets=%d p50=%d p99=%d\\n", summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout, latency:percentile(50), latency:percentile(99)))',
    'end',
  )
  return lines.join('\n')
}

/** Runs wrk once and parses its summary line. */
export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-wrk-'))
  const script = path.join(dir, 'load.lua')
  fs.writeFileSync(script, scriptOf(options.path, options.headers ?? (() => ({})), options.headers ? (options.variants ?? 1) : 1))
  const wrkArgs = ['-t1', `-c${options.connections ?? 50}`, `-d${options.seconds}s`, '-s', script, options.url]
  const [command, args] = options.cpu === undefined ? ['wrk', wrkArgs] : ['taskset', ['-c', String(options.cpu), 'wrk', ...wrkArgs]]
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      let text = ''
      child.stdout.on('data', (chunk) => (text += chunk))
      child.stderr.on('data', (chunk) => (text += chunk))
      child.once('error', reject)
      child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}:\n${text}`))))
    })
    const match = /WRK requests=(\d+) duration=(\d+) status=(\d+) sockets=(\d+) p50=(\d+) p99=(\d+)/.exec(output)
    if (!match) throw new Error(`no summary in wrk's output:\n${output}`)
    const [requests, durationUs, status, sockets, p50, p99] = match.slice(1).map(Number) as [number, number, number, number, number, number]
    return { requests, perSecond: requests / (durationUs / 1e6), p50: p50 / 1000, p99: p99 / 1000, badStatuses: status, socketErrors: sockets }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
