// GET /metrics in Prometheus text (prom-client), behind METRICS_TOKEN when set (issue 22). What
// a request pays for it: the router's requests one histogram observation; the redirects the short
// path answers nothing at all: their counts, the click queue, the caches and the pool are read
// from counters the code keeps anyway, when Prometheus asks (collect functions).
import { timingSafeEqual } from 'node:crypto'
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { FastifyInstance } from 'fastify'
import type { ClickRecorder } from '../analytics/click-recorder.js'
import type { PoolUse } from '../db/database.js'
import type { CacheCounts } from '../core/lru-cache.js'
import { AuthenticationError } from '../core/errors.js'

/**
 * What the webhook delivery worker tells the metrics: its attempts' outcomes since start, each
 * delivery's lag as it happens, and the outbox as the database holds it. The metrics are told (app.ts
 * hands the worker in), they do not reach into modules/webhooks: its routes stand on http/.
 */
export interface WebhookFigures {
  totals: Readonly<{ delivered: number; retried: number; failed: number }>
  /** Calls `listener` with each delivery's lag in seconds; answers a function that stops it. */
  onDelivered(listener: (lagSeconds: number) => void): () => void
  /** The outbox read now: deliveries waiting, and seconds the oldest has waited (0 when none waits). */
  outbox(): Promise<{ pending: number; oldestSeconds: number }>
}

/** What the metrics read when scraped. */
export interface MetricSources {
  clicks: Pick<ClickRecorder, 'pending' | 'totals' | 'afterCommit'>
  /** Visitors' answers by kind since start (public/visitor-log.ts), both paths. */
  visitorAnswers(): { redirects: number; pages: number; notFound: number; refused: number; failed: number }
  caches: Record<string, Readonly<CacheCounts>>
  poolUse?: () => PoolUse
  /** The webhook delivery worker: its attempts' outcomes, each delivery's lag, and the outbox read from the database. */
  webhooks?: WebhookFigures
}

const VISITOR_KINDS = [['redirects', 'redirect'], ['pages', 'page'], ['notFound', 'not_found'], ['refused', 'refused'], ['failed', 'failed']] as const

// The process's own figures, read at scrape time too. prom-client's default collectors are not
// used: their garbage-collection observer hooks every collection, which cost ~10 % of the
// redirect rate on PostgreSQL in `npm run bench` (ADR 019).
const startedAt = Date.now() / 1000

function processMetrics(registry: Registry): void {
  new Counter({
    name: 'linkwell_process_cpu_seconds_total', help: 'User and system CPU time the process has used.', registers: [registry],
    collect() {
      const { user, system } = process.cpuUsage()
      this.reset()
      this.inc((user + system) / 1e6)
    },
  })
  new Gauge({
    name: 'linkwell_process_memory_bytes', help: 'Memory of the process: resident, and the JavaScript heap used and allocated.', labelNames: ['kind'], registers: [registry],
    collect() {
      const memory = process.memoryUsage()
      this.set({ kind: 'resident' }, memory.rss)
      this.set({ kind: 'heap_used' }, memory.heapUsed)
      this.set({ kind: 'heap_total' }, memory.heapTotal)
    },
  })
  new Gauge({
    name: 'linkwell_process_start_time_seconds', help: 'When the process started (Unix time).', registers: [registry],
    collect() {
      this.set(startedAt)
    },
  })
}

/** A counter whose value is read from `read` at each scrape (a total the code keeps anyway). */
function totalOf(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name, help, registers: [registry],
    collect() {
      this.reset()
      this.inc(read())
    },
  })
}

const DELIVERY_OUTCOMES = [['delivered', 'delivered'], ['retried', 'retry'], ['failed', 'failed']] as const

/**
 * Webhooks (issue 22): attempts by outcome (totals the worker keeps), each delivery's lag from the
 * event's commit to the receiver's 2xx (one observation per delivery, off every response path), and
 * the outbox as the database holds it, read at scrape time (one indexed count over pending rows).
 */
function webhookMetrics(registry: Registry, webhooks: WebhookFigures): () => void {
  new Counter({
    name: 'linkwell_webhook_deliveries_total', help: 'Webhook delivery attempts of this instance by outcome: delivered (2xx), retry (failed, to be tried again), failed (given up).',
    labelNames: ['outcome'], registers: [registry],
    collect() {
      this.reset()
      for (const [field, outcome] of DELIVERY_OUTCOMES) this.inc({ outcome }, webhooks.totals[field])
    },
  })
  const lag = new Histogram({
    name: 'linkwell_webhook_delivery_lag_seconds', help: 'From an event\'s commit to its webhook\'s 2xx answer, retries included.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21_600, 86_400], registers: [registry],
  })
  // Both outbox gauges are collected together (prom-client asks every metric at once): one reading serves both.
  let reading: ReturnType<typeof webhooks.outbox> | null = null
  const outbox = () => (reading ??= webhooks.outbox().finally(() => (reading = null)))
  new Gauge({
    name: 'linkwell_webhook_outbox_pending', help: 'Webhook deliveries waiting to be sent (every instance\'s), read from the outbox at scrape time.', registers: [registry],
    async collect() {
      this.set((await outbox()).pending)
    },
  })
  new Gauge({
    name: 'linkwell_webhook_outbox_oldest_seconds', help: 'How long the oldest waiting webhook delivery has waited (0 when none waits), read at scrape time.', registers: [registry],
    async collect() {
      this.set((await outbox()).oldestSeconds)
    },
  })
  return webhooks.onDelivered((seconds) => lag.observe(seconds))
}

export interface Metrics {
  /** Counts one request the router answered. */
  observeRequest(method: string, route: string, status: number, seconds: number): void
  /** The exposition text and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>
  /** Stops listening to the click recorder. */
  close(): void
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry()
  processMetrics(registry)
  const batchSeconds = new Histogram({
    name: 'linkwell_click_batch_seconds', help: 'Time to write one batch of clicks (raw rows, visitors, aggregates) in one transaction.',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [registry],
  })
  const stopBatches = sources.clicks.afterCommit(({ seconds }) => batchSeconds.observe(seconds))
  totalOf(registry, 'linkwell_clicks_queued_total', 'Visits queued for recording (bots and prefetches are not).', () => sources.clicks.totals.queued)
  totalOf(registry, 'linkwell_clicks_written_total', 'Clicks written to the database.', () => sources.clicks.totals.written)
  totalOf(registry, 'linkwell_clicks_dropped_total', 'Visits not recorded: the queue was full, or the database refused their batch for good.', () => sources.clicks.totals.dropped)
  new Gauge({
    name: 'linkwell_click_queue_depth', help: 'Visits waiting to be written.', registers: [registry],
    collect() {
      this.set(sources.clicks.pending)
    },
  })
  new Counter({
    name: 'linkwell_visitor_answers_total', help: 'Answers to visitors (short links, QR scans, bio pages, rotators), both the short path and the router, by kind.',
    labelNames: ['kind'], registers: [registry],
    collect() {
      const answers = sources.visitorAnswers()
      this.reset()
      for (const [field, kind] of VISITOR_KINDS) this.inc({ kind }, answers[field])
    },
  })
  for (const [outcome, field] of [['hits', 'hits'], ['misses', 'misses']] as const) {
    new Counter({
      name: `linkwell_cache_${outcome}_total`, help: `Look-ups ${outcome === 'hits' ? 'answered by' : 'not answered by'} an in-process cache (alias: visits; api_key: keys; link_list: GET /api/urls).`,
      labelNames: ['cache'], registers: [registry],
      collect() {
        this.reset()
        for (const [cache, counts] of Object.entries(sources.caches)) this.inc({ cache }, counts[field])
      },
    })
  }
  const stopDeliveries = sources.webhooks ? webhookMetrics(registry, sources.webhooks) : () => {}
  const { poolUse } = sources
  if (poolUse) {
    new Gauge({
      name: 'linkwell_db_pool_connections', help: 'PostgreSQL connections of this instance: open, idle among them, the pool\'s maximum, and queries waiting for one.',
      labelNames: ['state'], registers: [registry],
      collect() {
        const use = poolUse()
        this.set({ state: 'open' }, use.open)
        this.set({ state: 'idle' }, use.idle)
        this.set({ state: 'max' }, use.max)
        this.set({ state: 'waiting' }, use.waiting)
      },
    })
  }
  const requestSeconds = new Histogram({
    name: 'linkwell_http_request_duration_seconds', help: 'Requests the router answered (API, dashboard, visitors\' pages; not the short path\'s redirects), by route and status.',
    labelNames: ['method', 'route', 'status'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [registry],
  })

  return {
    observeRequest(method, route, status, seconds) {
      requestSeconds.observe({ method, route, status: String(status) }, seconds)
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
    close() {
      stopBatches()
      stopDeliveries()
    },
  }
}

/** Observes every routed request, and serves GET /metrics (behind `token` when given). */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | null): void {
  // Said once, at start: anyone who reaches the port can read what the server tells about itself.
  if (token === null) app.log.warn('GET /metrics is open to anyone: set METRICS_TOKEN to keep it behind a token, or METRICS=off')
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, never the address: `/api/url/:id`, not one series per link.
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000)
    done()
  })
  const expected = token === null ? null : Buffer.from(`Bearer ${token}`)
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (expected) {
      const given = Buffer.from(request.headers.authorization ?? '')
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw AuthenticationError.metricsToken()
    }
    const { contentType, body } = await metrics.scrape()
    return reply.type(contentType).send(body)
  })
}
