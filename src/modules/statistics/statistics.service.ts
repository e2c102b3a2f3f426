// Statistics of links, QR codes, campaigns and bio pages, read from the click aggregates: the
// spec's statistics object (all time) and, beyond the spec, a per-day series between two days.
import { toSocialCount, toTopList, type StatisticsObject } from './statistics.mapper.js'
import type { CountedValue, ItemReference, StatisticsRepository } from './statistics.repository.js'
import type { ClickItemType } from '../../analytics/click-items.js'
import { VALUE_DIMENSIONS, type ValueDimension } from '../../analytics/click-aggregates.js'
import { DAY_MS, dayOf, midnightOf, toStoredTimestamp } from '../../core/time.js'
import { NotFoundError, ValidationError } from '../../core/errors.js'
import { offsetAt } from '../../core/time-zones.js'
import { socialNetworkOf } from '../../analytics/visitor-reading.js'
import { MAX_HOURLY_DAYS, queryError, readClickQuery, type ClickFilters, type ClickQueryParameters, type Granularity } from './click-query-params.js'
import { seriesOf, wholeHours, windowOfDays, type ClickScope, type LinkChoice, type LinkCount, type StatisticsEngine, type UtcWindow } from './click-query.js'
import { TOP_LIMIT, type TopLinkRow } from './statistics.repository.js'
import { addConversions, noConversions, type ConversionCounts, type ConversionFiguresRepository, type ConversionSlot, type LinkConversions } from './conversion-figures.repository.js'
import { conversionRatesOf, rankRows, RANK_ORDERS, totalOf, type RankOrder } from './conversion-ranking.js'

/** The longest range one request may ask for, in days (a year, leap day included). */
export const MAX_RANGE_DAYS = 366
/** The range when none is given: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30

const NOT_FOUND: Record<ClickItemType, string> = { link: 'Link', qr: 'QR code', campaign: 'Campaign', bio: 'Bio page' }

export interface RangeQuery {
  from?: string
  to?: string
}

/** A real calendar day `YYYY-MM-DD` as its midnight (UTC) in milliseconds, or a 400 naming the field. */
function parseDay(field: string, text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !toStoredTimestamp(text)) throw queryError(field, 'must be a date YYYY-MM-DD')
  return midnightOf(text)
}

function sumOf(values: CountedValue[]): number {
  return values.reduce((total, { clicks }) => total + clicks, 0)
}

export interface DayStatistics extends ConversionCounts {
  date: string
  clicks: number
  uniqueClicks: number
}

/** A link of a top list with its conversions in the same window. */
export type RankedLink = TopLinkRow & ConversionCounts

/** Midnight (UTC, ms) of the first and last day of a range. */
interface DayRange {
  from: number
  to: number
}

/** One zero entry per day of the range, oldest first, keyed by day. */
function emptySeries({ from, to }: DayRange): Map<string, DayStatistics> {
  const series = new Map<string, DayStatistics>()
  for (let time = from; time <= to; time += DAY_MS) series.set(dayOf(time), { date: dayOf(time), clicks: 0, uniqueClicks: 0, ...noConversions() })
  return series
}

/** Adds per-day `clicks` and `unique` counters into the series; days outside it are ignored. */
function fillSeries(series: Map<string, DayStatistics>, rows: Array<CountedValue & { day: string; dimension: string }>, conversions: readonly ConversionSlot[]): DayStatistics[] {
  // The aggregates' days are UTC days: a conversion's UTC day is its slot's.
  for (const slot of conversions) {
    const day = series.get(dayOf(slot.start))
    if (day) addConversions(day, slot)
  }
  for (const row of rows) {
    const day = series.get(row.day)
    if (day && row.dimension === 'clicks') day.clicks += row.clicks
    if (day && row.dimension === 'unique') day.uniqueClicks += row.clicks
  }
  return [...series.values()]
}

/** A top list's values as the mapper shows them, and the stored values behind them (for a comparison). */
interface TopValues {
  list: Record<string, string>
  values: string[]
}

/** Clicks per social network from referrer hosts and their clicks. */
function socialOf(referrers: CountedValue[]) {
  return toSocialCount(referrers.map(({ value, clicks }) => ({ value: socialNetworkOf(value) ?? '', clicks })))
}

/** Records that ask for their own statistics, each of the module that owns its table. */
interface OwnedItems {
  ownedIdsAmong(accountId: number, ids: readonly number[]): Promise<number[]>
}

/** What statistics ask of the items' own modules: whether the account owns an item, and what a top list shows of its links. */
export interface StatisticsItems {
  owners: Record<ClickItemType, OwnedItems>
  /** The account's links among `ids` (link.repository.ts findSummaries). */
  links: { findSummaries(accountId: number, ids: readonly number[]): Promise<Array<Omit<TopLinkRow, 'clicks' | 'uniqueClicks'>>> }
}

export interface StatisticsServiceOptions {
  statistics: StatisticsRepository
  items: StatisticsItems
  /** The clock a range without dates ends at (benches and tests fix it). */
  now?: () => Date
  /** Answers filtered, hourly, time-zone, comparison and live questions (modules/statistics/statistics-engines.ts); a service built without one (a bench of the aggregates) fails those questions. */
  engine?: StatisticsEngine
  /** Leads and sales from the main database, whichever engine counts the clicks (issue 39). */
  conversions: ConversionFiguresRepository
}

/** The conversion figures of an answer (and of its `previous`): totals and rates beside the clicks. */
function conversionFieldsOf(clicks: number, counts: ConversionCounts) {
  return { leads: counts.leads, sales: counts.sales, revenue: counts.revenue, conversionRates: conversionRatesOf(clicks, counts) }
}

/** The links with their conversions (none where a link has none). */
function withConversions(links: readonly TopLinkRow[], conversions: readonly LinkConversions[]): RankedLink[] {
  const byId = new Map(conversions.map((row) => [row.id, row]))
  return links.map((link) => {
    const found = byId.get(link.id)
    return { ...link, leads: found?.leads ?? 0, sales: found?.sales ?? 0, revenue: found?.revenue ?? {} }
  })
}

/** `topby` of GET /api/stats (default clicks), or a 400 naming it. */
export function rankOrderOf(given: unknown, parameter = 'topby'): RankOrder {
  if (given === undefined) return 'clicks'
  if (typeof given !== 'string' || !(RANK_ORDERS as readonly string[]).includes(given)) throw queryError(parameter, `must be one of ${RANK_ORDERS.join(', ')}`)
  return given as RankOrder
}

export function createStatisticsService({ statistics, items, now = () => new Date(), engine, conversions }: StatisticsServiceOptions) {
  /** True when the account owns the item (another account's item is simply not found). */
  async function ownsItem(accountId: number, item: ItemReference): Promise<boolean> {
    return (await items.owners[item.itemType].ownedIdsAmong(accountId, [item.itemId])).length > 0
  }

  /** The range a query asks for (by default the last 30 days, today included), or a 400 naming the parameter. */
  function rangeOf(query: RangeQuery, zone?: string): DayRange {
    const time = now().getTime()
    const today = midnightOf(dayOf(zone ? time + offsetAt(zone, time) : time))
    const to = query.to === undefined ? today : parseDay('to', query.to)
    const from = query.from === undefined ? to - (DEFAULT_RANGE_DAYS - 1) * DAY_MS : parseDay('from', query.from)
    if (from > to) throw queryError('from', `must not be after "to" (${dayOf(to)})`)
    const days = (to - from) / DAY_MS + 1
    if (days > MAX_RANGE_DAYS) throw new ValidationError(`The range from "from" to "to" must be at most ${MAX_RANGE_DAYS} days; it is ${days}.`, 'to')
    return { from, to }
  }

  function engineOf(): StatisticsEngine {
    if (!engine) throw new Error('The statistics service was built without a statistics engine')
    return engine
  }

  /** The range, zone and window of a raw-click answer; a 400 for hours over too long a range. */
  async function windowsOf(accountId: number, query: RangeQuery, parameters: ClickQueryParameters) {
    const zone = parameters.timeZone ?? (await statistics.timeZoneOf(accountId))
    const range = rangeOf(query, zone)
    const days = (range.to - range.from) / DAY_MS + 1
    if (parameters.granularity === 'hour' && days > MAX_HOURLY_DAYS) {
      throw queryError('granularity', `may be "hour" for ranges of at most ${MAX_HOURLY_DAYS} days; this one is ${days}`)
    }
    const [fromDay, toDay] = [dayOf(range.from), dayOf(range.to)]
    const previous = { from: dayOf(range.from - days * DAY_MS), to: dayOf(range.from - DAY_MS) }
    return {
      zone, fromDay, toDay,
      window: windowOfDays(zone, fromDay, toDay),
      previous: { ...previous, window: windowOfDays(zone, previous.from, previous.to) },
    }
  }

  /**
   * Series, days, top lists and social counts of one window, from one call of the engine; with
   * `compareTo` (the previous period beside the current one), the lists count just the values the
   * current lists show, in their order.
   */
  async function figuresOf(accountId: number, scope: ClickScope, window: UtcWindow, filters: ClickFilters, zone: string, granularity: Granularity, compareTo?: Record<ValueDimension, TopValues>, links: LinkChoice | 'all' = { top: TOP_LIMIT }) {
    const quarters = !wholeHours(window, zone)
    // The engine's figures and the main database's conversions at once: with ClickHouse or DuckDB
    // answering, the conversions' read is hidden behind theirs (ADR 035, "Full size, measured").
    const [figures, conversionSlots] = await Promise.all([
      engineOf().figures(scope, window, filters, quarters, links === 'all' ? undefined : links),
      conversions.slots(accountId, scope, window, filters, quarters),
    ])
    const converted = totalOf(conversionSlots)
    const totals = figures.slots.reduce((sum, slot) => ({ clicks: sum.clicks + slot.clicks, unique: sum.unique + slot.unique }), { clicks: 0, unique: 0 })
    const series = seriesOf(figures.slots, window, zone, granularity, conversionSlots)
    const top = {} as Record<ValueDimension, TopValues>
    let social = toSocialCount([])
    for (const dimension of VALUE_DIMENSIONS) {
      const values = figures.values[dimension]
      const compared = compareTo && new Set(compareTo[dimension].values)
      const shown = compared ? values.filter(({ value }) => compared.has(value)) : values.slice(0, TOP_LIMIT)
      // The social counts come from every referrer host, not the top ten (the previous period's too:
      // before one call read every figure, it counted only the hosts the current list showed).
      if (dimension === 'referrer') social = socialOf(values)
      const list = toTopList(dimension, shown)
      top[dimension] = {
        values: shown.map(({ value }) => value),
        // Beside each figure: the previous period's count of each value the current list shows.
        list: compareTo ? Object.fromEntries(Object.keys(compareTo[dimension].list).map((label) => [label, list[label] ?? '0'])) : list,
      }
    }
    return {
      clicks: totals.clicks,
      uniqueClicks: totals.unique,
      ...conversionFieldsOf(totals.clicks, converted),
      days: granularity === 'day' ? series : seriesOf(figures.slots, window, zone, 'day', conversionSlots),
      series,
      top,
      tops: {
        topCountries: top.country.list,
        topReferrers: top.referrer.list,
        topBrowsers: top.browser.list,
        topOs: top.os.list,
        topDevices: top.device.list,
        topLanguages: top.language.list,
      },
      socialCount: social,
      links: figures.links,
    }
  }

  /**
   * The top of a window's links by `order` (clicks: the engine's counts as they come; leads, sales
   * or revenue: every link with clicks or conversions, ranked), with the links' details and
   * conversions (a link gone since is left out).
   */
  async function topLinksOf(accountId: number, counts: LinkCount[], window: UtcWindow, filters: ClickFilters, order: RankOrder): Promise<RankedLink[]> {
    let top: LinkCount[]
    if (order === 'clicks') top = counts.slice(0, TOP_LIMIT)
    else {
      const converted = await conversions.links(accountId, window, filters)
      const byId = new Map(counts.map((row) => [row.id, { ...row, ...noConversions() }]))
      for (const row of converted) byId.set(row.id, { ...(byId.get(row.id) ?? { id: row.id, clicks: 0, uniqueClicks: 0 }), leads: row.leads, sales: row.sales, revenue: row.revenue })
      top = rankRows([...byId.values()], order).slice(0, TOP_LIMIT)
    }
    const ids = top.map((row) => row.id)
    const [summaries, converted] = await Promise.all([items.links.findSummaries(accountId, ids), conversions.links(accountId, window, filters, ids)])
    const links = new Map(summaries.map((link) => [link.id, link]))
    const rows = top.flatMap((row) => {
      const link = links.get(row.id)
      return link ? [{ ...link, clicks: row.clicks, uniqueClicks: row.uniqueClicks }] : []
    })
    return withConversions(rows, converted)
  }

  /** The same links with their counts and conversions in another window, in their order (0 where none). */
  async function countsOf(accountId: number, links: RankedLink[], counts: LinkCount[], window: UtcWindow, filters: ClickFilters): Promise<RankedLink[]> {
    const byId = new Map(counts.map((row) => [row.id, row]))
    const clicked = links.map((link) => ({ ...link, clicks: byId.get(link.id)?.clicks ?? 0, uniqueClicks: byId.get(link.id)?.uniqueClicks ?? 0 }))
    return withConversions(clicked, await conversions.links(accountId, window, filters, links.map((link) => link.id)))
  }

  /** An answer from the raw clicks: the current period and, with compare=previous, the one before it. */
  async function fromClicks(accountId: number, scope: ClickScope, query: RangeQuery, parameters: ClickQueryParameters, order: RankOrder = 'clicks') {
    const { zone, fromDay, toDay, window, previous } = await windowsOf(accountId, query, parameters)
    const { granularity, filters } = parameters
    const current = await figuresOf(accountId, scope, window, filters, zone, granularity, undefined, order === 'clicks' ? undefined : 'all')
    const topLinks = 'accountId' in scope ? await topLinksOf(accountId, current.links ?? [], window, filters, order) : undefined
    let before
    if (parameters.compare) {
      // The previous period's counts of the links the current list shows.
      const figures = await figuresOf(accountId, scope, previous.window, filters, zone, granularity, current.top, { only: (topLinks ?? []).map((link) => link.id) })
      before = {
        from: previous.from,
        to: previous.to,
        clicks: figures.clicks,
        uniqueClicks: figures.uniqueClicks,
        leads: figures.leads,
        sales: figures.sales,
        revenue: figures.revenue,
        conversionRates: figures.conversionRates,
        days: figures.days,
        series: figures.series,
        ...figures.tops,
        socialCount: figures.socialCount,
        ...(topLinks ? { topLinks: await countsOf(accountId, topLinks, figures.links ?? [], previous.window, filters) } : {}),
      }
    }
    return {
      from: fromDay,
      to: toDay,
      clicks: current.clicks,
      uniqueClicks: current.uniqueClicks,
      leads: current.leads,
      sales: current.sales,
      revenue: current.revenue,
      conversionRates: current.conversionRates,
      days: current.days,
      ...current.tops,
      socialCount: current.socialCount,
      granularity,
      timeZone: zone,
      filters: parameters.givenFilters,
      series: current.series,
      topLinks,
      previous: before,
    }
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
    async betweenOrThrow(accountId: number, item: ItemReference, query: RangeQuery & Record<string, unknown>) {
      const parameters = readClickQuery(query, 'item')
      const range = rangeOf(query)
      if (!(await ownsItem(accountId, item))) throw NotFoundError.of(NOT_FOUND[item.itemType])
      if (!parameters.plain) {
        const { topLinks: _none, ...answer } = await fromClicks(accountId, { itemType: item.itemType, itemId: item.itemId }, query, parameters)
        return answer
      }

      const [fromDay, toDay] = [dayOf(range.from), dayOf(range.to)]
      const fixed = await statistics.daysOfFixedDimensions(item, fromDay, toDay)
      const conversionSlots = await conversions.slots(accountId, item, windowOfDays('UTC', fromDay, toDay), {}, false)
      const clicks = sumOf(fixed.filter((row) => row.dimension === 'clicks'))
      const topValues: CountedValue[][] = []
      for (const dimension of VALUE_DIMENSIONS) topValues.push(await statistics.topBetween(item, dimension, fromDay, toDay))
      const top = Object.fromEntries(VALUE_DIMENSIONS.map((dimension, index) => [dimension, toTopList(dimension, topValues[index]!)]))
      return {
        from: fromDay,
        to: toDay,
        clicks,
        uniqueClicks: sumOf(fixed.filter((row) => row.dimension === 'unique')),
        ...conversionFieldsOf(clicks, totalOf(conversionSlots)),
        days: fillSeries(emptySeries(range), fixed, conversionSlots),
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
    async accountBetween(accountId: number, query: RangeQuery & Record<string, unknown>) {
      const { topby, ...rest } = query
      const order = rankOrderOf(topby)
      const parameters = readClickQuery(rest, 'account')
      const range = rangeOf(query)
      // A top list by conversions ranks every link of the window: the raw clicks answer it.
      if (!parameters.plain || order !== 'clicks') {
        const [answer, totals] = await Promise.all([fromClicks(accountId, { accountId }, query, parameters, order), statistics.linkTotals(accountId)])
        return { ...answer, topLinks: answer.topLinks ?? [], totals }
      }
      const [fromDay, toDay] = [dayOf(range.from), dayOf(range.to)]
      const window = windowOfDays('UTC', fromDay, toDay)
      // One after the other, as in overall(): each read is small and the pool is shared.
      const perDay = await statistics.accountDays(accountId, fromDay, toDay)
      const topLinks = await statistics.topLinksBetween(accountId, fromDay, toDay)
      const totals = await statistics.linkTotals(accountId)
      const conversionSlots = await conversions.slots(accountId, { accountId }, window, {}, false)
      const clicks = sumOf(perDay.filter((row) => row.dimension === 'clicks'))
      return {
        from: fromDay,
        to: toDay,
        clicks,
        uniqueClicks: sumOf(perDay.filter((row) => row.dimension === 'unique')),
        ...conversionFieldsOf(clicks, totalOf(conversionSlots)),
        days: fillSeries(emptySeries(range), perDay, conversionSlots),
        totals,
        topLinks: withConversions(topLinks, await conversions.links(accountId, window, {}, topLinks.map((link) => link.id))),
      }
    },

    /**
     * A workspace question's filters, range, zone and windows (the current and the previous
     * period), read as GET /api/stats reads them; `known` are the parameters the caller reads itself.
     */
    async accountWindows(accountId: number, query: RangeQuery & Record<string, unknown>, known: readonly string[]) {
      const parameters = readClickQuery(query, 'account', known)
      rangeOf(query)
      return { parameters, ...(await windowsOf(accountId, query, parameters)) }
    },

    /** The clicks of the workspace's links in a window under the filters, and of each link with clicks. */
    async linkClicks(accountId: number, window: UtcWindow, filters: ClickFilters): Promise<{ clicks: number; links: LinkCount[] }> {
      const figures = await engineOf().figures({ accountId }, window, filters, false)
      return { clicks: figures.slots.reduce((sum, slot) => sum + slot.clicks, 0), links: figures.links ?? [] }
    },

    /**
     * The last 60 minutes of an item's clicks (or, without `item`, of the account's links) per
     * minute, zeros included, under the query's filters.
     */
    async live(accountId: number, item: ItemReference | undefined, query: Record<string, unknown>) {
      const parameters = readClickQuery(query, item ? 'item' : 'account', [], false)
      if (item && !(await ownsItem(accountId, item))) throw NotFoundError.of(NOT_FOUND[item.itemType])
      const scope: ClickScope = item ? { itemType: item.itemType, itemId: item.itemId } : { accountId }
      return { ...(await engineOf().live(scope, parameters.filters, now().getTime())), filters: parameters.givenFilters }
    },
  }
}

export type StatisticsService = ReturnType<typeof createStatisticsService>
