// Webhook deliveries end to end, through a local receiver: every event arrives signed (verified
// with the reference library) with the record as the API shows it; clicks arrive batched, exactly
// the recorded ones; a rolled-back change sends nothing; a receiver that was down gets everything
// once it is up; a delivery is retried by hand and tested; a webhook failing for 3 days is
// switched off with the reason.
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BROWSERS } from '../../analytics/click-test-support.js'
import { insertLinkRow, insertOverlayRow } from '../../helpers/factories.js'
import { useTestApp, type ApiClient } from '../../helpers/test-app.js'
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from '../../helpers/webhook-receiver.js'
import { visit } from '../../public/redirect-test-support.js'
import { eventually } from '../../helpers/eventually.js'

const DAY_MS = 86_400_000

/** A clock the test moves: the worker's idea of now. */
const clock = { offsetMs: 0 }

async function addWebhook(api: ApiClient, url: string, events: string[]): Promise<{ id: number; secret: string }> {
  const created = await api('POST', '/api/webhook/add', { url, events })
  expect(created.statusCode).toBe(201)
  return created.data
}

function verified(secret: string, request: ReceivedRequest) {
  return new Webhook(secret).verify(request.body, request.headers) as ReceivedRequest['event']
}


describe('webhook deliveries', () => {
  const { context, owner, api } = useTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE: '1' },
    webhookDelivery: { pollMs: 50, leaseMs: 5_000, backoff: () => 1_000, now: () => new Date(Date.now() + clock.offsetMs) },
  })
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
  })
  afterAll(() => receiver.close())
  afterEach(async () => {
    clock.offsetMs = 0
    receiver.mode = 'ok'
    // Each test its own webhooks: switch off the others so they receive nothing more.
    await context.database.db.updateTable('webhooks').set({ enabled: 0 }).execute()
  })

  const deliveriesOf = async (webhookId: number) => (await api('GET', `/api/webhook/${webhookId}/deliveries?limit=100`)).data.data.deliveries as any[]
  // What decides what is sent: a webhook's delivery rows, written in the transaction of what they report. Once
  // none is pending the worker sends none of them again, so what the receiver got is then final.
  const settledRowsOf = (webhookId: number) => eventually(
    () => context.database.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('webhook_id', '=', webhookId).orderBy('id').execute(),
    (rows) => rows.length > 0 && rows.every((row) => row.status !== 'pending'),
  )

  it('sends record changes signed, with id, type, time, workspace and the record as the API lists it', async () => {
    const { id: hookId, secret } = await addWebhook(api, `${receiver.url}/records`, ['link.created', 'link.updated', 'link.deleted', 'campaign.created'])
    const start = receiver.delivered.length
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/first', custom: `wh${Date.now()}` })
    expect(created.statusCode).toBe(201)
    const listed = (await api('GET', '/api/urls?limit=100')).data.data.urls.find((entry: { id: number }) => entry.id === created.data.id)
    await api('PUT', `/api/url/${created.data.id}/update`, { url: 'https://example.com/second' })
    await api('POST', '/api/campaign/add', { name: 'Spring' })
    // Not subscribed: not sent.
    await api('POST', '/api/channel/add', { name: 'Not subscribed' })
    await api('DELETE', `/api/url/${created.data.id}/delete`)
    // Four deliveries, each sent once and answered: the receiver got those four, no more.
    expect(await settledRowsOf(hookId)).toEqual(Array(4).fill({ status: 'delivered', attempts: 1 }))
    expect(receiver.delivered.length).toBe(start + 4)
    const requests = receiver.delivered.slice(start)

    const events = requests.map((request) => verified(secret, request))
    expect(events.map((event) => event.type).sort()).toEqual(['campaign.created', 'link.created', 'link.deleted', 'link.updated'])
    for (const [index, event] of events.entries()) {
      expect(event).toEqual({ id: expect.stringMatching(/^evt_/), type: expect.any(String), timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), workspace: owner.id, data: expect.any(Object) })
      expect(requests[index]!.headers['webhook-id']).toBe(event.id)
      expect(requests[index]!.path).toBe('/records')
    }
    const byType = Object.fromEntries(events.map((event) => [event.type, event]))
    expect(byType['link.created']!.data).toMatchObject(listed)
    expect(byType['link.updated']!.data).toMatchObject({ id: created.data.id, longurl: 'https://example.com/second' })
    expect(byType['link.deleted']!.data).toMatchObject({ id: created.data.id })
    expect(byType['campaign.created']!.data).toMatchObject({ name: 'Spring' })
    expect(new Set(events.map((event) => event.id)).size).toBe(4)

    // The log shows each delivery: delivered, one attempt, the request sent and the answer.
    const log = await deliveriesOf(hookId)
    expect(log).toHaveLength(4)
    for (const entry of log) {
      expect(entry).toMatchObject({ status: 'delivered', attempts: 1, responseCode: 200, responseBody: 'thanks', error: null, nextTry: null, lastTry: expect.any(String) })
      expect(entry.responseTime).toBeGreaterThanOrEqual(0)
      expect(entry.request.headers['webhook-id']).toBe(entry.event)
      expect(JSON.parse(entry.request.body).id).toBe(entry.event)
    }
  })

  it('sends nothing of a change that rolls back', async () => {
    const { id: hookId } = await addWebhook(api, `${receiver.url}/rollback`, ['channel.created'])
    // A listener after the outbox's fails: the change, its audit row and its event go together.
    const stop = context.services.journal.listen(async (_trx, _actor, changes) => {
      if (changes.some((change) => (change.record as { name?: string } | undefined)?.name === 'Rolled back')) throw new Error('refused')
    })
    try {
      expect((await api('POST', '/api/channel/add', { name: 'Rolled back' })).statusCode).toBe(500)
      expect((await api('POST', '/api/channel/add', { name: 'Kept' })).statusCode).toBe(201)
    } finally {
      stop()
    }
    // One delivery (the kept change's), sent once: the receiver got that one, no more.
    expect(await settledRowsOf(hookId)).toEqual([{ status: 'delivered', attempts: 1 }])
    const sent = receiver.all.filter((request) => request.path === '/rollback')
    expect(sent.map((request) => request.event.data.name)).toEqual(['Kept'])
    const events = await context.database.db.selectFrom('outbox_events').select('payload').execute()
    expect(events.filter((event) => event.payload.includes('Rolled back'))).toEqual([])
  })

  it('sends recorded clicks and scans batched, several in one event, exactly the recorded ones', async () => {
    const { id: hookId, secret } = await addWebhook(api, `${receiver.url}/clicks`, ['link.clicked', 'qr.scanned'])
    const link = await insertLinkRow(context.database.db, owner.id, { url: 'https://example.com/clicked' })
    const qr = await api('POST', '/api/qr/add', { type: 'link', data: 'https://example.com/scanned' })
    const qrAlias = (qr.data.link as string).split('/').pop()!
    await context.clicks.flush()
    const start = receiver.delivered.filter((request) => request.path === '/clicks').length
    for (let n = 0; n < 5; n += 1) {
      expect((await visit(context.app, `/${link.alias}`, { headers: { 'user-agent': BROWSERS.firefoxLinux, referer: 'https://news.example.org/post' }, remoteAddress: '8.8.8.8' })).statusCode).toBe(302)
    }
    // A bot is not a recorded click: no event either.
    await visit(context.app, `/${link.alias}`, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } })
    await visit(context.app, `/qr/${qrAlias}/scan`, { headers: { 'user-agent': BROWSERS.safariIphone } })
    await context.clicks.flush()
    // Two deliveries (one event of clicks, one of scans), each sent once: the receiver got those two.
    expect(await settledRowsOf(hookId)).toEqual(Array(2).fill({ status: 'delivered', attempts: 1 }))
    const requests = receiver.all.filter((request) => request.path === '/clicks').slice(start)
    expect(requests).toHaveLength(2)
    const events = requests.map((request) => verified(secret, request))
    const clicked = events.find((event) => event.type === 'link.clicked')!
    expect(clicked.data.clicks).toHaveLength(5)
    expect(clicked.data.clicks[0]).toMatchObject({ link: link.id, country: 'US', referrer: 'news.example.org', browser: 'Firefox', language: null, unique: true })
    expect(clicked.data.clicks.filter((click: { unique: boolean }) => click.unique)).toHaveLength(1)
    // Exactly the recorded clicks, with what the writer derived (never the visitor's hash).
    const recorded = await context.database.db.selectFrom('clicks').selectAll().where('item_type', '=', 'link').where('item_id', '=', link.id).orderBy('id').execute()
    expect(clicked.data.clicks).toEqual(recorded.map((row) => ({
      link: link.id, date: row.created_at, country: row.country, referrer: row.referrer_host, browser: row.browser, os: row.os, device: row.device, language: row.language, unique: row.is_unique === 1,
    })))
    expect(requests[0]!.body).not.toContain(recorded[0]!.visitor_hash)
    const scanned = events.find((event) => event.type === 'qr.scanned')!
    expect(scanned.data.clicks).toEqual([expect.objectContaining({ qr: qr.data.id, unique: true })])
  })

  it('sends what visitors write through a contact overlay', async () => {
    const { secret } = await addWebhook(api, `${receiver.url}/contacts`, ['contact.submitted'])
    const overlayId = await insertOverlayRow(context.database.db, owner.id, 'contact', { title: 'Talk to us', email: 'owner@example.com' })
    const link = await insertLinkRow(context.database.db, owner.id, { type: 'overlay', overlay_id: overlayId, url: 'https://example.com/product' })
    const sent = await visit(context.app, `/${link.alias}/contact`, { form: { name: 'Ada', email: 'ada@example.com', message: 'Call me' } })
    expect(sent.statusCode).toBe(200)
    await eventually(async () => receiver.delivered.filter((request) => request.path === '/contacts'), (list) => list.length >= 1)
    const [request] = receiver.delivered.filter((entry) => entry.path === '/contacts')
    const event = verified(secret, request!)
    expect(event.type).toBe('contact.submitted')
    const listed = (await api('GET', `/api/overlay/${overlayId}/contacts`)).data.data.contacts[0]
    expect(event.data).toEqual({ ...listed, overlay: overlayId })
  })

  it('delivers everything once a receiver that was down is up again', async () => {
    const { id: hookId, secret } = await addWebhook(api, `${receiver.url}/down`, ['campaign.created'])
    receiver.mode = 'down'
    for (let n = 0; n < 5; n += 1) expect((await api('POST', '/api/campaign/add', { name: `While down ${n}` })).statusCode).toBe(201)
    await receiver.waitForRequests(5)
    const pending = await eventually(() => deliveriesOf(hookId), (log) => log.length === 5 && log.every((entry) => entry.attempts >= 1))
    for (const entry of pending) expect(entry).toMatchObject({ status: 'pending', responseCode: 503, error: 'the server answered HTTP 503', responseBody: 'down for maintenance', nextTry: expect.any(String) })
    expect((await api('GET', `/api/webhook/${hookId}`)).data.data.failingSince).toEqual(expect.any(String))
    receiver.mode = 'ok'
    const delivered = await eventually(async () => receiver.delivered.filter((request) => request.path === '/down'), (list) => new Set(list.map((request) => request.event.id)).size >= 5)
    expect(delivered.map((request) => verified(secret, request).data.name).sort()).toEqual([0, 1, 2, 3, 4].map((n) => `While down ${n}`))
    const log = await eventually(() => deliveriesOf(hookId), (entries) => entries.every((entry) => entry.status === 'delivered'))
    expect(log.every((entry) => entry.attempts >= 2)).toBe(true)
    // A success clears the failing streak.
    expect((await api('GET', `/api/webhook/${hookId}`)).data.data.failingSince).toBeNull()
  })

  it('gives up after 24 hours, retries by hand, and sends a test event', async () => {
    const { id: hookId, secret } = await addWebhook(api, `${receiver.url}/retry`, ['campaign.created'])
    receiver.mode = 'down'
    await api('POST', '/api/campaign/add', { name: 'Given up' })
    await eventually(() => deliveriesOf(hookId), (log) => log.length === 1 && log[0].attempts >= 1)
    // A day later the window has closed: the next attempt is the last.
    clock.offsetMs = DAY_MS + 60_000
    const [failed] = await eventually(() => deliveriesOf(hookId), (log) => log[0].status === 'failed')
    expect(failed).toMatchObject({ status: 'failed', nextTry: null, responseCode: 503 })
    clock.offsetMs = 0
    receiver.mode = 'ok'
    const retried = await api('POST', `/api/delivery/${failed.id}/retry`)
    expect(retried.data).toEqual({ error: 0, message: 'The delivery will be tried again now.' })
    const [done] = await eventually(() => deliveriesOf(hookId), (log) => log[0].status === 'delivered')
    expect(done.attempts).toBe(failed.attempts + 1)
    expect(verified(secret, receiver.delivered.find((request) => request.path === '/retry')!).data.name).toBe('Given up')

    const test = await api('POST', `/api/webhook/${hookId}/test`)
    expect(test.statusCode).toBe(200)
    const tested = await eventually(async () => receiver.delivered.filter((request) => request.path === '/retry' && request.event.type === 'webhook.test'), (list) => list.length === 1)
    expect(verified(secret, tested[0]!).data).toEqual({ webhook: hookId, message: expect.any(String) })
    // The receiver has it before the worker writes down the answer: read the log until it has.
    const log = await eventually(() => deliveriesOf(hookId), (entries) => entries.find((entry) => entry.id === test.data.id)?.status === 'delivered')
    expect(log.find((entry) => entry.id === test.data.id)).toMatchObject({ type: 'webhook.test', status: 'delivered' })
  })

  it('switches off a webhook whose deliveries all failed for 3 days, and says why', async () => {
    const { id: hookId } = await addWebhook(api, `${receiver.url}/broken`, ['campaign.created'])
    receiver.mode = 'down'
    await api('POST', '/api/campaign/add', { name: 'First failure' })
    await eventually(() => deliveriesOf(hookId), (log) => log[0]?.attempts >= 1)
    expect((await api('GET', `/api/webhook/${hookId}`)).data.data).toMatchObject({ enabled: true, failingSince: expect.any(String) })
    // Three days on, a new event fails too: the webhook goes off, and its pending deliveries fail.
    clock.offsetMs = 3 * DAY_MS + 60_000
    await api('POST', '/api/campaign/add', { name: 'Three days later' })
    const webhook = await eventually(async () => (await api('GET', `/api/webhook/${hookId}`)).data.data, (hook) => hook.enabled === false)
    expect(webhook.disabledReason).toMatch(/^Switched off: every delivery failed from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC to .* \(the last: the server answered HTTP 503\)\.$/)
    expect(webhook.disabledAt).toEqual(expect.any(String))
    // (An event committed while the switch-off did fails when the worker takes it.)
    const log = await eventually(() => deliveriesOf(hookId), (entries) => entries.every((entry) => entry.status === 'failed'))
    expect(log.length).toBeGreaterThanOrEqual(1)
    // Off: no new deliveries, and tests and retries are refused.
    await api('POST', '/api/campaign/add', { name: 'While off' })
    expect(await deliveriesOf(hookId)).toHaveLength(log.length)
    expect((await api('POST', `/api/delivery/${log[0].id}/retry`)).data.code).toBe('webhook_disabled')
  })
})
