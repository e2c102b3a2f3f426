// Two instances on one PostgreSQL database sharing Redis (rate limits, cache invalidation), each
// pinned to its own core: redirect throughput of each alone (wrk on the other core) and of both
// together (one wrk per instance, unpinned: on a 2-core machine the loads share the cores with
// the servers, so "together" is bounded by the machine, not by Linkwell). Clicks of both are counted.
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import { openDatabase } from '../src/db/database.js'
import { freePort, startServer, type ServerProcess } from '../test/helpers/server-process.js'
import { fixedResponseOf, startBareServer } from './bare-server.js'
import { withBenchDatabase } from './postgres-database.js'
import { countClicks, createBenchLink } from './redirect-throughput.js'
import { median } from './rounds.js'
import { visitorHeaders } from './visitors.js'
import { runWrk, type WrkResult } from './wrk.js'

const ALIAS = 'shared-link'
const ROUNDS = 3

export async function runTwoInstancesBench(options: { seconds: number; postgresUrl: string; redisUrl: string; nodeArgs?: string[] }): Promise<void> {
  await withBenchDatabase(options.postgresUrl, async (databaseUrl) => {
    const apiKey = randomBytes(32).toString('base64url')
    const ports = [await freePort(), await freePort()]
    // Both answer to the same public host name, as they would behind a balancer.
    const env = (port: number) => ({
      PORT: String(port),
      PUBLIC_URL: 'http://127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: `lwbench:${randomBytes(3).toString('hex')}:`,
      LINKWELL_BOOTSTRAP_API_KEY: apiKey,
      RATE_LIMIT_PER_MINUTE: '1000000',
      TRUSTED_PROXIES: '127.0.0.1',
      LOG_LEVEL: 'warn',
    })
    const first = await startServer(env(ports[0]!), { cpu: 0, nodeArgs: options.nodeArgs })
    const second = await startServer(env(ports[1]!), { cpu: 1, nodeArgs: options.nodeArgs })
    const servers: ServerProcess[] = [first, second]
    let answered = 0
    try {
      await createBenchLink(first.url, apiKey, ALIAS)
      const load = { path: `/${ALIAS}`, seconds: options.seconds, headers: visitorHeaders(), variants: 20_000 }
      const bare = await startBareServer(await fixedResponseOf(`${first.url}/${ALIAS}`, visitorHeaders()(0)), 0)
      const bareRates: number[] = []
      const alone: WrkResult[][] = [[], []]
      const together: WrkResult[][] = []
      try {
        for (let round = 0; round < ROUNDS; round += 1) {
          bareRates.push((await runWrk({ ...load, url: bare.url, cpu: 1 })).perSecond)
          for (const [index, server] of servers.entries()) {
            const run = await runWrk({ ...load, url: server.url, cpu: 1 - index })
            alone[index]!.push(run)
          }
          const both = await Promise.all(servers.map((server) => runWrk({ ...load, url: server.url })))
          together.push(both)
        }
      } finally {
        await bare.stop()
      }
      answered = [...alone.flat(), ...together.flat()].reduce((sum, run) => sum + run.requests, 0)
      const rate = (runs: WrkResult[]) => median(runs.map((run) => run.perSecond)).toFixed(0).padStart(7)
      console.log(`\nTwo instances, PostgreSQL + Redis, each pinned to its own core: GET /{alias}, ${ROUNDS} rounds of ${options.seconds} s, ${os.cpus().length} cores`)
      console.log(`  bare node:http on core 0 (wrk on core 1)   ${bareRates.map((value) => value.toFixed(0).padStart(7)).join(' ')} req/s   median ${median(bareRates).toFixed(0)}`)
      for (const [index] of servers.entries()) console.log(`  instance ${index + 1} alone (core ${index}, wrk on core ${1 - index})   ${alone[index]!.map((run) => run.perSecond.toFixed(0).padStart(7)).join(' ')} req/s   median ${rate(alone[index]!)}, p99 ${median(alone[index]!.map((run) => run.p99)).toFixed(2)} ms`)
      const sums = together.map((pair) => pair[0]!.perSecond + pair[1]!.perSecond)
      console.log(`  together (two wrk, unpinned)              ${together.map((pair) => `${pair[0]!.perSecond.toFixed(0)}+${pair[1]!.perSecond.toFixed(0)}`).join(' ')} req/s   median sum ${median(sums).toFixed(0)}`)
    } finally {
      await Promise.all(servers.map((server) => server.stop()))
    }
    const handle = openDatabase(databaseUrl)
    const recorded = await countClicks(handle.db, ALIAS).finally(() => handle.close())
    // Visits the instances refused to queue (their queue was full: they log how many) are not lost
    // silently; the check counts them, and a reader sees whether the two cores kept up.
    const dropped = servers.reduce((sum, server) => sum + droppedVisitsOf(server.output()), 0)
    const abandoned = recorded.rows + dropped - answered
    console.log(`  clicks of both: ${recorded.rows} rows, counter ${recorded.counter}, aggregate ${recorded.aggregate}; ${dropped} visits dropped by a full click queue (logged); wrk saw ${answered} answers, ${abandoned} in flight at wrk's stops: ${recorded.rows === recorded.counter && recorded.rows === recorded.aggregate && abandoned >= 0 && abandoned <= 50 * ROUNDS * 4 ? 'consistent' : 'MISMATCH'}`)
  })
}

/** The visits a server's log says it did not record (`"dropped": n` on its error lines). */
function droppedVisitsOf(output: string): number {
  let dropped = 0
  for (const line of output.split('\n')) {
    if (!line.includes('visits not recorded')) continue
    try {
      dropped += Number((JSON.parse(line) as { dropped?: number }).dropped ?? 0)
    } catch {
      // Not a log line of ours.
    }
  }
  return dropped
}
