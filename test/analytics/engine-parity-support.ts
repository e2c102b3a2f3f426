// What the engine parity tests share (issue 40): seeded clicks spread over targets, the windows
// asked, and a comparison that says where two engines' figures differ: the DuckDB store's parity
// test (columnar-store.test.ts) and ClickHouse's (clickhouse-engine.test.ts) both use them; the
// routes' parity tests (clickhouse-statistics.routes.test.ts, columnar-served.test.ts) add leads and
// sales (seedConversions), which every engine reads from the main database.
import { createVisitSource } from '../../src/analytics/click-distribution.js'
import type { ClickItemType } from '../../src/analytics/click-items.js'
import type { EnrichedClick } from '../../src/analytics/click-writer.js'
import { DAY_MS, MINUTE_MS, nowTimestamp } from '../../src/core/time.js'
import { expect } from 'vitest'
import type { ClickScope, LinkChoice, StatisticsEngine, UtcWindow, WindowFigures } from '../../src/modules/statistics/click-query.js'
import type { ClickFilters } from '../../src/modules/statistics/click-query-params.js'
import type { DB } from '../../src/db/database.js'

export const HOUR_MS = 3_600_000

/** Where clicks go, and how many of them (relative weight). */
export interface Target {
  accountId: number
  itemType: ClickItemType
  itemId: number
  weight: number
}

export interface NamedWindow {
  label: string
  window: UtcWindow
  quarters: boolean
  core: boolean
}

/**
 * `count` clicks spread over [from, to) on the targets, deterministic for `seed`: Zipf-spread
 * dimensions with null and '' unknowns among them; a quarter at :50 past the hour; 40 % unique.
 */
export function spreadClicks(seed: number, count: number, from: number, to: number, targets: readonly Target[]): EnrichedClick[] {
  const source = createVisitSource(seed)
  const random = source.random
  const totalWeight = targets.reduce((sum, target) => sum + target.weight, 0)
  const clicks: EnrichedClick[] = []
  for (let index = 0; index < count; index += 1) {
    let roll = random() * totalWeight
    const target = targets.find((candidate) => (roll -= candidate.weight) < 0) ?? targets[targets.length - 1]!
    let time = from + Math.floor(random() * (to - from))
    if (random() < 0.25) {
      const atTen = Math.floor(time / HOUR_MS) * HOUR_MS + 50 * MINUTE_MS + Math.floor(random() * 600) * 1000
      if (atTen >= from && atTen < to) time = atTen
    }
    const visit = source.next()
    clicks.push({
      accountId: target.accountId,
      itemType: target.itemType,
      itemId: target.itemId,
      createdAt: nowTimestamp(new Date(Math.floor(time / 1000) * 1000)),
      referrerHost: random() < 0.12 ? null : visit.referrer,
      language: random() < 0.1 ? null : visit.language,
      visitorHash: `visitor-${seed}-${index}`,
      country: random() < 0.1 ? null : visit.country,
      agent: random() < 0.08 ? { browser: '', os: '', device: '' } : visit.agent,
      isUnique: random() < 0.4,
    })
  }
  return clicks
}

/** Whole UTC days, the last days and hours, and weeks of zones 2 hours and 5h45m (quarter hours) off UTC, as of `now`. */
export function windowsAt(now: number): NamedWindow[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS
  const hour = Math.floor(now / HOUR_MS) * HOUR_MS
  const zoned = (offset: number) => ({ start: today - 7 * DAY_MS - offset, end: today + DAY_MS - offset })
  return [
    { label: 'every whole UTC day of the clicks', window: { start: today - 14 * DAY_MS, end: today + DAY_MS }, quarters: false, core: true },
    { label: 'the last 3 UTC days', window: { start: today - 2 * DAY_MS, end: today + DAY_MS }, quarters: false, core: false },
    { label: 'the last 72 hours', window: { start: hour - 71 * HOUR_MS, end: hour + HOUR_MS }, quarters: false, core: false },
    { label: 'a week of days at UTC-2 (shifted by 2 hours)', window: zoned(-2 * HOUR_MS), quarters: false, core: false },
    { label: 'a week of days at UTC+5:45 (shifted by 5h45m), in quarter hours', window: zoned(5 * HOUR_MS + 45 * MINUTE_MS), quarters: true, core: true },
  ]
}

/** Text of anything a figure may hold, bigints included. */
export function text(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item)) ?? 'undefined'
}

/** Figures as compared: slots by start (they come in any order); everything else as given. */
export function normalized(figures: WindowFigures): WindowFigures {
  return { ...figures, slots: [...figures.slots].sort((a, b) => a.start - b.start) }
}

/** Where two answers differ, in a line. */
export function differenceOf(expected: WindowFigures, received: WindowFigures): string {
  const parts: string[] = []
  const sum = (figures: WindowFigures) => figures.slots.reduce((total, slot) => ({ clicks: total.clicks + Number(slot.clicks), unique: total.unique + Number(slot.unique) }), { clicks: 0, unique: 0 })
  if (text(expected.slots) !== text(received.slots)) {
    const first = expected.slots.findIndex((slot, index) => text(slot) !== text(received.slots[index]))
    const at = first === -1 ? expected.slots.length : first
    parts.push(`slots: ${expected.slots.length} vs ${received.slots.length}, totals ${text(sum(expected))} vs ${text(sum(received))}, first difference at ${at}: ${text(expected.slots[at])} vs ${text(received.slots[at])}`)
  }
  for (const dimension of Object.keys(expected.values) as Array<keyof WindowFigures['values']>) {
    const want = expected.values[dimension]
    const got = received.values?.[dimension]
    if (text(want) === text(got)) continue
    if (!got) {
      parts.push(`${dimension}: missing`)
      continue
    }
    const first = want.findIndex((entry, index) => text(entry) !== text(got[index]))
    const at = first === -1 ? want.length : first
    parts.push(`${dimension}: ${want.length} vs ${got.length} values, first difference at ${at}: ${text(want[at])} vs ${text(got[at])}`)
  }
  if (text(expected.links) !== text(received.links)) parts.push(`links: ${text(expected.links)} vs ${text(received.links)}`)
  return parts.join('; ')
}

/**
 * Leads and sales (issue 39) for some of `clicks` (link clicks only), deterministic for `seed`: every
 * third link click gets a click id, half of those a lead an hour or days later, some a sale in EUR
 * or USD and a few a refund. Written to the main database, which every engine takes conversions
 * from: the engines' answers must still be equal with them.
 */
export async function seedConversions(db: DB, seed: number, accountId: number, clicks: EnrichedClick[]): Promise<number> {
  const random = createVisitSource(seed).random
  const tracked = clicks.filter((click) => click.itemType === 'link' && click.accountId === accountId).filter((_click, index) => index % 3 === 0)
  let written = 0
  for (const [index, click] of tracked.entries()) {
    const clickId = `parity-${seed}-${index}`
    click.clickId = clickId
    if (random() < 0.5) continue
    const clickedAt = Date.parse(`${click.createdAt.replace(' ', 'T')}Z`)
    const at = (delay: number) => nowTimestamp(new Date(Math.min(Date.now(), clickedAt + delay)))
    const customer = await db.insertInto('customers').values({ account_id: accountId, external_id: clickId, name: null, email: null, created_at: click.createdAt }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('leads').values({ account_id: accountId, customer_id: customer.id, click_id: clickId, link_id: click.itemId, event: 'lead', metadata: null, clicked_at: click.createdAt, created_at: at(Math.floor(random() * 3 * DAY_MS)) }).execute()
    written += 1
    if (random() < 0.5) continue
    const sale = (amount: number, currency: string, invoice: string, delay: number) => ({
      account_id: accountId, customer_id: customer.id, click_id: clickId, link_id: click.itemId, amount, currency, invoice_id: invoice, event: 'purchase', metadata: null, source: 'api', clicked_at: click.createdAt, created_at: at(delay),
    })
    const amount = 100 + Math.floor(random() * 10_000)
    const currency = random() < 0.7 ? 'EUR' : 'USD'
    await db.insertInto('sales').values(sale(amount, currency, `${clickId}-sale`, Math.floor(random() * 5 * DAY_MS))).execute()
    if (random() < 0.2) await db.insertInto('sales').values(sale(-amount, currency, `${clickId}-refund`, 6 * DAY_MS)).execute()
  }
  return written
}

/** A filter of the matrix; `core` ones are asked over every window, the others over the core windows. */
export interface NamedFilter {
  label: string
  filters: ClickFilters
  core?: boolean
}

export interface NamedScope {
  label: string
  scope: ClickScope
  filters: NamedFilter[]
}

/**
 * Which cases a comparison asks: `full`: every window with the core filters and the core windows
 * with every filter; `filters`: the core windows with every filter; `core`: the core windows with
 * the core filters.
 */
export type ParityCases = 'full' | 'filters' | 'core'

export interface ParityRun {
  /** Named in every mismatch (`phase | scope | window | filter`). */
  phase: string
  /** Which engine is compared, for the failure's message. */
  name: string
  scopes: readonly NamedScope[]
  /** The reference (the SQL engine over the raw clicks) and the engine compared with it. */
  expected: StatisticsEngine
  received: StatisticsEngine
  /** The windows are those of `windowsAt(now)`; the live minutes are asked at `now`. */
  now: number
  cases?: ParityCases
  /** The links a workspace's answers are asked for besides all (a page's top links, a comparison's chosen ones). */
  choices: readonly LinkChoice[]
}

const describeError = (error: unknown) => (error instanceof Error ? error.stack ?? error.message : String(error)).split('\n').slice(0, 3).join(' ')

/**
 * Asks both engines every window × filter of the scopes, the workspaces' link choices and the live
 * minutes, and fails listing every case that differs (or that the engine compared threw), the first
 * few in full. Answers how many cases were compared.
 */
export async function expectSameAnswers(run: ParityRun): Promise<number> {
  const { phase, expected: reference, received: engine, now } = run
  const cases = run.cases ?? 'full'
  const mismatches: string[] = []
  let shown = 0
  let compared = 0
  const compare = async (label: string, ask: (engine: StatisticsEngine) => Promise<WindowFigures>) => {
    const [expectedFigures, receivedFigures] = await Promise.allSettled([ask(reference), ask(engine)])
    if (expectedFigures.status === 'rejected') throw expectedFigures.reason
    if (receivedFigures.status === 'rejected') {
      mismatches.push(`${label}: threw ${describeError(receivedFigures.reason)}`)
      return
    }
    compared += 1
    const expected = normalized(expectedFigures.value)
    const received = normalized(receivedFigures.value)
    if (text(expected) === text(received)) return
    mismatches.push(`${label}: ${differenceOf(expected, received)}`)
    if (shown < 3) {
      shown += 1
      expect.soft(received, label).toEqual(expected)
    }
  }
  for (const named of run.scopes) {
    for (const { label: windowLabel, window, quarters, core } of windowsAt(now)) {
      for (const { label: filterLabel, filters, core: coreFilter } of named.filters) {
        if (!(cases === 'full' ? core || coreFilter : cases === 'filters' ? core : core && coreFilter)) continue
        await compare(`${phase} | ${named.label} | ${windowLabel} | ${filterLabel}`, (asked) => asked.figures(named.scope, window, filters, quarters))
      }
    }
    if ('accountId' in named.scope) {
      for (const choice of run.choices) {
        for (const { label: windowLabel, window, quarters } of windowsAt(now)) {
          await compare(`${phase} | ${named.label} | ${windowLabel} | links ${JSON.stringify(choice)}`, (asked) => asked.figures(named.scope, window, {}, quarters, choice))
        }
      }
    }
    for (const { label: filterLabel, filters } of named.filters.slice(0, 2)) {
      const label = `${phase} | ${named.label} | live minutes at ${nowTimestamp(new Date(now))} | ${filterLabel}`
      const expected = await reference.live(named.scope, filters, now)
      try {
        const received = await engine.live(named.scope, filters, now)
        compared += 1
        if (text(expected) !== text(received)) mismatches.push(`${label}: ${expected.clicks} clicks vs ${received.clicks}; ${text(expected.minutes.filter((minute) => minute.clicks > 0))} vs ${text(received.minutes.filter((minute) => minute.clicks > 0))}`)
      } catch (error) {
        mismatches.push(`${label}: threw ${describeError(error)}`)
      }
    }
  }
  expect(mismatches, `${phase}: cases where ${run.name} answers otherwise than the SQL engine (${compared} answered)`).toEqual([])
  return compared
}
