// The ClickHouse feeder (issue 40, ADR 035): copies the main database's committed clicks into
// ClickHouse, exactly once, whichever instance recorded them. One instance at a time holds the
// lease of the `clickhouse_feed` row (migration 037; taken when free or expired, renewed every
// round, `LEASE_MS`): another takes over within a minute of it dying. Each round it
//   1. applies deletions the journal tells (`link.deleted`; `workspace.deleted` and `user.deleted`,
//      an account deleted by its owner or the administrator): tombstones and
//      mutations in ClickHouse;
//   2. reads the clicks after its cursor in id order (a page), and the ids it skipped over before
//      (on PostgreSQL an id may commit after a higher one: a skipped id is looked for again for
//      `GAP_MS`, as the DuckDB store does, ADR 022);
//   3. leaves out the ids ClickHouse holds already (its ledger `click_ids`: a batch written before
//      a crash, whose cursor was not moved) and inserts the rest in one insert;
//   4. moves the cursor, only while it still holds the lease (the update is fenced by holder).
// A feeder killed between 3 and 4 leaves a batch written and the cursor behind: the next round
// (its own or another instance's) finds those ids in the ledger and writes nothing twice. Killed
// during 3, the insert is not written (a block is inserted whole or not at all) and is sent again.
// Redirects and the click writer never wait on any of this: ClickHouse being away only stops
// the rounds, which catch up when it answers again.
import { randomUUID } from 'node:crypto'
import { DAY_MS, nowTimestamp, timeOfStored } from '../core/time.js'
import { backgroundLoop } from '../core/background-loop.js'
import { pauseFor } from '../core/pause.js'
import type { DB } from '../db/database.js'
import { linksDeletedBefore, readFeedClicksAfter, type FeedClick } from './click-pages.js'
import type { ClickhouseClick, ClickhouseClickText, ClickhouseStore } from './clickhouse-store.js'

/** Clicks copied per round (one insert). */
const PAGE = 50_000
/** How long a lease lasts unless renewed; an instance that dies is replaced after it (and a poll). */
const LEASE_MS = 30_000
/** How often an instance that does not hold the lease asks for it. */
const STANDBY_POLL_MS = 10_000
/** Deletions are read again this far back in the journal's ids (rows committed out of order). */
const AUDIT_OVERLAP = 1_000
/** Clicks past CLICK_RETENTION_DAYS are deleted from ClickHouse at most this often. */
const RETENTION_EVERY_MS = 3_600_000

const ITEM_TYPES = ['link', 'qr', 'campaign', 'bio']
/** The journal's actions that delete clicks' items. */
const DELETIONS = ['link.deleted', 'workspace.deleted', 'user.deleted']
const CLICK_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/

export interface ClickhouseFeederOptions {
  db: DB
  store: ClickhouseStore
  /** Clicks older than this many days leave ClickHouse too. */
  retentionDays: number | null
  now?: () => Date
  /** Pause between rounds while holding the lease and caught up. */
  pollMs?: number
  leaseMs?: number
  /** How often an instance without the lease asks for it (tests make it short). */
  standbyPollMs?: number
  /** Clicks per round (tests make it small). */
  pageSize?: number
  /** Told of a failed round (ClickHouse away); the feeder goes on. */
  onError?: (error: unknown) => void
  /** Called between a batch's insert and its cursor's move (the crash test stops there). */
  afterInsert?: () => Promise<void>
  /** Told of each batch's phases in ms (the bench's profile). */
  onBatch?: (batch: BatchTiming) => void
}

/** Where a batch's time went (ms): the main database's read, the ledger's check, the insert, the cursor's move. */
export interface BatchTiming {
  clicks: number
  read: number
  ledger: number
  insert: number
  keep: number
}

export interface FeedState {
  holder: string | null
  leaseUntil: string | null
  lastId: number
  gaps: number
  fedAt: string | null
  fedClicks: number
}

export function createClickhouseFeeder(options: ClickhouseFeederOptions) {
  const { db, store } = options
  const now = options.now ?? (() => new Date())
  const leaseMs = options.leaseMs ?? LEASE_MS
  const pageSize = options.pageSize ?? PAGE
  const me = randomUUID()
  let holding = false
  /** When this instance last found the lease another's (ms of `now`); -Infinity once it holds it. */
  let refusedAt = -Infinity
  /** Links whose clicks are not copied (tombstoned); loaded at the first round. */
  let deleted: Set<number> | null = null

  const stamp = (time: number) => nowTimestamp(new Date(time)) + `.${String(time % 1000).padStart(3, '0')}`

  /** Takes the lease when it is free, expired or ours; answers whether this instance holds it. */
  async function lease(): Promise<boolean> {
    const time = now().getTime()
    const result = await db.updateTable('clickhouse_feed')
      .set({ holder: me, lease_until: stamp(time + leaseMs) })
      .where('id', '=', 1)
      .where((eb) => eb.or([eb('holder', 'is', null), eb('holder', '=', me), eb('lease_until', '<', stamp(time))]))
      .executeTakeFirst()
    holding = Number(result.numUpdatedRows) === 1
    refusedAt = holding ? -Infinity : time
    return holding
  }

  async function state() {
    return db.selectFrom('clickhouse_feed').selectAll().where('id', '=', 1).executeTakeFirstOrThrow()
  }

  /** Moves the place kept, only while the lease is still this instance's; answers whether it did. */
  async function keep(changes: { last_id?: number; gaps?: string; audit_id?: number; retention_at?: string; fed_at?: string; fed_clicks?: number }): Promise<boolean> {
    const result = await db.updateTable('clickhouse_feed').set(changes).where('id', '=', 1).where('holder', '=', me).executeTakeFirst()
    holding = Number(result.numUpdatedRows) === 1
    return holding
  }

  async function applyDeletions(auditId: number): Promise<void> {
    const from = Math.max(0, auditId - AUDIT_OVERLAP)
    // One read (it runs before every answer of the lease's holder): the deletions since, and the journal's last row.
    const read = await db.selectFrom('audit_log').select(['id', 'action', 'resource_id'])
      .where((eb) => eb.or([
        eb.and([eb('id', '>', from), eb('action', 'in', DELETIONS)]),
        eb('id', '=', eb.selectFrom('audit_log').select((inner) => inner.fn.max('id').as('id'))),
      ]))
      .orderBy('id').execute()
    const highest = read.length > 0 ? Number(read.at(-1)!.id) : auditId
    const rows = read.filter((row) => Number(row.id) > from && DELETIONS.includes(row.action))
    deleted ??= await store.deletedLinks()
    const links = [...new Set(rows.filter((row) => row.action === 'link.deleted' && row.resource_id !== null && !deleted!.has(row.resource_id)).map((row) => row.resource_id!))]
    // A workspace's tombstone is written again within the overlap: a set, and the mutation finds nothing more.
    const accounts = [...new Set(rows.filter((row) => row.action !== 'link.deleted' && row.resource_id !== null && Number(row.id) > auditId).map((row) => row.resource_id!))]
    if (links.length > 0 || accounts.length > 0) await store.deleteItems(links, accounts)
    for (const id of links) deleted.add(id)
    if (highest > auditId) await keep({ audit_id: highest })
  }

  /** A stored click time as `YYYY-MM-DD HH:MM:SS` (ClickHouse's DateTime text). */
  const clickTime = (stored: string) => (CLICK_TIME.test(stored) ? stored : nowTimestamp(new Date(timeOfStored(stored))))
  const toClick = (row: FeedClick): ClickhouseClick | ClickhouseClickText => 'tail' in row ? {
    id: Number(row.id), account_id: row.account_id, item_type: ITEM_TYPES.indexOf(row.item_type), item_id: row.item_id, clicked_at: clickTime(row.created_at), tail: row.tail,
  } : {
    id: Number(row.id), account_id: row.account_id, item_type: ITEM_TYPES.indexOf(row.item_type), item_id: row.item_id, clicked_at: clickTime(row.created_at),
    country: row.country ?? '', referrer: row.referrer_host ?? '', browser: row.browser ?? '', os: row.os ?? '', device: row.device ?? '', language: row.language ?? '',
    is_unique: Number(row.is_unique) === 1 ? 1 : 0,
  }

  /** A batch read and checked, not yet written: where the cursor and the gaps go once it is. */
  interface Batch {
    fresh: Array<ClickhouseClick | ClickhouseClickText>
    last: number
    gaps: Map<number, number>
    /** A whole page was read: there may be more after `last`. */
    full: boolean
    /** Nothing new: no click after the cursor, no gap found or forgotten. */
    idle: boolean
    read: number
    ledger: number
  }

  /**
   * Reads the clicks after `lastId` (a page) and those of the `gaps` still looked for, and leaves out
   * the tombstoned links' and those ClickHouse holds already (the ledger). Writes nothing: it runs
   * while the batch before is being inserted, whose ids are all below `lastId` or were found gaps.
   */
  async function readBatch(lastId: number, known: Map<number, number>): Promise<Batch> {
    let mark = performance.now()
    const lap = () => {
      const at = performance.now()
      const spent = at - mark
      mark = at
      return spent
    }
    const { found, page, last, gaps } = await readFeedClicksAfter(db, lastId, known, now().getTime(), pageSize)
    const full = page.length === pageSize
    if (found.length === 0 && page.length === 0 && gaps.size === known.size) return { fresh: [], last, gaps, full, idle: true, read: lap(), ledger: 0 }
    deleted ??= await store.deletedLinks()
    const candidates = [...found, ...page].filter((row) => !(row.item_type === 'link' && deleted!.has(row.item_id))).map(toClick)
    const read = lap()
    // What an earlier round (this instance's or a dead one's) wrote without moving the cursor.
    const held = await store.heldOf(candidates.map((click) => click.id))
    const fresh = held.size > 0 ? candidates.filter((click) => !held.has(click.id)) : candidates
    return { fresh, last, gaps, full, idle: false, read, ledger: lap() }
  }

  /**
   * Copies batches until caught up: answers the clicks written, or null when the lease was lost.
   * The next page is read (and checked against the ledger) while a batch is being inserted; the
   * cursor moves past a batch only once its insert is acknowledged, by an update fenced by the
   * lease, and the batch read ahead is written only after that: a crash anywhere leaves the cursor
   * at or before what ClickHouse holds, and the ledger keeps a batch from being written twice.
   */
  async function copyBatches(place: Awaited<ReturnType<typeof state>>): Promise<number | null> {
    let fedClicks = Number(place.fed_clicks)
    let copied = 0
    let reading: Promise<Batch> | null = readBatch(Number(place.last_id), new Map(JSON.parse(place.gaps) as Array<[number, number]>))
    while (reading) {
      const batch: Batch = await reading
      reading = null
      if (batch.idle) break
      // The lease is renewed just before the insert: no other instance copies while it runs.
      if (!(await lease())) return null
      let mark = performance.now()
      const inserting = store.insert(batch.fresh)
      if (batch.full) {
        reading = readBatch(batch.last, batch.gaps)
        // Left unread when the insert fails: its error is the insert's to tell.
        reading.catch(() => undefined)
      }
      await inserting
      const insert = performance.now() - mark
      mark = performance.now()
      await options.afterInsert?.()
      fedClicks += batch.fresh.length
      if (!(await keep({ last_id: batch.last, gaps: JSON.stringify([...batch.gaps]), fed_at: nowTimestamp(now()), fed_clicks: fedClicks }))) return null
      copied += batch.fresh.length
      options.onBatch?.({ clicks: batch.fresh.length, read: batch.read, ledger: batch.ledger, insert, keep: performance.now() - mark })
    }
    return copied
  }

  async function applyRetention(retentionAt: string | null): Promise<void> {
    const days = options.retentionDays
    if (!days) return
    const time = now().getTime()
    if (retentionAt && time - timeOfStored(retentionAt) < RETENTION_EVERY_MS) return
    await store.deleteBefore(time - days * DAY_MS)
    await keep({ retention_at: nowTimestamp(now()) })
  }

  /** Before the first copy: links deleted before ClickHouse was configured are tombstoned (click-pages.ts). */
  async function markLinksDeletedBefore(): Promise<void> {
    deleted ??= await store.deletedLinks()
    const gone = await linksDeletedBefore(db, deleted)
    if (gone.length > 0) await store.deleteItems(gone, [])
    for (const id of gone) deleted.add(id)
  }

  /** One round when the lease is (or can be) this instance's: answers the clicks copied, or null without the lease. */
  async function roundOnce(): Promise<number | null> {
    if (!(await lease())) return null
    // A store that holds clicks from before this version's layout is rebuilt first, while nothing is inserted.
    if (!(await store.layoutReady())) await store.buildLayout(lease)
    const place = await state()
    if (Number(place.last_id) === 0) await markLinksDeletedBefore()
    await applyDeletions(Number(place.audit_id))
    // The place read above: only this instance moves it while it holds the lease (fenced updates), and deletions move only audit_id.
    const copied = await copyBatches(place)
    if (copied === null) return null
    await applyRetention(place.retention_at)
    return copied
  }

  // One round at a time in this process: the loop's and those asked for before an answer.
  let queue: Promise<unknown> = Promise.resolve()
  function serially<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }

  async function loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let copied: number | null = null
      try {
        copied = await serially(roundOnce)
      } catch (error) {
        if (!signal.aborted) options.onError?.(error)
      }
      if (signal.aborted) break
      await pauseFor(copied === null ? (holding ? options.pollMs ?? 1_000 : options.standbyPollMs ?? STANDBY_POLL_MS) : options.pollMs ?? 1_000, signal)
    }
  }
  const background = backgroundLoop(loop)

  return {
    /** Starts the rounds (the served app, on ready). */
    start: () => background.start(),
    /** Stops the rounds after the one running, and lets the lease go so another instance takes over at once. */
    async stop(): Promise<void> {
      if (!(await background.stop())) return
      await queue
      if (holding) await db.updateTable('clickhouse_feed').set({ holder: null, lease_until: null }).where('id', '=', 1).where('holder', '=', me).execute().catch(() => undefined)
      holding = false
    },
    /** A round now when this instance holds the lease or can take it; null without it. */
    round: () => serially(roundOnce),
    /**
     * A round before an answer (read your own clicks) when this instance holds the lease or may
     * take it; one that found the lease another's within the standby poll answers null without
     * asking again (its loop asks every `standbyPollMs`; a round would find the lease taken).
     */
    beforeAnswer(): Promise<number | null> {
      if (now().getTime() - refusedAt < (options.standbyPollMs ?? STANDBY_POLL_MS)) return Promise.resolve(null)
      return serially(roundOnce)
    },
    /** Whether this instance held the lease at its last look. */
    get holding() {
      return holding
    },
    /** The place kept (the admin's system page, tests). */
    async state(): Promise<FeedState> {
      const row = await state()
      return { holder: row.holder, leaseUntil: row.lease_until, lastId: Number(row.last_id), gaps: (JSON.parse(row.gaps) as unknown[]).length, fedAt: row.fed_at, fedClicks: Number(row.fed_clicks) }
    },
    id: me,
  }
}

export type ClickhouseFeeder = ReturnType<typeof createClickhouseFeeder>
