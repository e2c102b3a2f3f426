// A click batch's deliveries go to this process's worker as the batch commits (ADR 018): written
// leased to it in places it reserved, handed over after the commit, sent at once, and the outbox
// is never read back for them. The worker here looks at the outbox once a minute, so only the
// hand-over can deliver within the test. A batch that does not commit sends nothing and gives its
// places back; deliveries handed to a worker that stopped meanwhile are due again at once, for
// the next start (or another instance).
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClickWriter, type PendingClick } from '../../../src/analytics/click-writer.js'
import { createDailySaltHasher } from '../../../src/analytics/visitor-hash.js'
import { loadConfig } from '../../../src/config.js'
import { nowTimestamp } from '../../../src/core/time.js'
import type { DB } from '../../../src/db/database.js'
import { createLogger } from '../../../src/logger.js'
import { createServices, type Services } from '../../../src/services.js'
import { BROWSERS } from '../../analytics/click-test-support.js'
import { actingAs, createAccount, createLink, type TestAccount } from '../../helpers/factories.js'
import { countingReadsOf } from '../../helpers/table-reads.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/test-database.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js'
import { eventually } from '../../helpers/eventually.js'

const CONCURRENCY = 4

/** `db` whose transactions run `beforeCommit` once their work is done (it may throw: the transaction rolls back). */
function withBeforeCommit(db: DB, beforeCommit: () => Promise<void>): DB {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'transaction') {
        return () => ({
          execute: <T>(work: (trx: DB) => Promise<T>) => target.transaction().execute(async (trx) => {
            const result = await work(trx)
            await beforeCommit()
            return result
          }),
        })
      }
      const value = Reflect.get(target, property) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
}

describe('click deliveries handed to the worker as their batch commits', () => {
  let database: TestDatabase
  let services: Services
  let owner: TestAccount
  let link: { id: number }
  let receiver: WebhookReceiver
  let secret: string
  const outboxReads = countingReadsOf('outbox_events')
  const subscriptionReads = countingReadsOf('webhooks')

  function clicks(count: number): PendingClick[] {
    return Array.from({ length: count }, (_, index) => ({
      accountId: owner.id, itemType: 'link', itemId: link.id, createdAt: nowTimestamp(new Date()),
      ip: `203.0.113.${index + 1}`, userAgent: BROWSERS.firefoxLinux, referrerHost: 'news.example.org', language: 'de', variant: null,
    }))
  }

  const deliveryRows = () => database.db.selectFrom('webhook_deliveries').select(['id', 'status', 'attempts', 'next_attempt_at']).orderBy('id').execute()

  beforeAll(async () => {
    database = await createTestDatabase()
    const config = loadConfig({ PUBLIC_URL: 'https://lw.test', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE: '1' })
    services = createServices({
      config,
      database: { ...database, db: database.db.withPlugin(outboxReads.plugin).withPlugin(subscriptionReads.plugin) },
      log: createLogger({ logLevel: 'silent' }),
      // One look at the outbox as it starts, the next a minute later: far past this test.
      webhookDelivery: { pollMs: 60_000, concurrency: CONCURRENCY },
    })
    const made = { services }
    owner = await createAccount(made)
    link = await createLink(made, owner)
    receiver = await startWebhookReceiver()
    ;({ secret } = await services.webhooks.createWebhook(await actingAs(made, owner), { url: `${receiver.url}/clicks`, events: ['link.clicked'] }))
    services.webhookDelivery.start()
  })
  afterAll(async () => {
    await services?.webhookDelivery.stop()
    await services?.close()
    await receiver?.close()
    await database?.destroy()
  })

  it('sends the recorded clicks at once, signed, without reading the outbox back', async () => {
    outboxReads.reset()
    subscriptionReads.reset()
    for (let index = 0; index < 30; index += 1) {
      expect(services.clicks.record({ accountId: owner.id, itemType: 'link', itemId: link.id, at: new Date(), ip: `198.51.100.${index + 1}`, userAgent: BROWSERS.safariIphone, referrer: 'https://news.example.org/post', acceptLanguage: 'fr-FR' })).toBe(true)
    }
    await services.clicks.flush()
    const [request] = await receiver.waitForDelivered(1, 10_000)
    const event = new Webhook(secret).verify(request!.body, request!.headers) as { type: string; data: { clicks: Array<Record<string, unknown>> } }
    expect(event.type).toBe('link.clicked')
    expect(event.data.clicks).toHaveLength(30)
    expect(event.data.clicks[0]).toMatchObject({ link: link.id, referrer: 'news.example.org', language: 'fr', browser: 'Mobile Safari' })
    // The answer is recorded on the delivery (a moment after the receiver answered).
    await eventually(deliveryRows, (rows) => rows[0]?.status === 'delivered')
    expect(await deliveryRows()).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1, next_attempt_at: null })])
    expect(outboxReads.queries).toBe(0)
    // The batch's transaction reads the subscriptions once, for whether and where to send.
    expect(subscriptionReads.queries).toBe(1)
  })

  it('gives the places back when the deliveries cannot be written', async () => {
    const before = (await deliveryRows()).length
    const refusing = database.db.withPlugin({
      transformQuery({ node }) {
        if (node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === 'webhook_deliveries') throw new Error('no room for deliveries')
        return node
      },
      transformResult: async ({ result }) => result,
    })
    const write = createClickWriter({ db: refusing, visitors: createDailySaltHasher(database.db), inTransaction: services.outbox.onClickBatch })
    await expect(write(clicks(3))).rejects.toThrow('no room for deliveries')
    const after = services.webhookDelivery.reserve(CONCURRENCY, new Date())
    services.webhookDelivery.release(after.places)
    expect(after.places).toBe(CONCURRENCY)
    expect(await deliveryRows()).toHaveLength(before)
  })

  it('sends nothing of a batch that does not commit, and gives its places back', async () => {
    const before = (await deliveryRows()).length
    const sent = receiver.all.length
    let placesLeftInTransaction = -1
    const refusing = withBeforeCommit(database.db, async () => {
      // The batch's delivery holds one place until its transaction ends.
      const probe = services.webhookDelivery.reserve(CONCURRENCY, new Date())
      placesLeftInTransaction = probe.places
      services.webhookDelivery.release(probe.places)
      throw new Error('the commit was refused')
    })
    const write = createClickWriter({ db: refusing, visitors: createDailySaltHasher(database.db), inTransaction: services.outbox.onClickBatch })
    await expect(write(clicks(5))).rejects.toThrow('the commit was refused')
    expect(placesLeftInTransaction).toBe(CONCURRENCY - 1)
    const after = services.webhookDelivery.reserve(CONCURRENCY, new Date())
    services.webhookDelivery.release(after.places)
    expect(after.places).toBe(CONCURRENCY)
    expect(await deliveryRows()).toHaveLength(before)
    expect(receiver.all.length).toBe(sent)
  })

  it('leaves deliveries due at once when the worker stopped before their batch committed, and sends them at its next start', async () => {
    const sent = receiver.delivered.length
    const stopping = withBeforeCommit(database.db, async () => {
      await services.webhookDelivery.stop()
    })
    const write = createClickWriter({ db: stopping, visitors: createDailySaltHasher(database.db), inTransaction: services.outbox.onClickBatch })
    await write(clicks(7))
    // Given back: pending and due now, not leased for a minute to a worker that will not send it.
    const last = (await eventually(deliveryRows, (rows) => rows.at(-1)!.next_attempt_at! <= nowTimestamp(new Date()))).at(-1)!
    expect(last).toMatchObject({ status: 'pending', attempts: 0 })
    expect(last.next_attempt_at! <= nowTimestamp(new Date())).toBe(true)
    expect(receiver.delivered.length).toBe(sent)
    // The next start's first look takes it.
    services.webhookDelivery.start()
    const delivered = await receiver.waitForDelivered(sent + 1, 10_000)
    const event = new Webhook(secret).verify(delivered.at(-1)!.body, delivered.at(-1)!.headers) as { data: { clicks: unknown[] } }
    expect(event.data.clicks).toHaveLength(7)
  })
})
