// Which engine answers statistics. The raw clicks (click-query.ts) answer until the served process
// opens the columnar store (ANALYTICS_STORE, ADR 022) and it has caught up once; from then on the
// store does (columnar-query.ts), kept caught up every second and compacted every minute. On a
// database with a long history the first catch-up runs in the background while the server answers.
// The CLI never opens the store (one process holds the file).
import type { ClickRecorder } from '../../analytics/click-recorder.js'
import { openColumnarStore, type ColumnarStore } from '../../analytics/columnar-store.js'
import type { DB } from '../../db/database.js'
import { createClickQuery, type StatisticsEngine } from './click-query.js'
import { createColumnarEngine } from './columnar-query.js'

export interface StatisticsEnginesOptions {
  db: DB
  /** The recorder whose committed batches the store takes as they are instead of reading them back. */
  clicks: Pick<ClickRecorder, 'afterCommit'>
  /** The columnar store's file (ANALYTICS_STORE); null: statistics stay on the raw clicks. */
  storeFile: string | null
  /** Clicks older than this many days leave the store's copies (CLICK_RETENTION_DAYS). */
  retentionDays: number | null
  /** Told when the store cannot be opened (another process holds the file) or cannot catch up. */
  onError(error: unknown, problem: 'open' | 'catch-up'): void
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
}

const CATCH_UP_MS = 1_000
/** Every this many catch-ups (a minute), the store is compacted. */
const COMPACT_EVERY = 60

export function createStatisticsEngines(options: StatisticsEnginesOptions): StatisticsEngines {
  const { db, storeFile } = options
  const rawClicks = createClickQuery(db)
  let current: StatisticsEngine = rawClicks
  let store: ColumnarStore | null = null
  let timer: NodeJS.Timeout | undefined
  let answering = false
  if (storeFile) options.clicks.afterCommit(({ clicks, ids }) => ids && store?.offer(clicks, ids))

  /** Catches `opened` up every second; the first catch-up that succeeds hands statistics to it. */
  function keepCaughtUp(opened: ColumnarStore): void {
    const columnar = createColumnarEngine(db, opened)
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
