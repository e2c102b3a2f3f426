// GET /metrics: Prometheus text with the figures an operator graphs (requests by route and status,
// visitors' answers from both paths, the click queue and its batches, caches, the PostgreSQL pool),
// behind METRICS_TOKEN when set, off with METRICS=off; `metrics` is no alias anyone can take.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiClient, useTestApp } from '../helpers/test-app.js'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'
import { testDialect } from '../helpers/test-database.js'
import { loadConfig } from '../../src/config.js'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { createTestApp } from '../helpers/test-app.js'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const TOKEN = 'metrics-token-0123456789'

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('GET /metrics', () => {
  const { context, api } = useTestApp({ env: { KEY_CACHE_MS: '1000' } })

  async function scrape(): Promise<string> {
    const answer = await context.app.inject({ method: 'GET', url: '/metrics' })
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    return answer.body
  }

  it('counts routed requests by route pattern and status, and visitors\' answers of both paths', async () => {
    const link = await api('POST', '/api/url/add', { url: 'https://metrics.example/a', custom: 'metrics-a' })
    expect(link.statusCode).toBe(201)
    await api('GET', `/api/url/${link.data.id}`)
    await api('GET', '/api/url/999999')
    const before = await scrape()
    const visit = () => context.app.inject({ method: 'GET', url: '/metrics-a', headers: { 'user-agent': BROWSER } })
    // The first visit reads the database through the router; the second is the short path's, from memory.
    expect((await visit()).statusCode).toBe(302)
    expect((await visit()).statusCode).toBe(302)
    expect((await context.app.inject({ method: 'GET', url: '/no-such-alias-here' })).statusCode).toBe(404)
    const after = await scrape()

    expect(sample(after, 'linkwell_http_request_duration_seconds_count{method="GET",route="/api/url/:id",status="200"}')).toBe(1)
    expect(sample(after, 'linkwell_http_request_duration_seconds_count{method="GET",route="/api/url/:id",status="404"}')).toBe(1)
    expect(sample(after, 'linkwell_http_request_duration_seconds_count{method="POST",route="/api/url/add",status="201"}')).toBe(1)
    // One series per route, never per address.
    expect(after).not.toContain('route="/api/url/999999"')
    const redirects = 'linkwell_visitor_answers_total{kind="redirect"}'
    expect(sample(after, redirects)! - (sample(before, redirects) ?? 0)).toBe(2)
    expect(sample(after, 'linkwell_visitor_answers_total{kind="not_found"}')).toBeGreaterThanOrEqual(1)
    expect(sample(after, 'linkwell_cache_hits_total{cache="alias"}')! - (sample(before, 'linkwell_cache_hits_total{cache="alias"}') ?? 0)).toBe(1)
    expect(sample(after, 'linkwell_cache_misses_total{cache="alias"}')! - (sample(before, 'linkwell_cache_misses_total{cache="alias"}') ?? 0)).toBeGreaterThanOrEqual(1)
    // The key of the first API call was looked up, the following ones came from the cache.
    expect(sample(after, 'linkwell_cache_misses_total{cache="api_key"}')).toBeGreaterThanOrEqual(1)
    expect(sample(after, 'linkwell_cache_hits_total{cache="api_key"}')).toBeGreaterThanOrEqual(2)
    // The process's own figures come along.
    expect(sample(after, 'linkwell_process_cpu_seconds_total')).toBeGreaterThan(0)
    expect(sample(after, 'linkwell_process_memory_bytes{kind="resident"}')).toBeGreaterThan(10_000_000)
  })

  it('follows clicks from the queue to the database: queued, waiting, written, and each batch\'s time', async () => {
    const link = await api('POST', '/api/url/add', { url: 'https://metrics.example/b', custom: 'metrics-b' })
    await context.clicks.flush()
    const before = await scrape()
    for (let visit = 0; visit < 3; visit += 1) await context.app.inject({ method: 'GET', url: '/metrics-b', headers: { 'user-agent': BROWSER } })
    // A bot's visit is not queued.
    await context.app.inject({ method: 'GET', url: '/metrics-b', headers: { 'user-agent': 'curl/8.0' } })
    const queued = await scrape()
    const delta = (text: string, series: string) => sample(text, series)! - (sample(before, series) ?? 0)
    expect(delta(queued, 'linkwell_clicks_queued_total')).toBe(3)
    await context.clicks.flush()
    const written = await scrape()
    expect(delta(written, 'linkwell_clicks_written_total')).toBe(3)
    expect(sample(written, 'linkwell_click_queue_depth')).toBe(0)
    expect(sample(written, 'linkwell_clicks_dropped_total')).toBe(0)
    expect(delta(written, 'linkwell_click_batch_seconds_count')).toBeGreaterThanOrEqual(1)
    expect(link.statusCode).toBe(201)
  })

  it.runIf(testDialect === 'postgres')('shows the PostgreSQL pool', async () => {
    const text = await scrape()
    // The test database's pool holds 5 (test/helpers/test-database.ts).
    expect(sample(text, 'linkwell_db_pool_connections{state="max"}')).toBe(5)
    expect(sample(text, 'linkwell_db_pool_connections{state="open"}')).toBeGreaterThanOrEqual(1)
  })

  it.runIf(testDialect === 'sqlite')('has no pool figures on SQLite', async () => {
    expect(await scrape()).not.toContain('linkwell_db_pool_connections')
  })

  it('keeps `metrics` out of the alias namespace', async () => {
    const taken = await api('POST', '/api/url/add', { url: 'https://metrics.example/c', custom: 'Metrics' })
    expect(taken.statusCode).toBe(400)
    expect(taken.data).toMatchObject({ code: 'validation_failed', field: 'custom' })
  })
})

describe('GET /metrics with webhooks', () => {
  const { context, api } = useTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: '1' }, webhookDelivery: { pollMs: 50, backoff: () => 1_000 } })
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver('down')
  })
  afterAll(() => receiver.close())

  async function scrape(): Promise<string> {
    const answer = await context.app.inject({ method: 'GET', url: '/metrics' })
    expect(answer.statusCode).toBe(200)
    return answer.body
  }

  it('counts deliveries by outcome, shows the outbox waiting while the receiver is down, and each delivery\'s lag', async () => {
    const before = await scrape()
    expect(sample(before, 'linkwell_webhook_outbox_pending')).toBe(0)
    expect(sample(before, 'linkwell_webhook_outbox_oldest_seconds')).toBe(0)
    expect(sample(before, 'linkwell_webhook_deliveries_total{outcome="delivered"}')).toBe(0)
    expect(sample(before, 'linkwell_webhook_delivery_lag_seconds_count')).toBe(0)

    expect((await api('POST', '/api/webhook/add', { url: `${receiver.url}/hook`, events: ['link.created'] })).statusCode).toBe(201)
    expect((await api('POST', '/api/url/add', { url: 'https://metrics.example/hooked', custom: 'metrics-hooked' })).statusCode).toBe(201)
    // The receiver answers 503: the attempt fails and the delivery waits in the outbox for its retry.
    await receiver.waitForRequests(1)
    await expect.poll(async () => sample(await scrape(), 'linkwell_webhook_deliveries_total{outcome="retry"}')).toBeGreaterThanOrEqual(1)
    // The delivery waits on: its age reaches a second.
    await expect.poll(async () => sample(await scrape(), 'linkwell_webhook_outbox_oldest_seconds')).toBeGreaterThanOrEqual(1)
    const waiting = await scrape()
    expect(sample(waiting, 'linkwell_webhook_outbox_pending')).toBe(1)
    expect(sample(waiting, 'linkwell_webhook_outbox_oldest_seconds')).toBeGreaterThanOrEqual(1)
    expect(sample(waiting, 'linkwell_webhook_deliveries_total{outcome="delivered"}')).toBe(0)

    receiver.mode = 'ok'
    await receiver.waitForDelivered(1)
    await expect.poll(async () => sample(await scrape(), 'linkwell_webhook_deliveries_total{outcome="delivered"}')).toBe(1)
    const delivered = await scrape()
    expect(sample(delivered, 'linkwell_webhook_outbox_pending')).toBe(0)
    expect(sample(delivered, 'linkwell_webhook_outbox_oldest_seconds')).toBe(0)
    expect(sample(delivered, 'linkwell_webhook_deliveries_total{outcome="failed"}')).toBe(0)
    expect(sample(delivered, 'linkwell_webhook_delivery_lag_seconds_count')).toBe(1)
    // Committed, refused once, retried a second later or more: the lag counts the wait.
    expect(sample(delivered, 'linkwell_webhook_delivery_lag_seconds_sum')).toBeGreaterThanOrEqual(1)
  })
})

describe('GET /metrics behind METRICS_TOKEN', () => {
  const { context, owner } = useTestApp({ env: { METRICS_TOKEN: TOKEN } })

  it('answers 401 in the envelope without the token, with another one, or with an API key', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, `Bearer ${owner.apiKey}`]) {
      const answer = await context.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} })
      expect(answer.statusCode).toBe(401)
      expect(answer.json()).toEqual({ error: 1, code: 'invalid_metrics_token', message: 'A valid metrics token is required: Authorization: Bearer <METRICS_TOKEN>.' })
    }
    const allowed = await context.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(allowed.statusCode).toBe(200)
    expect(allowed.body).toContain('linkwell_clicks_written_total')
    // The API is untouched by the token.
    expect((await apiClient(context.app, owner.apiKey)('GET', '/api/account')).statusCode).toBe(200)
  })
})

describe('METRICS=off', () => {
  const { context } = useTestApp({ env: { METRICS: 'off' } })

  it('serves no metrics', async () => {
    const answer = await context.app.inject({ method: 'GET', url: '/metrics' })
    expect(answer.statusCode).toBe(404)
    expect(answer.body).not.toContain('linkwell_')
  })
})

describe('metrics settings', () => {
  it.each([
    [{ METRICS: 'maybe' }, 'METRICS'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
  ])('refuses %o naming %s', (env, name) => {
    expect(() => loadConfig({ PUBLIC_URL: 'https://lw.test', ...env })).toThrow(name)
  })
})

describe('the start-up log about /metrics', () => {
  /** The warnings of an app built with `env`. */
  async function warningsOf(env: Record<string, string>): Promise<string[]> {
    const lines: Array<{ level: number; msg: string }> = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text))
        done()
      },
    })
    const context = await createTestApp({ env, logger: pino({ level: 'info' }, stream) })
    await context.app.inject({ method: 'GET', url: '/metrics' })
    await context.app.inject({ method: 'GET', url: '/metrics' })
    await context.close()
    return lines.filter((line) => line.level === 40).map((line) => line.msg).filter((message) => message.includes('/metrics'))
  }

  it('warns once that /metrics is open when METRICS_TOKEN is not set', async () => {
    expect(await warningsOf({})).toEqual(['GET /metrics is open to anyone: set METRICS_TOKEN to keep it behind a token, or METRICS=off'])
  })

  it('says nothing of it with a token, or with metrics off', async () => {
    expect(await warningsOf({ METRICS_TOKEN: TOKEN })).toEqual([])
    expect(await warningsOf({ METRICS: 'off' })).toEqual([])
  })
})
