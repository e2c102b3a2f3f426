// A ClickHouse feeder in a child process for clickhouse-feeder.test.ts, which kills it with SIGKILL.
// Run as `node --import tsx test/analytics/clickhouse-feeder.fixture.ts` with DATABASE_URL,
// CLICKHOUSE_URL (http://host:port), CLICKHOUSE_DATABASE, PAGE, LEASE_MS and, to stop inside a
// batch (written to ClickHouse, its cursor not moved), HANG_AFTER_INSERT=n: the n-th insert prints
// `inserted` and the process waits there to be killed. Prints `holding` once it holds the lease.
import { createClickhouseFeeder } from '../../src/analytics/clickhouse-feeder.js'
import { openClickhouseStore } from '../../src/analytics/clickhouse-store.js'
import { openDatabase } from '../../src/db/database.js'

const database = openDatabase(process.env.DATABASE_URL!, { poolMax: 2 })
const store = await openClickhouseStore({ url: process.env.CLICKHOUSE_URL!, database: process.env.CLICKHOUSE_DATABASE!, username: 'default', password: '' })
let inserts = 0
const hangAt = Number(process.env.HANG_AFTER_INSERT ?? 0)
let told = false
const feeder = createClickhouseFeeder({
  db: database.db,
  store,
  retentionDays: null,
  pollMs: 20,
  standbyPollMs: 50,
  leaseMs: Number(process.env.LEASE_MS),
  pageSize: Number(process.env.PAGE),
  onError: (error) => process.stderr.write(`feed failed: ${String(error)}\n`),
  async afterInsert() {
    if (!told && feeder.holding) {
      told = true
      process.stdout.write('holding\n')
    }
    inserts += 1
    if (inserts === hangAt) {
      process.stdout.write('inserted\n')
      await new Promise(() => undefined)
    }
  },
})
feeder.start()
setInterval(() => undefined, 60_000)
