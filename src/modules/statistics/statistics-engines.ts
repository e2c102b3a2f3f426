// Which engine answers statistics. The raw clicks (click-query.ts) answer until the served process
// opens the columnar store (ANALYTICS_STORE, ADR 022) and it has caught up once; from then on the
// store does (columnar-query.ts), kept caught up every second and compacted every minute. On a
// database with a long history the first catch-up runs in the background while the server answers.
// The CLI never opens the store (one process holds the file).
// With ClickHouse (ANALYTICS_STORE=clickhouse://…, ADR 035) every instance answers from it at once
// (clickhouse-query.ts), and the served ones take turns feeding it (analytics/clickhouse-feeder.ts).
import type { ClickRecorder } from '../../analytics/click-recorder.js'
import { openColumnarStore, type ColumnarStore } from '../../analytics/columnar-store.js'
import { createClickhouseFeeder, type ClickhouseFeeder } from '../../analytics/clickhouse-feeder.js'
import { openClickhouseStore, type ClickhouseStore } from '../../analytics/clickhouse-store.js'
import type { ClickhouseTarget } from '../../config.js'
import type { DB } from '../../db/database.js'
import { createClickhouseEngine } from './clickhouse-query.js'
import { createClickQuery, type StatisticsEngine } from './click-query.js'
import { createColumnarEngine } from './columnar-query.js'
import type { RawClickRepository } from './raw-click.repository.js'

export interface StatisticsEnginesOptions {
  /** The database the columnar store copies the raw clicks from. */
  db: DB
  /** The raw clicks' queries (raw-click.repository.ts), which both engines ask. */
  rawClicks: RawClickRepository
  /** The recorder whose committed batches the store takes as they are instead of reading them back. */
  clicks: Pick<ClickRecorder, 'afterCommit'>
  /** The columnar store's file (ANALYTICS_STORE); null: statistics stay on the raw clicks. */
  storeFile: string | null
  /** Clicks older than this many days leave the store's copies (CLICK_RETENTION_DAYS). */
  retentionDays: number | null
  /** ClickHouse (ANALYTICS_STORE=clickhouse://…): it answers instead of the raw clicks and the DuckDB store. */
  clickhouse?: ClickhouseTarget | null
  /** Tunes the ClickHouse feeder and timeouts (tests: short leases and polls). */
  clickhouseOptions?: { pollMs?: number; leaseMs?: number; pageSize?: number; queryTimeoutMs?: number; afterInsert?: () => Promise<void> }
  /** Told when the store cannot be opened (another process holds the file) or cannot catch up (or ClickHouse's feeder failed a round). */
  onError(error: unknown, problem: 'open' | 'catch-up' | 'feed'): void
}

export interface StatisticsEngines {
  /** The engine statistics are asked (it forwards to whichever answers now). */
  engine: StatisticsEngine
  /** Opens the store and keeps it caught up (the served app, on ready); a no-op without ANALYTICS_STORE. */
  start(): Promise<void>
  /** The open store, if any (tests). */
  readonly store: ColumnarStore | null
  /** True once statistics are read from the store (it has caught up once). */
  readonly answering: boolean
  /** Stops the catch-up, closes the store and goes back to the raw clicks. */
  close(): Promise<void>
  /** Which engine answers now. */
  readonly engineName: 'raw' | 'duckdb' | 'clickhouse'
  /** ClickHouse's store and feeder when configured (tests, the admin's system page). */
  readonly clickhouse: { store: ClickhouseStore; feeder: ClickhouseFeeder } | null
  /** Which engine answers and how far it is (the admin's system page). */
  status(): Promise<StatisticsStatus>
}

/** What the admin's system page says of statistics. */
export interface StatisticsStatus {
  engine: 'raw' | 'duckdb' | 'clickhouse'
  /** DuckDB: the file, and the highest click id it holds; absent otherwise. */
  duckdb?: { file: string; lastId: number }
  /** ClickHouse: the feeder's place (null while ClickHouse has not been reached). */
  clickhouse?: { database: string; feed: { lastId: number; gaps: number; fedAt: string | null; fedClicks: number; leased: boolean } | null }
}

const CATCH_UP_MS = 1_000
/** How often a served process asks again for a ClickHouse it could not reach at start. */
const RETRY_OPEN_MS = 10_000
/** Every this many catch-ups (a minute), the store is compacted. */
const COMPACT_EVERY = 60

export function createStatisticsEngines(options: StatisticsEnginesOptions): StatisticsEngines {
  if (options.clickhouse) return createClickhouseEngines(options, options.clickhouse)
  const { db, storeFile } = options
  const rawClicks = createClickQuery(options.rawClicks)
  let current: StatisticsEngine = rawClicks
  let store: ColumnarStore | null = null
  let timer: NodeJS.Timeout | undefined
  let answering = false
  if (storeFile) options.clicks.afterCommit(({ clicks, ids }) => ids && store?.offer(clicks, ids))

  /** Catches `opened` up every second; the first catch-up that succeeds hands statistics to it. */
  function keepCaughtUp(opened: ColumnarStore): void {
    const columnar = createColumnarEngine(options.rawClicks, opened)
    let ticks = 0
    let busy = false
    const tick = () => {
      if (busy || store !== opened) return
      busy = true
      ticks += 1
      opened.catchUp()
        .then(async () => {
          if (ticks === 1 || ticks % COMPACT_EVERY === 0) await opened.compact()
          current = columnar
          answering = true
        })
        .catch((error: unknown) => options.onError(error, 'catch-up'))
        .finally(() => {
          busy = false
        })
    }
    tick()
    timer = setInterval(tick, CATCH_UP_MS)
    timer.unref()
  }

  return {
    engine: {
      figures: (...question) => current.figures(...question),
      live: (...question) => current.live(...question),
    },
    async start() {
      if (!storeFile || store) return
      try {
        store = await openColumnarStore(db, { file: storeFile, retentionDays: options.retentionDays })
      } catch (error) {
        options.onError(error, 'open')
        return
      }
      keepCaughtUp(store)
    },
    get store() {
      return store
    },
    get answering() {
      return answering && store !== null
    },
    get engineName() {
      return answering && store !== null ? 'duckdb' as const : 'raw' as const
    },
    clickhouse: null,
    async status() {
      if (!(answering && store && storeFile)) return { engine: 'raw' }
      return { engine: 'duckdb', duckdb: { file: storeFile, lastId: store.position().lastId } }
    },
    async close() {
      clearInterval(timer)
      const closing = store
      store = null
      answering = false
      current = rawClicks
      await closing?.close()
    },
  }
}

/**
 * ClickHouse answers every question from the start (a 503 while it cannot); the served process
 * (start) feeds it in turn with the other instances. Its client and store are made on first use.
 */
function createClickhouseEngines(options: StatisticsEnginesOptions, target: ClickhouseTarget): StatisticsEngines {
  const tuning = options.clickhouseOptions ?? {}
  let opened: { store: ClickhouseStore; feeder: ClickhouseFeeder } | null = null
  let opening: Promise<{ store: ClickhouseStore; feeder: ClickhouseFeeder }> | null = null
  let feeding = false
  let answering: StatisticsEngine | null = null
  let retry: NodeJS.Timeout | undefined
  const open = () => {
    opening ??= openClickhouseStore({ ...target, queryTimeoutMs: tuning.queryTimeoutMs, retentionDays: options.retentionDays }).then((store) => {
      const feeder = createClickhouseFeeder({
        db: options.db, store, retentionDays: options.retentionDays, pollMs: tuning.pollMs, leaseMs: tuning.leaseMs, pageSize: tuning.pageSize,
        afterInsert: tuning.afterInsert, onError: (error) => options.onError(error, 'feed'),
      })
      // Only a served process (started) feeds before it answers; the CLI reads what is there.
      answering = createClickhouseEngine(options.rawClicks, store, { round: () => (feeding ? feeder.beforeAnswer() : Promise.resolve(null)) })
      opened = { store, feeder }
      return opened
    })
    // A server that cannot be reached now is asked again by the next question, not remembered as down.
    opening.catch(() => {
      if (opened === null) opening = null
    })
    return opening
  }
  const engine: StatisticsEngine = {
    async figures(...question) {
      await open()
      return answering!.figures(...question)
    },
    async live(...question) {
      await open()
      return answering!.live(...question)
    },
  }
  return {
    engine,
    /**
     * Starts feeding. Opening connects to nothing (the tables are made by the first query), so a
     * ClickHouse down at start only fails the feeder's rounds until it is back; what fails opening
     * itself (the client not loading) is tried again every ten seconds, the server starting meanwhile.
     */
    async start() {
      if (feeding || retry) return
      try {
        const { feeder } = await open()
        feeding = true
        feeder.start()
      } catch (error) {
        options.onError(error, 'feed')
        retry = setTimeout(() => {
          retry = undefined
          void this.start()
        }, RETRY_OPEN_MS)
        retry.unref()
      }
    },
    store: null,
    answering: true,
    engineName: 'clickhouse',
    async status() {
      const { feeder } = await open()
      const feed = await feeder.state()
      return {
        engine: 'clickhouse',
        clickhouse: { database: target.database, feed: { lastId: feed.lastId, gaps: feed.gaps, fedAt: feed.fedAt, fedClicks: feed.fedClicks, leased: feed.holder !== null } },
      }
    },
    get clickhouse() {
      return opened
    },
    async close() {
      clearTimeout(retry)
      retry = undefined
      feeding = false
      const closing = opened
      opened = null
      opening = null
      if (!closing) return
      await closing.feeder.stop()
      await closing.store.close()
    },
  }
}
