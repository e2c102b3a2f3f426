// How fast one client can guess a link's password (issue 13): wrong guesses in a row against one
// protected link, through the whole app (inject, SQLite in memory). Prints guesses answered per
// second and how many were checked (401) rather than refused (429).
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { migrateToLatest, openDatabase } from '../src/db/database.js'
import { createLogger } from '../src/logger.js'
import { createServices } from '../src/services.js'

const GUESSES = Number(process.env.GUESSES ?? 100)
const database = openDatabase('file::memory:')
await migrateToLatest(database)
const config = loadConfig({ PUBLIC_URL: 'https://lw.test', RATE_LIMIT_PER_MINUTE: '100000', LOG_LEVEL: 'silent' })
const services = createServices({ config, database, log: createLogger({ logLevel: 'silent' }) })
const app = await buildApp({ services })
const account = await services.accounts.createAccount({ email: 'bench@example.com', username: 'bench' })
const created = await app.inject({ method: 'POST', url: '/api/url/add', headers: { authorization: `Bearer ${account.apiKey}` }, payload: { url: 'https://example.com', password: 'correct horse' } })
const alias = new URL(created.json().shorturl).pathname
const statuses = new Map<number, number>()
const started = performance.now()
for (let guess = 0; guess < GUESSES; guess += 1) {
  const response = await app.inject({ method: 'POST', url: alias, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `password=guess${guess}` })
  statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
}
const seconds = (performance.now() - started) / 1000
console.log(`${GUESSES} guesses in ${seconds.toFixed(2)} s: ${(GUESSES / seconds).toFixed(1)} answered/s; statuses ${JSON.stringify(Object.fromEntries(statuses))}; passwords actually checked: ${statuses.get(401) ?? 0}`)
await app.close()
await database.close()
