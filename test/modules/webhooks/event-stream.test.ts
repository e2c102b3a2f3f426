// The event stream (EVENTS_URL): every outbox event, webhook or not, is published to NATS
// JetStream on `linkwell.<workspace>.<type>` with the event id as message id; nothing rolled back;
// a repeat is dropped by JetStream; events written while NATS cannot be reached are published by
// the next instance that can. Needs TEST_NATS_URL (NATS with JetStream).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { jetstream } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config.js'
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../../src/db/database.js'
import { STREAM_NAME } from '../../../src/modules/webhooks/event-stream.js'
import { BROWSERS } from '../../analytics/click-test-support.js'
import { createAccount, insertLinkRow, servicesFor } from '../../helpers/factories.js'
import { apiClient, buildAppOn, useTestApp } from '../../helpers/test-app.js'
import { createTestDatabase, testDialect } from '../../helpers/test-database.js'
import { visit } from '../../public/redirect-test-support.js'
import { eventually } from '../../helpers/eventually.js'

const natsUrl = process.env.TEST_NATS_URL
if (!natsUrl) process.stdout.write('\nSKIPPED: the event stream tests (TEST_NATS_URL is not set).\n')

interface StreamMessage {
  subject: string
  id: string | undefined
  body: any
}

/** Every message of the stream on `linkwell.<accountId>.>` (earlier runs' included). */
async function streamMessages(accountId: number): Promise<StreamMessage[]> {
  const nc = await connect({ servers: natsUrl })
  try {
    const consumer = await jetstream(nc).consumers.get(STREAM_NAME, { filter_subjects: `linkwell.${accountId}.>` })
    const messages: StreamMessage[] = []
    for await (const message of await consumer.fetch({ max_messages: 5_000, expires: 1_000 })) {
      messages.push({ subject: message.subject, id: message.headers?.get('Nats-Msg-Id'), body: message.json() })
    }
    return messages
  } finally {
    await nc.close()
  }
}


describe.skipIf(!natsUrl)(`the event stream (${testDialect})`, () => {
  const { context, owner, api } = useTestApp({ env: { EVENTS_URL: natsUrl ?? '' }, eventStream: { pollMs: 50, leaseMs: 5_000 } })
  const cleanups: Array<() => Promise<unknown> | unknown> = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  const outboxEvents = () => context.database.db.selectFrom('outbox_events').selectAll().where('account_id', '=', owner.id).orderBy('id').execute()

  it('publishes every event, with no webhook, on linkwell.<workspace>.<type> with the event id as message id; nothing rolled back', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/streamed' })
    expect(created.statusCode).toBe(201)
    const stop = context.services.journal.listen(async (_trx, _actor, changes) => {
      if (changes.some((change) => (change.record as { name?: string } | undefined)?.name === 'Rolled back')) throw new Error('refused')
    })
    try {
      expect((await api('POST', '/api/campaign/add', { name: 'Rolled back' })).statusCode).toBe(500)
    } finally {
      stop()
    }
    const link = await insertLinkRow(context.database.db, owner.id, { url: 'https://example.com/clicked' })
    for (let n = 0; n < 3; n += 1) await visit(context.app, `/${link.alias}`, { headers: { 'user-agent': BROWSERS.chromeWindows } })
    await context.clicks.flush()

    const events = await eventually(outboxEvents, (rows) => rows.length === 2 && rows.every((row) => row.streamed_at !== null))
    expect(events.map((event) => event.type)).toEqual(['link.created', 'link.clicked'])
    const messages = await eventually(() => streamMessages(owner.id), (list) => events.every((event) => list.some((message) => message.id === event.event_id)))
    for (const event of events) {
      const [message] = messages.filter((candidate) => candidate.id === event.event_id)
      expect(message!.subject).toBe(`linkwell.${owner.id}.${event.type}`)
      expect(message!.body).toEqual(JSON.parse(event.payload))
    }
    const clicked = messages.find((message) => message.id === events[1]!.event_id)!
    expect(clicked.body.data.clicks).toHaveLength(3)
    expect(messages.some((message) => message.body.data?.name === 'Rolled back')).toBe(false)
  })

  it('publishes an event again without a second message (JetStream drops the repeat)', async () => {
    await api('POST', '/api/channel/add', { name: 'Twice' })
    const [event] = (await eventually(outboxEvents, (rows) => rows.some((row) => row.type === 'channel.created' && row.streamed_at !== null))).filter((row) => row.type === 'channel.created')
    // As after an instance died between publishing and marking: published again.
    await context.database.db.updateTable('outbox_events').set({ stream_next_at: '2000-01-01 00:00:00', streamed_at: null }).where('id', '=', event!.id).execute()
    await eventually(outboxEvents, (rows) => rows.find((row) => row.id === event!.id)!.streamed_at !== null)
    const copies = (await streamMessages(owner.id)).filter((message) => message.id === event!.event_id)
    expect(copies).toHaveLength(1)
  })

  it('publishes lead.created and sale.created (issue 39) like every outbox event', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://shop.example/streamed', trackconversions: true })
    expect(created.statusCode).toBe(201)
    const response = await visit(context.app, `/${created.data.shorturl.split('/').pop()}`, { headers: { 'user-agent': BROWSERS.chromeWindows } })
    const clickId = new URL(response.headers.location as string).searchParams.get('lw_id')!
    expect((await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_stream' } })).statusCode).toBe(201)
    expect((await api('POST', '/api/track/sale', { customerid: 'cus_stream', amount: 4900, currency: 'EUR', invoiceid: 'inv_stream' })).statusCode).toBe(201)
    const conversions = (rows: Awaited<ReturnType<typeof outboxEvents>>) => rows.filter((row) => row.type === 'lead.created' || row.type === 'sale.created')
    const events = conversions(await eventually(outboxEvents, (rows) => conversions(rows).length === 2 && conversions(rows).every((row) => row.streamed_at !== null)))
    expect(events.map((event) => event.type)).toEqual(['lead.created', 'sale.created'])
    const messages = await eventually(() => streamMessages(owner.id), (list) => events.every((event) => list.some((message) => message.id === event.event_id)))
    for (const event of events) {
      const copies = messages.filter((candidate) => candidate.id === event.event_id)
      expect(copies).toHaveLength(1)
      expect(copies[0]!.subject).toBe(`linkwell.${owner.id}.${event.type}`)
      expect(copies[0]!.body).toEqual(JSON.parse(event.payload))
    }
    expect(messages.find((message) => message.id === events[0]!.event_id)!.body.data).toMatchObject({ clickid: clickId, link: created.data.id, customer: { id: 'cus_stream' } })
    expect(messages.find((message) => message.id === events[1]!.event_id)!.body.data).toMatchObject({ amount: 4900, currency: 'EUR', invoiceid: 'inv_stream', link: created.data.id })
  })

  it('keeps events while NATS cannot be reached, and the next instance publishes them', async () => {
    let url: string
    let handle: DatabaseHandle
    if (testDialect === 'postgres') {
      const database = await createTestDatabase()
      cleanups.push(() => database.destroy())
      url = database.url
      handle = database
    } else {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-stream-'))
      cleanups.push(() => fs.rmSync(folder, { recursive: true, force: true }))
      url = `file:${path.join(folder, 'linkwell.db')}`
      handle = openDatabase(url)
      await migrateToLatest(handle)
      cleanups.push(() => handle.close())
    }
    const account = await createAccount(servicesFor(handle))
    const env = { PUBLIC_URL: 'https://lw.test', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000' }
    // Nothing listens on port 1. The publisher reports each failed round, after it has written
    // the events it took back for a later try.
    const failures: unknown[] = []
    const away = await buildAppOn(openDatabase(url, { poolMax: 3 }), loadConfig({ ...env, EVENTS_URL: 'nats://127.0.0.1:1' }), { eventStream: { pollMs: 50, onError: (error) => failures.push(error) } })
    expect((await apiClient(away.app, account.apiKey)('POST', '/api/campaign/add', { name: 'While away' })).statusCode).toBe(201)
    const waiting = await handle.db.selectFrom('outbox_events').selectAll().where('account_id', '=', account.id).execute()
    expect(waiting).toHaveLength(1)
    await eventually(() => failures.length, (count) => count >= 1)
    // Tried and failed: not streamed, and due again later than when it was written.
    const kept = await handle.db.selectFrom('outbox_events').select(['streamed_at', 'stream_next_at']).where('id', '=', waiting[0]!.id).executeTakeFirstOrThrow()
    expect(kept).toMatchObject({ streamed_at: null, stream_next_at: expect.any(String) })
    expect(kept.stream_next_at! > waiting[0]!.stream_next_at!).toBe(true)
    await away.app.close()
    await away.services.database.close()

    const back = await buildAppOn(openDatabase(url, { poolMax: 3 }), loadConfig({ ...env, EVENTS_URL: natsUrl! }), { eventStream: { pollMs: 50 } })
    cleanups.push(async () => {
      await back.app.close()
      await back.services.database.close()
    })
    // The failed attempt paused it for a second.
    const messages = await eventually(() => streamMessages(account.id), (list) => list.some((message) => message.id === waiting[0]!.event_id))
    expect(messages.find((message) => message.id === waiting[0]!.event_id)!.body.data.name).toBe('While away')
    // A fresh database migrated from nothing and two apps built on it: 20-30 s on a loaded 2-core machine.
  }, 90_000)
})
