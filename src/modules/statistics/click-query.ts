// The one module that answers statistics from the raw clicks (issue 24, ADR 022): series by hour,
// day, week or month in a time zone, the top lists, social counts and the workspace's top links,
// under any combination of filters, plus the live minutes. Its SQL is raw-click.repository.ts's:
// clicks are counted per UTC hour (or quarter hour, in zones whose offset is not whole hours), and
// those slots are put into the zone's buckets here, so a day of Europe/Berlin is 23 or 25 hours on
// both databases. Answers without filters or options stay on the
// aggregates (statistics.repository.ts). The service reads through `StatisticsEngine`: a window's
// figures in one call, so that a columnar store can answer them with one scan where this module
// runs a query per figure.
import { VALUE_DIMENSIONS, type ValueDimension } from '../../analytics/click-aggregates.js'
import { DAY_MS, MINUTE_MS, dayOf, midnightOf, nowTimestamp } from '../../core/time.js'
import { createOffsetLookup, utcOfLocal } from '../../core/time-zones.js'
import type { ClickFilters, Granularity } from './click-query-params.js'
import type { ClickScope, LinkChoice, LinkCount, RawClickRepository, Slot, UtcWindow } from './raw-click.repository.js'
import type { CountedValue } from './statistics.repository.js'
import { addConversions, noConversions, type ConversionCounts, type ConversionSlot } from './conversion-figures.repository.js'

export type { ClickScope, LinkChoice, LinkCount, Slot, UtcWindow }

const HOUR_MS = 3_600_000

/** Days `from`..`to` (inclusive) of a zone as the UTC window they cover. */
export function windowOfDays(zone: string, fromDay: string, toDay: string): UtcWindow {
  return { start: utcOfLocal(zone, midnightOf(fromDay)), end: utcOfLocal(zone, midnightOf(toDay) + DAY_MS) }
}

/** One bucket of a series: its label in the zone, its first UTC second, its counts (conversions too). */
export interface SeriesEntry extends ConversionCounts {
  date: string
  start: string
  clicks: number
  uniqueClicks: number
}

/**
 * Everything the statistics service reads of one window, in one call, so that an engine can
 * answer it with one scan (a columnar store's grouping sets) instead of a query per figure.
 */
export interface WindowFigures {
  /** Clicks per UTC slot (hours, or quarter hours when `quarters`), any order. */
  slots: Slot[]
  /** Every value of each dimension with clicks under the filters ('' for unknown), most clicked first, ties by value ascending. */
  values: Record<ValueDimension, CountedValue[]>
  /** Account scope only: the existing links of the account with clicks in the window under the filters (all, or those chosen), most first, ties by id descending. Undefined for an item scope. */
  links?: LinkCount[]
}

/** The last 60 minutes of clicks per UTC minute, zeros included, oldest first. */
export interface LiveMinutes {
  from: string
  to: string
  clicks: number
  minutes: Array<{ minute: string; clicks: number }>
}

/** What the statistics service needs from an engine: a window's figures, and the live minutes. */
export interface StatisticsEngine {
  /** `links` (account scope): which links' counts to carry; by default every link with clicks. */
  figures(scope: ClickScope, window: UtcWindow, filters: ClickFilters, quarters: boolean, links?: LinkChoice): Promise<WindowFigures>
  live(scope: ClickScope, filters: ClickFilters, now: number): Promise<LiveMinutes>
}

/** Monday of the week a day `YYYY-MM-DD` is in. */
function mondayOf(day: string): string {
  const time = midnightOf(day)
  return dayOf(time - ((new Date(time).getUTCDay() + 6) % 7) * DAY_MS)
}

/** The bucket label of a local time (local milliseconds) at a granularity. */
function labelOf(granularity: Granularity, local: number): string {
  const day = dayOf(local)
  if (granularity === 'hour') return `${day} ${nowTimestamp(new Date(local)).slice(11, 13)}:00`
  if (granularity === 'day') return day
  if (granularity === 'week') return mondayOf(day)
  return day.slice(0, 7)
}

/**
 * The series of a window in a zone: every bucket, zeros included, oldest first. Hours are the
 * zone's clock hours (at a DST change a day has 23 or 25 of them); days, weeks (from Monday) and
 * months start at the zone's midnight; the first bucket starts at the window's start.
 */
export function seriesOf(slots: Slot[], window: UtcWindow, zone: string, granularity: Granularity, conversions: readonly ConversionSlot[] = []): SeriesEntry[] {
  const offsetOf = createOffsetLookup(zone)
  const buckets = new Map<string, SeriesEntry>()
  // Labels of local days, made once per day (a window of hours has thousands of slots).
  const labels = new Map<number, string>()
  const keyOf = (utc: number): string => {
    const local = utc + offsetOf(utc)
    // Hours are keyed by their UTC start: a clock hour repeated at a DST change is two buckets.
    if (granularity === 'hour') return String(utc - (local % HOUR_MS))
    const localDay = Math.floor(local / DAY_MS)
    let label = labels.get(localDay)
    if (label === undefined) labels.set(localDay, (label = labelOf(granularity, local)))
    return label
  }
  const step = granularity === 'hour' ? HOUR_MS : DAY_MS
  for (let time = window.start; time < window.end;) {
    const key = keyOf(time)
    if (!buckets.has(key)) buckets.set(key, { date: labelOf(granularity, time + offsetOf(time)), start: nowTimestamp(new Date(time)), clicks: 0, uniqueClicks: 0, ...noConversions() })
    if (granularity === 'hour') time += step
    else time = utcOfLocal(zone, midnightOf(dayOf(time + offsetOf(time))) + DAY_MS)
  }
  for (const slot of slots) {
    const bucket = buckets.get(keyOf(slot.start))
    if (!bucket) continue
    bucket.clicks += slot.clicks
    bucket.uniqueClicks += slot.unique
  }
  for (const slot of conversions) {
    const bucket = buckets.get(keyOf(slot.start))
    if (bucket) addConversions(bucket, slot)
  }
  return [...buckets.values()]
}

/** True when a zone's offset over the window is whole hours (clicks can be grouped by UTC hour, else by quarter hour). */
export function wholeHours(window: UtcWindow, zone: string): boolean {
  const offsetOf = createOffsetLookup(zone)
  for (let time = window.start; time < window.end + DAY_MS; time += DAY_MS) if (offsetOf(Math.min(time, window.end)) % HOUR_MS !== 0) return false
  return true
}

const stored = (time: number) => nowTimestamp(new Date(time))

/** The engine that reads the raw clicks of the main database (SQLite or PostgreSQL). */
export function createClickQuery(clicks: RawClickRepository): StatisticsEngine {
  return {
    /** A window's slots, every value of each dimension and (for an account) the links' counts: 7-8 queries. */
    async figures(scope, window, filters, quarters, links) {
      // One after the other: the pool is shared with the redirects and the click writer.
      const figures: WindowFigures = { slots: await clicks.slots(scope, window, filters, quarters), values: {} as Record<ValueDimension, CountedValue[]> }
      for (const dimension of VALUE_DIMENSIONS) figures.values[dimension] = await clicks.values(scope, window, filters, dimension)
      if ('accountId' in scope) figures.links = await clicks.linkCounts(scope.accountId, window, filters, links)
      return figures
    },

    async live(scope, filters, now) {
      const end = Math.floor(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS
      const window = { start: end - 60 * MINUTE_MS, end }
      const counts = await clicks.minutes(scope, window, filters)
      const perMinute = []
      for (let time = window.start; time < window.end; time += MINUTE_MS) {
        const minute = stored(time).slice(0, 16)
        perMinute.push({ minute, clicks: counts.get(minute) ?? 0 })
      }
      return { from: stored(window.start), to: stored(window.end), clicks: perMinute.reduce((sum, { clicks }) => sum + clicks, 0), minutes: perMinute }
    },
  }
}
