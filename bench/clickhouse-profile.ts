// Where the unfiltered 90-day workspace answer's time goes (issue 40, ADR 035, "Profile"), on the
// store kept by `BENCH_CH_KEEP=1 npx tsx bench/clickhouse-scale.ts` (its sizes: the same BENCH_CH_*
// variables). The kept loopback server is started again with every query logged
// (system.query_log), then: the answer through the service of two instances; the store alone; the
// feeder's round before an answer (the lease's holder, the other instance); the PostgreSQL queries
// of one answer; each ClickHouse query of the answer, its server time (query_duration_ms), rows read
// and its time seen by the client. `npx tsx bench/clickhouse-profile.ts` (TEST_DATABASE_URL).
import os from 'node:os'
import path from 'node:path'
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely'
import { openClickhouseStore } from '../src/analytics/clickhouse-store.js'
import { loadConfig } from '../src/config.js'
import { openDatabase, type DB } from '../src/db/database.js'
import { createRawClickRepository } from '../src/modules/statistics/raw-click.repository.js'
import { createStatisticsEngines } from '../src/modules/statistics/statistics-engines.js'
import { startClickhouseServer } from '../test/helpers/clickhouse-server.js'
import { timeAnswer } from './analytics.js'
import { statisticsServiceOn } from './statistics-service.js'

const DATABASE = 'linkwell_bench_kept'
const END = Date.parse('2026-06-30T00:00:00Z') + 86_400_000
const START = END - 90 * 86_400_000
const READS = Number(process.env.BENCH_CH_READS ?? 40)
const uptime = () => `load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}`
const ms = (value: number) => `${value.toFixed(1)} ms`
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)]!
}

/** Times each PostgreSQL query (by its SQL) while `on`. */
function queryTimer() {
  const started = new Map<unknown, { at: number; sql: string }>()
  const spent: Array<{ sql: string; ms: number }> = []
  let on = false
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      if (on) started.set(args.queryId, { at: performance.now(), sql: args.node.kind })
      return args.node
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const start = started.get(args.queryId)
      if (start) spent.push({ sql: start.sql, ms: performance.now() - start.at })
      started.delete(args.queryId)
      return args.result
    },
  }
  return { plugin, spent, set: (value: boolean) => (on = value) }
}

const server = await startClickhouseServer({ dir: process.env.BENCH_CH_DIR ?? path.join(os.tmpdir(), 'linkwell-bench-clickhouse'), logQueries: true })
const http = new URL(server.url.replace(/^clickhouse:/, 'http:'))
const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
url.pathname = '/lw_bench_clickhouse_kept'
const handle = openDatabase(url.toString(), { poolMax: 10 })
const timer = queryTimer()
const db = (handle.db as Kysely<any>).withPlugin(timer.plugin) as DB
const admin = await openClickhouseStore({ url: `http://${http.host}`, database: DATABASE, username: 'default', password: '', queryTimeoutMs: 600_000 })
try {
  const [seed] = await admin.rows<{ workspace: string }>(`SELECT workspace FROM ${DATABASE}.bench_seed`)
  if (!seed) throw new Error('no kept store: run BENCH_CH_KEEP=1 npx tsx bench/clickhouse-scale.ts first')
  const workspace = Number(seed.workspace)
  console.log(`\n== where the unfiltered 90-day workspace answer goes: ${(await admin.size()).clicks.toLocaleString('en')} clicks held (${uptime()})`)
  const config = loadConfig({ DATABASE_URL: url.toString(), PUBLIC_URL: 'https://lw.test', ANALYTICS_STORE: `clickhouse://default:@${http.host}/${DATABASE}` })
  const instances = [0, 1].map(() => createStatisticsEngines({
    db, rawClicks: createRawClickRepository(db), clicks: { afterCommit: () => () => undefined }, storeFile: null, retentionDays: null, clickhouse: config.clickhouse,
    clickhouseOptions: { queryTimeoutMs: 60_000 }, onError: (error) => console.log(`    engine: ${String(error)}`),
  }))
  for (const instance of instances) await instance.start()
  const services = instances.map((instance) => statisticsServiceOn(db, { now: () => new Date(END), engine: instance.engine }))
  const question = { from: '2026-04-01', to: '2026-06-30', granularity: 'day' }
  let turn = 0
  const answer = await timeAnswer(READS, async () => (await services[turn++ % 2]!.accountBetween(workspace, question)).clicks)
  console.log(`    through the service, two instances in turn: median ${ms(answer.median)}, p99 ${ms(answer.p99)} (${answer.n}; ${uptime()})`)
  for (const [index, service] of services.entries()) {
    const alone = await timeAnswer(READS, async () => (await service.accountBetween(workspace, question)).clicks)
    console.log(`    through instance ${index}'s service only (holds the feeder's lease: ${instances[index]!.clickhouse!.feeder.holding}): median ${ms(alone.median)}`)
  }
  const store = instances[0]!.clickhouse!.store
  const figures = () => store.figures({ scope: { accountId: workspace }, start: START, end: END, filters: {}, quarters: false, choice: { top: 10 } })
  const storeAlone = await timeAnswer(READS, async () => (await figures()).slots.length)
  console.log(`    the store alone (three queries at once): median ${ms(storeAlone.median)}, p99 ${ms(storeAlone.p99)}`)
  for (const [index, instance] of instances.entries()) {
    const round = await timeAnswer(READS, async () => (await instance.clickhouse!.feeder.round()) ?? -1)
    console.log(`    a feeder round before an answer, instance ${index} (holds the lease: ${instance.clickhouse!.feeder.holding}): median ${ms(round.median)}`)
  }
  // The PostgreSQL queries of one answer, each instance's.
  for (const [index, service] of services.entries()) {
    const rounds: Array<Array<{ sql: string; ms: number }>> = []
    for (let read = 0; read < 10; read += 1) {
      timer.spent.length = 0
      timer.set(true)
      await service.accountBetween(workspace, question)
      timer.set(false)
      rounds.push([...timer.spent])
    }
    const counts = rounds.map((spent) => spent.length)
    const totals = rounds.map((spent) => spent.reduce((sum, query) => sum + query.ms, 0))
    console.log(`    PostgreSQL per answer, instance ${index}: ${median(counts)} queries (${rounds.at(-1)!.map((query) => query.sql.replace('Node', '')).join(', ')}), ${ms(median(totals))} summed`)
  }
  // Each ClickHouse query of the answer: the server's time and rows, and the client's.
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  const [mark] = await admin.rows<{ t: string }>(`SELECT toUInt64(max(event_time)) AS t FROM system.query_log`)
  for (let read = 0; read < READS; read += 1) await figures()
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  const logged = await admin.rows<{ label: string; n: string; d: string; r: string; b: string; q: string }>(`SELECT
      multiIf(query LIKE '%link_hours%' OR query LIKE '%link_days%', 'links', query LIKE '%account_hour_values%' OR query LIKE '%account_day_values%', 'values', query LIKE '%account_hours%', 'slots', query LIKE '%layout%', 'layout', 'other') AS label,
      count() AS n, quantileExact(0.5)(query_duration_ms) AS d, quantileExact(0.5)(read_rows) AS r, quantileExact(0.5)(read_bytes) AS b, replaceRegexpOne(any(query), '\\s*FORMAT JSONEachRow\\s*$', '') AS q
    FROM system.query_log WHERE type = 2 AND event_time > toDateTime(${Number(mark?.t ?? 0)}) AND query NOT LIKE '%query_log%' GROUP BY label ORDER BY label`)
  for (const row of logged) {
    const client = await timeAnswer(READS, async () => (await admin.rows(row.q)).length)
    console.log(`    ${row.label}: ${row.n} queries, server median ${row.d} ms, ${Number(row.r).toLocaleString('en')} rows read (${(Number(row.b) / 1_048_576).toFixed(1)} MB); alone from the client median ${ms(client.median)}`)
  }
  const empty = await timeAnswer(READS, async () => (await admin.rows('SELECT 1')).length)
  console.log(`    a round trip (SELECT 1): median ${ms(empty.median)} (${uptime()})`)
  for (const instance of instances) await instance.close()
} finally {
  await admin.close()
  await handle.close()
  await server.stop({ keep: true })
}
