// Profiling aid (not part of `npm run bench`): one server on SQLite under wrk redirect load only,
// with node --cpu-prof, so the profile holds the redirect path and nothing else.
//   npx tsx bench/profile-redirect.ts [seconds] [profile dir] [path: redirect | tracked | webhook | columnar | api]
// `tracked`: the redirect of a link tracking conversions (a click id made and stored, issue 39).
// `webhook`: the redirect with a `link.clicked` webhook to a receiver on the load generator's core.
// `columnar`: the redirect with the columnar store kept (ANALYTICS_STORE, ADR 022).
// PROFILE_CPU=off: no --cpu-prof (its own cost left out), for the CPU per answer alone. Either way it
// prints the server's CPU time (every thread, from /proc) per answer: steadier than req/s on a
// shared machine.
// PROFILE_GC=1: the collector's work during the load, per answer (from --trace-gc-nvp): its pauses,
// and the bytes that survived a scavenge and that were promoted to the old generation. The bytes
// are a property of the program, far steadier than times on a busy machine.
// PROFILE_NODE_ARGS: more node flags for the server (e.g. `--max-semi-space-size=8`).
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, startServer } from '../test/helpers/server-process.js'
import { createListedLinks } from './api-throughput.js'
import { addClickWebhook, createBenchLink, LOAD_CPU, SERVER_CPU, startClickReceiver } from './redirect-throughput.js'
import { visitorHeaders } from './visitors.js'
import { runWrk } from './wrk.js'

/** /proc counts CPU time in clock ticks (`getconf CLK_TCK`). */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }))
const seconds = Number(process.argv[2] ?? 10)
const profileDir = process.argv[3] ?? '/tmp/lw-profile'
const target = process.argv[4] ?? 'redirect'
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-profile-'))
const apiKey = randomBytes(32).toString('base64url')
const port = await freePort()
const server = await startServer({
  PORT: String(port),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DATABASE_URL: process.env.PROFILE_DATABASE_URL ?? `file:${path.join(dir, 'profile.db')}`,
  LINKWELL_BOOTSTRAP_API_KEY: apiKey,
  RATE_LIMIT_PER_MINUTE: '1000000',
  TRUSTED_PROXIES: '127.0.0.1',
  LOG_LEVEL: 'warn',
  // The webhook target's receiver is on loopback.
  ...(target === 'webhook' ? { WEBHOOK_ALLOW_PRIVATE: '1' } : {}),
  ...(target === 'columnar' ? { ANALYTICS_STORE: path.join(dir, 'analytics.duckdb') } : {}),
}, {
  cpu: SERVER_CPU,
  nodeArgs: [
    ...(process.env.PROFILE_CPU === 'off' ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]),
    ...(process.env.PROFILE_GC ? ['--trace-gc-nvp'] : []),
    ...(process.env.PROFILE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ],
})

/** Sums the collections --trace-gc-nvp printed in `output`: scavenges, full collections, pauses, surviving and promoted bytes. */
function collections(output: string) {
  const sum = { scavenges: 0, others: 0, pauseMs: 0, survived: 0, promoted: 0 }
  for (const line of output.split('\n')) {
    const kind = /\bgc=(\w+)/.exec(line)?.[1]
    if (!kind) continue
    sum.pauseMs += Number(/\bpause=([\d.]+)/.exec(line)?.[1] ?? 0)
    if (kind !== 's') {
      sum.others += 1
      continue
    }
    sum.scavenges += 1
    sum.survived += Number(/\bnew_space_survived=(\d+)/.exec(line)?.[1] ?? 0)
    sum.promoted += Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0)
  }
  return sum
}

/** The server's CPU time so far (user + system, every thread), in microseconds. */
function serverCpuMicros(): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the command's closing parenthesis.
  const fields = fs.readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS
}
const receiver = target === 'webhook' ? await startClickReceiver(LOAD_CPU) : null
try {
  if (receiver) await addClickWebhook(server.url, apiKey, receiver.url)
  const load = target === 'api'
    ? await createListedLinks(server.url, apiKey, 15).then(() => ({ path: '/api/urls?limit=15', headers: () => ({ authorization: `Bearer ${apiKey}` }), variants: 1 }))
    : await createBenchLink(server.url, apiKey, 'profiled', undefined, target === 'tracked' ? { trackconversions: true } : {}).then(() => ({ path: '/profiled', headers: visitorHeaders(), variants: 20_000 }))
  const cpuBefore = serverCpuMicros()
  const outputBefore = server.output().length
  const run = await runWrk({ url: server.url, seconds, cpu: LOAD_CPU, ...load })
  const cpuPerAnswer = (serverCpuMicros() - cpuBefore) / run.requests
  if (process.env.PROFILE_GC) {
    const gc = collections(server.output().slice(outputBefore))
    const perAnswer = (value: number) => (value / run.requests).toFixed(0)
    console.log(`collector: ${gc.scavenges} scavenges and ${gc.others} other collections, ${((gc.pauseMs * 1000) / run.requests).toFixed(2)} µs of pauses, ${perAnswer(gc.survived)} B survived a scavenge and ${perAnswer(gc.promoted)} B promoted per answer`)
  }
  if (receiver) console.log(`webhook: ${JSON.stringify(await receiver.counts())} by the end of the load`)
  console.log(`${run.requests} answers, ${run.perSecond.toFixed(0)} req/s, p99 ${run.p99.toFixed(2)} ms, ${run.badStatuses} ≥ 400, server CPU ${cpuPerAnswer.toFixed(1)} µs per answer`)
} finally {
  await server.stop()
  await receiver?.close()
  fs.rmSync(dir, { recursive: true, force: true })
}
