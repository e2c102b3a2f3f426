// The outbox's promises across processes: an instance killed with SIGKILL between commit and
// delivery (its worker holding the deliveries, their receiver not answering) loses nothing: a new
// instance on the same database sends every committed event, and nothing that rolled back. And on
// PostgreSQL, two instances working the same outbox deliver each event once.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config.js'
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../../src/db/database.js'
import { actingAs, createAccount, servicesFor } from '../../helpers/factories.js'
import { apiClient, buildAppOn } from '../../helpers/test-app.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../../helpers/test-database.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js'
import { eventually } from '../../helpers/eventually.js'
import type { App } from '../../../src/http/app-instance.js'

const FIXTURE = path.resolve('test/modules/webhooks/webhook-instance.fixture.ts')
const COUNT = 12
/** Far above the time from the instance taking the deliveries to its kill (and short, for the test). */
const LEASE_MS = 3_000

const config = loadConfig({ PUBLIC_URL: 'https://lw.test', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE: '1', RATE_LIMIT_PER_MINUTE: '100000' })

describe(`webhook deliveries across instances (${testDialect})`, () => {
  const cleanups: Array<() => Promise<unknown> | unknown> = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  /** A database a second process can open: PostgreSQL's test schema, or an SQLite file. */
  async function sharedDatabase(): Promise<{ url: string; handle: DatabaseHandle }> {
    if (testDialect === 'postgres') {
      const database: TestDatabase = await createTestDatabase()
      cleanups.push(() => database.destroy())
      return { url: database.url, handle: database }
    }
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-webhooks-'))
    cleanups.push(() => fs.rmSync(folder, { recursive: true, force: true }))
    const url = `file:${path.join(folder, 'linkwell.db')}`
    const handle = openDatabase(url)
    await migrateToLatest(handle)
    cleanups.push(() => handle.close())
    return { url, handle }
  }

  async function receiverFor(mode: 'ok' | 'hang'): Promise<WebhookReceiver> {
    const receiver = await startWebhookReceiver(mode)
    cleanups.push(() => receiver.close())
    return receiver
  }

  it('delivers every committed event after the instance holding them was killed, and nothing rolled back', async () => {
    const { url, handle } = await sharedDatabase()
    const setup = servicesFor(handle, { WEBHOOK_ALLOW_PRIVATE: '1' })
    const owner = await createAccount(setup)
    const receiver = await receiverFor('hang')
    await setup.services.webhooks.createWebhook(await actingAs(setup, owner), { url: `${receiver.url}/hook`, events: ['campaign.created'] })

    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      env: { ...process.env, DATABASE_URL: url, API_KEY: owner.apiKey, COUNT: String(COUNT), LEASE_MS: String(LEASE_MS) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    cleanups.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'))
    let output = ''
    child.stdout!.on('data', (chunk) => (output += chunk))
    child.stderr!.on('data', (chunk) => (output += chunk))
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
    const deadline = Date.now() + 30_000
    // Committed, and the worker has taken them: their requests are waiting on the receiver.
    while (!output.includes('ready') || receiver.all.length < COUNT) {
      if (child.exitCode !== null) throw new Error(`the instance exited early:\n${output}`)
      if (Date.now() > deadline) throw new Error(`the instance did not get ready (${receiver.all.length} requests):\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const pendingBefore = await handle.db.selectFrom('webhook_deliveries').select('status').execute()
    expect(pendingBefore.map((row) => row.status)).toEqual(Array(COUNT).fill('pending'))
    child.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')

    receiver.mode = 'ok'
    const restarted = await buildAppOn(openDatabase(url, { poolMax: 3 }), config, { webhookDelivery: { pollMs: 50, leaseMs: LEASE_MS } })
    cleanups.push(async () => {
      await restarted.app.close()
      await restarted.services.database.close()
    })
    // The deliveries decide what is sent: once none is pending, no request is left to come. Each
    // was sent once by the new instance; the killed instance's unanswered attempts counted nothing.
    const rows = await eventually(() => handle.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute(), (list) => list.every((row) => row.status !== 'pending'), { timeoutMs: 20_000 })
    expect(rows).toEqual(Array(COUNT).fill({ status: 'delivered', attempts: 1 }))
    const delivered = receiver.delivered
    expect(delivered).toHaveLength(COUNT)
    const names = new Set(delivered.map((request) => request.event.data.name))
    expect([...names].sort()).toEqual(Array.from({ length: COUNT }, (_, n) => `Committed ${n}`).sort())
    expect(receiver.all.some((request) => request.event.data.name === 'Rolled back')).toBe(false)
    expect(new Set(delivered.map((request) => request.event.id)).size).toBe(COUNT)
  }, 60_000)

  it.runIf(testDialect === 'postgres')('delivers each event once with two instances on one PostgreSQL database', async () => {
    const { url, handle } = await sharedDatabase()
    const receiver = await receiverFor('ok')
    receiver.delayMs = 30
    const instances: Array<{ app: App; services: { database: DatabaseHandle } }> = []
    for (let n = 0; n < 2; n += 1) {
      const instance = await buildAppOn(openDatabase(url, { poolMax: 4 }), config, { webhookDelivery: { pollMs: 20, concurrency: 3, leaseMs: 30_000 } })
      instances.push(instance)
      cleanups.push(async () => {
        await instance.app.close()
        await instance.services.database.close()
      })
    }
    const owner = await createAccount(servicesFor(handle))
    const api = apiClient(instances[0]!.app, owner.apiKey)
    expect((await api('POST', '/api/webhook/add', { url: `${receiver.url}/hook`, events: ['campaign.created', 'campaign.deleted'] })).statusCode).toBe(201)
    const events = 40
    for (let n = 0; n < events / 2; n += 1) {
      const created = await api('POST', '/api/campaign/add', { name: `Twice ${n}` })
      expect((await api('DELETE', `/api/campaign/${created.data.id}/delete`)).statusCode).toBe(200)
    }
    // The deliveries decide what is sent: once none is pending, neither instance sends anything
    // more. Each was taken once (one attempt), and the receiver got each event once.
    const rows = await eventually(() => handle.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute(), (list) => list.every((row) => row.status !== 'pending'), { timeoutMs: 30_000 })
    expect(rows).toEqual(Array(events).fill({ status: 'delivered', attempts: 1 }))
    const ids = receiver.all.map((request) => request.event.id)
    expect(ids).toHaveLength(events)
    expect(new Set(ids).size).toBe(events)
  }, 60_000)
})
