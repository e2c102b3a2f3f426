// Statistics of links, QR codes, campaigns and bio pages, read from the click aggregates: the
// spec's statistics object (all time) and, beyond the spec, a per-day series between two days.
import { toSocialCount, toTopList, type StatisticsObject } from './statistics.mapper.js'
import type { CountedValue, ItemReference, StatisticsRepository } from './statistics.repository.js'
import type { ClickItemType } from '../../analytics/click-items.js'
import { VALUE_DIMENSIONS } from '../../analytics/click-aggregates.js'
import { DAY_MS, dayOf, midnightOf, toStoredTimestamp } from '../../core/time.js'
import { NotFoundError, ValidationError } from '../../core/errors.js'

/** The longest range one request may ask for, in days (a year, leap day included). */
export const MAX_RANGE_DAYS = 366
/** The range when none is given: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30

const NOT_FOUND: Record<ClickItemType, string> = { link: 'Link', qr: 'QR code', campaign: 'Campaign', bio: 'Bio page' }

export interface RangeQuery {
  from?: string
  to?: string
}

/** Worded like the schema's own query errors (http/error-handler.ts). */
function queryError(parameter: string, rule: string): ValidationError {
  return new ValidationError(`The query parameter "${parameter}" ${rule}.`, parameter)
}

/** A real calendar day `YYYY-MM-DD` as its midnight (UTC) in milliseconds, or a 400 naming the field. */
function parseDay(field: string, text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !toStoredTimestamp(text)) throw queryError(field, 'must be a date YYYY-MM-DD')
  return midnightOf(text)
}

function sumOf(values: CountedValue[]): number {
  return values.reduce((total, { clicks }) => total + clicks, 0)
}

export interface DayStatistics {
  date: string
  clicks: number
  uniqueClicks: number
}

/** Midnight (UTC, ms) of the first and last day of a range. */
interface DayRange {
  from: number
  to: number
}

/** One zero entry per day of the range, oldest first, keyed by day. */
function emptySeries({ from, to }: DayRange): Map<string, DayStatistics> {
  const series = new Map<string, DayStatistics>()
  for (let time = from; time <= to; time += DAY_MS) series.set(dayOf(time), { date: dayOf(time), clicks: 0, uniqueClicks: 0 })
  return series
}

/** Adds per-day `clicks` and `unique` counters into the series; days outside it are ignored. */
function fillSeries(series: Map<string, DayStatistics>, rows: Array<CountedValue & { day: string; dimension: string }>): DayStatistics[] {
  for (const row of rows) {
    const day = series.get(row.day)
    if (day && row.dimension === 'clicks') day.clicks += row.clicks
    if (day && row.dimension === 'unique') day.uniqueClicks += row.clicks
  }
  return [...series.values()]
}

export function createStatisticsService(statistics: StatisticsRepository, now: () => Date = () => new Date()) {
  /** The range a query asks for (by default the last 30 days, today included), or a 400 naming the parameter. */
  function rangeOf(query: RangeQuery): DayRange {
    const today = midnightOf(dayOf(now().getTime()))
    const to = query.to === undefined ? today : parseDay('to', query.to)
    const from = query.from === undefined ? to - (DEFAULT_RANGE_DAYS - 1) * DAY_MS : parseDay('from', query.from)
    if (from > to) throw queryError('from', `must not be after "to" (${dayOf(to)})`)
    const days = (to - from) / DAY_MS + 1
    if (days > MAX_RANGE_DAYS) throw new ValidationError(`The range from "from" to "to" must be at most ${MAX_RANGE_DAYS} days; it is ${days}.`, 'to')
    return { from, to }
  }

  return {
    /** Recorded clicks per split-test variant of a link, by the variant's position. */
    async variantClicks(item: ItemReference): Promise<Map<number, number>> {
      const rows = await statistics.variantTotals(item)
      return new Map(rows.map((row) => [Number(row.value), Number(row.clicks)]))
    },

    /** The spec's statistics object of an item, all time. */
    async overall(item: ItemReference): Promise<StatisticsObject> {
      // One after the other: in parallel they would take five pooled connections (PostgreSQL)
      // from the redirects and the click writer for a read that costs under a millisecond.
      const fixed = await statistics.totalsOfFixedDimensions(item)
      const countries = await statistics.topTotals(item, 'country')
      const referrers = await statistics.topTotals(item, 'referrer')
      const browsers = await statistics.topTotals(item, 'browser')
      const systems = await statistics.topTotals(item, 'os')
      return {
        clicks: sumOf(fixed.filter((row) => row.dimension === 'clicks')),
        uniqueClicks: sumOf(fixed.filter((row) => row.dimension === 'unique')),
        topCountries: toTopList('country', countries),
        topReferrers: toTopList('referrer', referrers),
        topBrowsers: toTopList('browser', browsers),
        topOs: toTopList('os', systems),
        socialCount: toSocialCount(fixed.filter((row) => row.dimension === 'social')),
      }
    },

    /**
     * The account's item's statistics between two days (UTC, inclusive; by default the last 30
     * days), with one entry per day for charts, days without clicks included.
     */
    async betweenOrThrow(accountId: number, item: ItemReference, query: RangeQuery) {
      const range = rangeOf(query)
      if (!(await statistics.ownsItem(accountId, item))) throw NotFoundError.of(NOT_FOUND[item.itemType])

      const [fromDay, toDay] = [dayOf(range.from), dayOf(range.to)]
      const fixed = await statistics.daysOfFixedDimensions(item, fromDay, toDay)
      const topValues: CountedValue[][] = []
      for (const dimension of VALUE_DIMENSIONS) topValues.push(await statistics.topBetween(item, dimension, fromDay, toDay))
      const top = Object.fromEntries(VALUE_DIMENSIONS.map((dimension, index) => [dimension, toTopList(dimension, topValues[index]!)]))
      return {
        from: fromDay,
        to: toDay,
        clicks: sumOf(fixed.filter((row) => row.dimension === 'clicks')),
        uniqueClicks: sumOf(fixed.filter((row) => row.dimension === 'unique')),
        days: fillSeries(emptySeries(range), fixed),
        topCountries: top.country!,
        topReferrers: top.referrer!,
        topBrowsers: top.browser!,
        topOs: top.os!,
        topDevices: top.device!,
        topLanguages: top.language!,
        socialCount: toSocialCount(fixed.filter((row) => row.dimension === 'social')),
      }
    },

    /**
     * All the account's links between two days (same range rules as one item's): clicks and
     * unique clicks per day, the links' all-time totals and the range's most clicked links.
     */
    async accountBetween(accountId: number, query: RangeQuery) {
      const range = rangeOf(query)
      const [fromDay, toDay] = [dayOf(range.from), dayOf(range.to)]
      // One after the other, as in overall(): each read is small and the pool is shared.
      const perDay = await statistics.accountDays(accountId, fromDay, toDay)
      const topLinks = await statistics.topLinksBetween(accountId, fromDay, toDay)
      const totals = await statistics.linkTotals(accountId)
      return {
        from: fromDay,
        to: toDay,
        clicks: sumOf(perDay.filter((row) => row.dimension === 'clicks')),
        uniqueClicks: sumOf(perDay.filter((row) => row.dimension === 'unique')),
        days: fillSeries(emptySeries(range), perDay),
        totals,
        topLinks,
      }
    },
  }
}

export type StatisticsService = ReturnType<typeof createStatisticsService>
