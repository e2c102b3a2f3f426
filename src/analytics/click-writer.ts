// Writes a batch of queued visits: enriches them (country, browser, OS, device), decides which
// are the first of their visitor for the item that day, inserts the raw clicks and adds them to
// the aggregates, all in one transaction: a batch is counted whole or (to be retried) not at all.
import { createBulkInsert } from '../db/bulk-insert.js'
import type { DB } from '../db/database.js'
import type { Database, NewClick } from '../db/schema.js'
import { sql, type Transaction } from 'kysely'
import { addClickRowsToAggregates, applyIncrements, incrementsOf, type CountedClick, type LinkCounters } from './click-aggregates.js'
import { pruneVisitorDays } from './click-retention.js'
import { socialNetworkOf, describeUserAgent, type AgentDescription } from './visitor-reading.js'
import { loadCountryLookup } from './geo.js'
import type { VisitorHasher } from './visitor-hash.js'
import { memoize } from '../core/memoize.js'
import type { ClickItemType } from './click-items.js'

/** A visit as it waits in the queue: what the request told, nothing derived yet. */
export interface PendingClick {
  accountId: number
  itemType: ClickItemType
  itemId: number
  /** `YYYY-MM-DD HH:MM:SS`, UTC */
  createdAt: string
  /** Held in memory until the batch is written; never stored. */
  ip: string
  userAgent: string
  referrerHost: string | null
  language: string | null
  /** The split-test variant the visitor was sent to, or null. */
  variant?: number | null
  /** The click id appended to the destination (a link that tracks conversions), or null. */
  clickId?: string | null
}

/** What a batch listener does once the batch's transaction has ended, either way. Must not throw. */
export interface ClickBatchEnd {
  committed(): void
  rolledBack(): void
}

/**
 * The hook of the moment a batch's clicks are written, inside its transaction (the webhooks'
 * outbox): a failure rolls the batch back. It may answer what to do when the transaction has ended.
 */
export type InTransactionHook = (trx: DB, clicks: readonly ClickInsertRow[]) => Promise<ClickBatchEnd | undefined>

/** A committed batch: its clicks as written, the ids they took and the counters of the links it counted. */
export interface WrittenBatch {
  clicks: readonly ClickInsertRow[]
  /**
   * The ids `first`..`last` the clicks took, when asked for (`withIds`) and they are one run with no
   * other row's id among them; else null. The columnar store takes them from here instead of
   * reading them back.
   */
  ids: { first: number; last: number } | null
  /** The links' click counters after the batch (click caps). */
  linkCounters: LinkCounters
}

export interface ClickWriterOptions {
  /** The database the batches are written to, each in a transaction. */
  db: DB
  visitors: VisitorHasher
  inTransaction?: InTransactionHook
  /** Answer the ids the clicks took (an insert that returns them: only when the columnar store is on). */
  withIds?: boolean
}

/** Every column of a raw click the writer sets, in the order of the reused insert. */
const CLICK_COLUMNS = [
  'account_id', 'item_type', 'item_id', 'created_at', 'referrer_host', 'user_agent', 'language',
  'visitor_hash', 'country', 'browser', 'os', 'device', 'is_unique', 'click_id',
] as const
const CLICK_POSTGRES_TYPES = {
  account_id: 'integer', item_type: 'text', item_id: 'integer', created_at: 'text', referrer_host: 'text', user_agent: 'text',
  language: 'text', visitor_hash: 'text', country: 'text', browser: 'text', os: 'text', device: 'text', is_unique: 'integer', click_id: 'text',
} as const

export const insertClicks = createBulkInsert('clicks', CLICK_COLUMNS, { postgresTypes: CLICK_POSTGRES_TYPES })
/** The same insert answering the ids given (`withIds`). */
const insertClicksReturningIds = createBulkInsert('clicks', CLICK_COLUMNS, { postgresTypes: CLICK_POSTGRES_TYPES, returning: ['id'] })

/** The ids `insert` answered for `count` rows as one run `first`..`last`; null when other rows' ids are among them, or some were not answered. */
function idRunOf(answered: ReadonlyArray<{ id: unknown }>, count: number): { first: number; last: number } | null {
  if (answered.length !== count) return null
  let first = Infinity
  let last = -Infinity
  for (const row of answered) {
    const id = Number(row.id)
    if (id < first) first = id
    if (id > last) last = id
  }
  return answered.length > 0 && last - first + 1 === answered.length ? { first, last } : null
}

const VISITOR_COLUMNS = ['day', 'item_type', 'item_id', 'visitor_hash'] as const

/** Visitors of a day and item not seen before are inserted and answered; known ones are skipped. */
const insertNewVisitors = createBulkInsert('click_visitors', VISITOR_COLUMNS, {
  postgresTypes: { day: 'text', item_type: 'text', item_id: 'integer', visitor_hash: 'text' },
  onConflict: { keys: VISITOR_COLUMNS },
  returning: VISITOR_COLUMNS,
})

/** A raw click row as the writer inserts it (every column given). */
export type ClickInsertRow = Required<Omit<NewClick, 'id'>>

/** What is known of a click once enriched; '' or null where unknown. */
export interface EnrichedClick {
  accountId: number
  itemType: ClickItemType
  itemId: number
  createdAt: string
  referrerHost: string | null
  language: string | null
  visitorHash: string
  country: string | null
  agent: AgentDescription
  isUnique: boolean
  /** The split-test variant, or null. */
  variant?: number | null
  /** The click id given to the visitor (conversion tracking), or null. */
  clickId?: string | null
}

/** The raw row of an enriched click and the same click as the aggregates count it. */
export function describedClick(click: EnrichedClick): { row: ClickInsertRow; count: CountedClick } {
  return {
    row: {
      account_id: click.accountId,
      item_type: click.itemType,
      item_id: click.itemId,
      created_at: click.createdAt,
      referrer_host: click.referrerHost,
      // The browser, OS and device are kept; the user agent itself is not (with the visitor
      // hash it would single people out, and it is the largest part of a row).
      user_agent: null,
      language: click.language,
      visitor_hash: click.visitorHash,
      country: click.country,
      browser: click.agent.browser || null,
      os: click.agent.os || null,
      device: click.agent.device || null,
      is_unique: click.isUnique ? 1 : 0,
      click_id: click.clickId ?? null,
    },
    count: {
      itemType: click.itemType,
      itemId: click.itemId,
      day: click.createdAt.slice(0, 10),
      isUnique: click.isUnique,
      country: click.country ?? '',
      referrer: click.referrerHost ?? '',
      browser: click.agent.browser,
      os: click.agent.os,
      device: click.agent.device,
      language: click.language ?? '',
      social: socialNetworkOf(click.referrerHost) ?? '',
      variant: click.variant === null || click.variant === undefined ? '' : String(click.variant),
    },
  }
}

/**
 * Writes clicks already enriched (raw rows and aggregates) on `trx`, the caller's transaction:
 * the one path of clicks that come with their uniqueness decided (`linkwell dev seed-clicks`,
 * imports), so that statistics read from the aggregates equal the raw rows.
 */
export async function writeEnrichedClicks(trx: Transaction<Database>, clicks: readonly EnrichedClick[]): Promise<LinkCounters> {
  const rows: ClickInsertRow[] = []
  const counted: CountedClick[] = []
  for (const click of clicks) {
    const { row, count } = describedClick(click)
    rows.push(row)
    counted.push(count)
  }
  return writeDescribedClicks(trx, rows, counted)
}

/**
 * Writes a page of imported link clicks on `trx` (an import's page transaction), each with the visitor
 * hash `marker` (the import's own: no visitor hash can be made for them): the raw rows in bulk, then
 * the aggregates counted by the database from the rows just written (`addClickRowsToAggregates`),
 * so that no counter passes through JavaScript. Split-test variants are not carried (imports have none).
 */
export async function writeImportedClicks(trx: Transaction<Database>, clicks: readonly EnrichedClick[], marker: string): Promise<void> {
  if (clicks.length === 0) return
  const rows: ClickInsertRow[] = []
  for (const click of clicks) {
    if (click.itemType !== 'link') throw new Error('writeImportedClicks writes link clicks only')
    rows.push({ ...describedClick(click).row, visitor_hash: marker })
  }
  // Every id this page gets is above the highest any writer had committed before it (ids only grow);
  // among the rows above it, the marker tells this writer's own.
  const before = await sql<{ id: number | string | null }>`select max(id) as id from clicks`.execute(trx)
  await insertClicks(trx, rows)
  const first = Number(before.rows[0]?.id ?? 0) + 1
  const after = await sql<{ id: number | string | null }>`select max(id) as id from clicks where id >= ${first} and visitor_hash = ${marker}`.execute(trx)
  await addClickRowsToAggregates(trx, { first, last: Number(after.rows[0]?.id ?? 0) }, marker)
}

/** Raw rows and the same clicks as the aggregates count them, written in `trx` (the seeder's chunks, imports). */
export async function writeDescribedClicks(trx: Transaction<Database>, rows: ClickInsertRow[], counted: CountedClick[]): Promise<LinkCounters> {
  await insertClicks(trx, rows)
  return applyIncrements(trx, incrementsOf(counted))
}

/**
 * Builds the function that writes one batch and answers the links' counters as it left them; it
 * throws when the database refuses (nothing written).
 */
export function createClickWriter(options: ClickWriterOptions): (batch: PendingClick[]) => Promise<WrittenBatch> {
  const { db } = options
  const describe = memoize<AgentDescription>(describeUserAgent, 2_000)
  let visitorsPrunedFor = ''
  // Visitors (per day and item) this process has committed: they can never be unique again, so
  // their clicks need no look-up in click_visitors. Only ever a subset of the table's truth, so
  // forgetting (the bound) costs a look-up, never a wrong count.
  let knownVisitors = new Set<string>()
  const KNOWN_VISITORS_MAX = 100_000

  /** Visitor rows of days no click can still belong to are dropped, once per day per process. */
  async function pruneVisitors(today: string): Promise<void> {
    if (visitorsPrunedFor === today) return
    await pruneVisitorDays(db, today)
    visitorsPrunedFor = today
  }

  return async function writeClicks(batch) {
    // Opened on the first batch (once per process), not at start-up.
    const countryOf = await loadCountryLookup()
    await options.visitors.prepare(new Set(batch.map((click) => click.createdAt.slice(0, 10))))
    const rows: ClickInsertRow[] = []
    const counted: CountedClick[] = []
    const visitorKeys: string[] = []
    // Clicks of a batch mostly share their second, item and day: what depends on those alone is
    // derived when they change, not for every click.
    let createdAt = ''
    let day = ''
    let itemType = ''
    let itemId = -1
    let visitorPrefix = ''
    for (const click of batch) {
      if (click.createdAt !== createdAt) {
        createdAt = click.createdAt
        day = createdAt.slice(0, 10)
        itemId = -1
      }
      if (click.itemId !== itemId || click.itemType !== itemType) {
        itemType = click.itemType
        itemId = click.itemId
        visitorPrefix = `${day}\n${itemType}\n${itemId}\n`
      }
      // Not remembered: a digest costs half a microsecond, and visitors outnumber any cache worth its memory.
      const visitorHash = options.visitors.hash(click.ip, click.userAgent, day)
      visitorKeys.push(visitorPrefix + visitorHash)
      // Fields listed, not spread: this loop runs for every click, and a spread measured 1.5× slower.
      const { row, count } = describedClick({
        accountId: click.accountId,
        itemType: click.itemType,
        itemId: click.itemId,
        createdAt,
        referrerHost: click.referrerHost,
        language: click.language,
        visitorHash,
        country: countryOf(click.ip),
        agent: describe(click.userAgent),
        isUnique: false,
        variant: click.variant,
        clickId: click.clickId,
      })
      rows.push(row)
      counted.push(count)
    }

    let ids: { first: number; last: number } | null = null
    let batchEnd: ClickBatchEnd | undefined
    const linkCounters = await db.transaction().execute(async (trx) => {
      // The visitors this batch is the first to see (per item and day); sorted: one lock order.
      const candidates = [...new Set(visitorKeys)].filter((key) => !knownVisitors.has(key)).sort().map((key) => {
        const [day, itemType, itemId, visitorHash] = key.split('\n') as [string, string, string, string]
        return { day, item_type: itemType, item_id: Number(itemId), visitor_hash: visitorHash }
      })
      const firstSeen = new Set<string>()
      for (const row of await insertNewVisitors(trx, candidates)) firstSeen.add(`${row.day}\n${row.item_type}\n${row.item_id}\n${row.visitor_hash}`)
      // The earliest click of a first-seen visitor is the unique one.
      visitorKeys.forEach((key, index) => {
        if (!firstSeen.delete(key)) return
        rows[index]!.is_unique = 1
        counted[index]!.isUnique = true
      })
      if (options.withIds) ids = idRunOf(await insertClicksReturningIds(trx, rows), rows.length)
      else await insertClicks(trx, rows)
      const counters = await applyIncrements(trx, incrementsOf(counted))
      // The events of exactly these clicks, committed with them or not at all.
      if (options.inTransaction) batchEnd = await options.inTransaction(trx, rows)
      return counters
    }).catch((error: unknown) => {
      batchEnd?.rolledBack()
      throw error
    })
    batchEnd?.committed()
    if (knownVisitors.size + visitorKeys.length > KNOWN_VISITORS_MAX) knownVisitors = new Set()
    for (const key of visitorKeys) knownVisitors.add(key)
    // The batch is committed: a failed clean-up must not make the caller write it again.
    const today = batch[batch.length - 1]?.createdAt.slice(0, 10)
    if (today) await pruneVisitors(today).catch(() => undefined)
    return { clicks: rows, ids, linkCounters }
  }
}
