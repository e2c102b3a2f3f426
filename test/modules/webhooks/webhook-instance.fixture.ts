// A Linkwell instance in a child process for webhook-restart.test.ts, which kills it with SIGKILL:
// it commits COUNT campaigns (and one change that rolls back), prints `ready`, and keeps running
// while its worker sends their events to a receiver that never answers.
// Run as `node --import tsx test/modules/webhooks/webhook-instance.fixture.ts` with DATABASE_URL,
// API_KEY, COUNT and LEASE_MS set.
import { buildApp } from '../../../src/app.js'
import { loadConfig } from '../../../src/config.js'
import { openDatabase } from '../../../src/db/database.js'
import { createLogger } from '../../../src/logger.js'
import { createServices } from '../../../src/services.js'

const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, PUBLIC_URL: 'https://lw.test', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE: '1', RATE_LIMIT_PER_MINUTE: '100000' })
const database = openDatabase(config.databaseUrl, { poolMax: 3 })
const services = createServices({ config, database, log: createLogger({ logLevel: 'silent' }), webhookDelivery: { pollMs: 50, leaseMs: Number(process.env.LEASE_MS) } })
// A change that fails after its event was written: it must never be sent.
services.journal.listen(async (_trx, _actor, changes) => {
  if (changes.some((change) => (change.record as { name?: string } | undefined)?.name === 'Rolled back')) throw new Error('refused')
})
const app = await buildApp({ services })
await app.ready()
// Not test-app.ts's client: that module needs vitest, which runs only inside a test.
const api = (method: 'POST', url: string, body: unknown) =>
  app.inject({ method, url, headers: { authorization: `Bearer ${process.env.API_KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) })
for (let n = 0; n < Number(process.env.COUNT); n += 1) {
  const created = await api('POST', '/api/campaign/add', { name: `Committed ${n}` })
  if (created.statusCode !== 201) throw new Error(`campaign ${n}: ${created.body}`)
}
const refused = await api('POST', '/api/campaign/add', { name: 'Rolled back' })
if (refused.statusCode !== 500) throw new Error(`the rolled-back change answered ${refused.statusCode}`)
process.stdout.write('ready\n')
// Runs until killed.
setInterval(() => undefined, 60_000)
