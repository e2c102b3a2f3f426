// What a statistics page shows, as its address says it (issue 24): the range, the granularity of
// the series, the comparison with the previous period and the filter chips. Read from and written
// to the search params, so a view can be shared and a reload restores it; and turned into the
// query the API takes (GET /api/{url|qr|campaign|bio}/{id}/stats, GET /api/stats).

export const GRANULARITIES = ['hour', 'day', 'week', 'month'] as const
export type Granularity = (typeof GRANULARITIES)[number]
/** The API answers hourly series for ranges of at most this many days. */
export const MAX_HOURLY_DAYS = 31
/** The API takes at most this many values in one filter. */
export const MAX_FILTER_VALUES = 20

/** The dimensions a chip can filter by, with the top list a row of which adds one. */
export const FILTER_DIMENSIONS = [
  { key: 'country', list: 'topCountries', title: 'Country' },
  { key: 'referrer', list: 'topReferrers', title: 'Referrer' },
  { key: 'browser', list: 'topBrowsers', title: 'Browser' },
  { key: 'os', list: 'topOs', title: 'Operating system' },
  { key: 'device', list: 'topDevices', title: 'Device' },
  { key: 'language', list: 'topLanguages', title: 'Language' },
] as const
export type FilterDimension = (typeof FILTER_DIMENSIONS)[number]['key']
export type TopListKey = (typeof FILTER_DIMENSIONS)[number]['list']

/**
 * What only the workspace's answers filter by (GET /api/stats, the conversions' answers): the links
 * of a link, campaign or channel (their ids) or a tag (its name). The conversions page adds them from
 * its rows; an item's page takes none of them from its address.
 */
export const WORKSPACE_DIMENSIONS = [
  { key: 'link', title: 'Link' },
  { key: 'campaign', title: 'Campaign' },
  { key: 'channel', title: 'Channel' },
  { key: 'tag', title: 'Tag' },
] as const
export type WorkspaceDimension = (typeof WORKSPACE_DIMENSIONS)[number]['key']
/** Any dimension a chip can have. */
export type ViewDimension = FilterDimension | WorkspaceDimension
const ALL_DIMENSIONS: ReadonlyArray<{ key: ViewDimension; title: string }> = [...FILTER_DIMENSIONS, ...WORKSPACE_DIMENSIONS]

/** One chip: a dimension and one of its values, as the top list names it (`Germany`, `Direct`, `fr`; a campaign's id). */
export interface FilterChip {
  dimension: ViewDimension
  value: string
}

export interface StatisticsView {
  /** `YYYY-MM-DD`, first and last day, inclusive. */
  from: string
  to: string
  granularity: Granularity
  compare: boolean
  /** In the order they were added; values of one dimension are alternatives, dimensions combine. */
  filters: FilterChip[]
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/

/** Days from `from` to `to`, both included. */
export function daysOf(range: { from: string; to: string }): number {
  return Math.round((Date.parse(range.to) - Date.parse(range.from)) / 86_400_000) + 1
}

/** Whether the API answers `granularity` over the range: hours only up to 31 days. */
export function granularityAllowed(granularity: Granularity, range: { from: string; to: string }): boolean {
  return granularity !== 'hour' || daysOf(range) <= MAX_HOURLY_DAYS
}

/** A value the API can take in a comma-separated list. */
function usableValue(value: string): boolean {
  return value.trim() !== '' && !value.includes(',') && value.length <= 255
}

/**
 * The view an address asks for: what it does not say (or says wrong) is the default, the last 30
 * days by day, no comparison, no filter; an hourly view of a range over 31 days reads by day.
 * `workspace`: the workspace's chips (link, campaign, channel, tag) are read too.
 */
export function parseView(params: URLSearchParams, fallback: { from: string; to: string }, workspace = false): StatisticsView {
  const dimensionKeys: readonly string[] = (workspace ? ALL_DIMENSIONS : FILTER_DIMENSIONS).map((dimension) => dimension.key)
  const from = params.get('from') ?? ''
  const to = params.get('to') ?? ''
  const range = DAY_PATTERN.test(from) && DAY_PATTERN.test(to) && from <= to ? { from, to } : fallback
  const asked = params.get('granularity') ?? 'day'
  const granularity = (GRANULARITIES as readonly string[]).includes(asked) && granularityAllowed(asked as Granularity, range) ? asked as Granularity : 'day'
  let filters: FilterChip[] = []
  for (const [name, value] of params) {
    if (dimensionKeys.includes(name) && usableValue(value)) filters = addFilter(filters, { dimension: name as ViewDimension, value })
  }
  return { ...range, granularity, compare: params.get('compare') === 'previous', filters }
}

/** The address of a view: only what differs from the defaults besides the range; chips as repeated params. */
export function serialiseView(view: StatisticsView): URLSearchParams {
  const params = new URLSearchParams({ from: view.from, to: view.to })
  if (view.granularity !== 'day') params.set('granularity', view.granularity)
  if (view.compare) params.set('compare', 'previous')
  for (const { key: dimension } of ALL_DIMENSIONS) {
    for (const chip of view.filters) if (chip.dimension === dimension) params.append(dimension, chip.value)
  }
  return params
}

/** The chips with `chip` added (once; at most 20 values per dimension, as the API takes). */
export function addFilter(filters: FilterChip[], chip: FilterChip): FilterChip[] {
  const same = filters.filter((entry) => entry.dimension === chip.dimension)
  if (same.some((entry) => entry.value === chip.value) || same.length >= MAX_FILTER_VALUES) return filters
  return [...filters, chip]
}

export function removeFilter(filters: FilterChip[], chip: FilterChip): FilterChip[] {
  return filters.filter((entry) => entry.dimension !== chip.dimension || entry.value !== chip.value)
}

export function hasFilter(filters: FilterChip[], chip: FilterChip): boolean {
  return filters.some((entry) => entry.dimension === chip.dimension && entry.value === chip.value)
}

/** The chips as the API's filter parameters: `{country: 'Germany,France', browser: 'Firefox'}`. */
export function filterQuery(filters: FilterChip[]): Partial<Record<ViewDimension, string>> {
  const query: Partial<Record<ViewDimension, string>> = {}
  for (const { dimension, value } of filters) query[dimension] = query[dimension] ? `${query[dimension]},${value}` : value
  return query
}

export interface StatisticsQuery extends Partial<Record<ViewDimension, string>> {
  from: string
  to: string
  granularity?: Granularity
  compare?: 'previous'
}

/**
 * What to ask the API for a view. A plain view (no chip, by day, no comparison) of a UTC
 * workspace is answered from the aggregates (ADR 022); anything else, or a workspace counting in
 * another zone, asks with `granularity` so that the answer comes from the raw clicks, bucketed in
 * the workspace's time zone and saying which. `alwaysRaw`: the workspace's page, whose top lists
 * only the raw clicks answer.
 */
export function statisticsQuery(view: StatisticsView, timeZone: string, alwaysRaw = false): StatisticsQuery {
  const raw = alwaysRaw || view.filters.length > 0 || view.compare || view.granularity !== 'day' || timeZone !== 'UTC'
  return {
    from: view.from,
    to: view.to,
    ...filterQuery(view.filters),
    ...(raw ? { granularity: view.granularity } : {}),
    ...(view.compare ? { compare: 'previous' as const } : {}),
  }
}

/** "Country: Germany", as a chip and its remove button read. */
export function chipLabel(chip: FilterChip, display: (chip: FilterChip) => string = (entry) => entry.value): string {
  const title = ALL_DIMENSIONS.find((dimension) => dimension.key === chip.dimension)!.title
  return `${title}: ${display(chip)}`
}

/** The change from `previous` to `current` as a person reads it: "+25%", "−40%", "no change", "new". */
export function changeOf(current: number, previous: number): string {
  if (current === previous) return 'no change'
  if (previous === 0) return 'new'
  const percent = Math.round(((current - previous) / previous) * 100)
  if (percent === 0) return current > previous ? '+<1%' : '−<1%'
  return percent > 0 ? `+${percent}%` : `−${Math.abs(percent)}%`
}

/** Today in a time zone, `YYYY-MM-DD`. */
export function todayIn(timeZone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
  } catch {
    return new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
  }
}

/** How far `timeZone`'s clocks are ahead of UTC at `time` (ms; UTC when the zone is unknown). */
function offsetAt(timeZone: string, time: number): number {
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(time))
  } catch {
    return 0
  }
  const part = (type: string) => Number(parts.find((found) => found.type === type)?.value ?? 0)
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - Math.floor(time / 1000) * 1000
}

/** When a day (`YYYY-MM-DD`) begins in a time zone, as UTC milliseconds (a second look across a clock change). */
function dayStartIn(day: string, timeZone: string): number {
  const midnight = Date.parse(`${day}T00:00:00Z`)
  return midnight - offsetAt(timeZone, midnight - offsetAt(timeZone, midnight))
}

/**
 * Days of a time zone, `from` to `to` inclusive, as the UTC bounds the lists take (`YYYY-MM-DD
 * HH:MM:SS`, both ends included): e.g. the latest sales of the statistics' range.
 */
export function utcBoundsOfDays(from: string, to: string, timeZone: string): { from: string; to: string } {
  const text = (time: number) => new Date(time).toISOString().slice(0, 19).replace('T', ' ')
  return { from: text(dayStartIn(from, timeZone)), to: text(dayStartIn(new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10), timeZone) - 1000) }
}

/** The last `days` days ending today in the zone, inclusive. */
export function lastDaysIn(days: number, timeZone: string, now = new Date()): { from: string; to: string } {
  const to = todayIn(timeZone, now)
  const from = new Date(Date.parse(to) - (days - 1) * 86_400_000)
  return { from: `${from.getUTCFullYear()}-${String(from.getUTCMonth() + 1).padStart(2, '0')}-${String(from.getUTCDate()).padStart(2, '0')}`, to }
}
