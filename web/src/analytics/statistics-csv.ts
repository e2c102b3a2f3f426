// An item's statistics for a view as one CSV: what the view is (range, time zone, granularity,
// filters), the buckets, the totals, then every top list; with a comparison, the previous period's
// figures in a column of their own.
import { toCsv } from '../components/download'
import type { paths } from '../api/schema'
import { chipLabel, type FilterChip, type StatisticsView } from './statistics-view'

export type RangeStatistics = paths['/api/url/{id}/stats']['get']['responses'][200]['content']['application/json']['data']

export const TOP_LISTS: Array<{ key: 'topCountries' | 'topReferrers' | 'topBrowsers' | 'topOs' | 'topDevices' | 'topLanguages'; title: string }> = [
  { key: 'topCountries', title: 'Countries' },
  { key: 'topReferrers', title: 'Referrers' },
  { key: 'topBrowsers', title: 'Browsers' },
  { key: 'topOs', title: 'Operating systems' },
  { key: 'topDevices', title: 'Devices' },
  { key: 'topLanguages', title: 'Languages' },
]

/** The view's buckets: the series the API answered (raw clicks), else its UTC days. */
export function bucketsOf(statistics: Pick<RangeStatistics, 'days' | 'series'>): Array<{ date: string; clicks: number; uniqueClicks: number }> {
  return statistics.series ?? statistics.days
}

/**
 * `view` says what was asked (and `display` how a chip's value reads); the answer says the time
 * zone its buckets are in (UTC when it does not say: the aggregates' days).
 */
export function statisticsCsv(statistics: RangeStatistics, view?: Pick<StatisticsView, 'granularity' | 'compare' | 'filters'>, display?: (chip: FilterChip) => string): string {
  const previous = view?.compare ? statistics.previous : undefined
  const header = ['section', 'label', 'clicks', 'unique clicks', ...(previous ? ['previous period clicks', 'previous period unique clicks'] : [])]
  const rows: unknown[][] = [header]
  const granularity = statistics.granularity ?? view?.granularity ?? 'day'
  rows.push(['range', `${statistics.from} to ${statistics.to}`, '', ''])
  if (previous) rows.push(['previous period', `${previous.from} to ${previous.to}`, '', ''])
  rows.push(['time zone', statistics.timeZone ?? 'UTC', '', ''])
  rows.push(['granularity', granularity, '', ''])
  for (const chip of view?.filters ?? []) rows.push(['filter', chipLabel(chip, display), '', ''])
  const buckets = bucketsOf(statistics)
  const before = previous ? bucketsOf(previous) : []
  buckets.forEach((bucket, index) => {
    rows.push([granularity, bucket.date, bucket.clicks, bucket.uniqueClicks, ...(previous ? [before[index]?.clicks ?? '', before[index]?.uniqueClicks ?? ''] : [])])
  })
  rows.push(['total', `${statistics.from} to ${statistics.to}`, statistics.clicks, statistics.uniqueClicks, ...(previous ? [previous.clicks, previous.uniqueClicks] : [])])
  for (const { key, title } of TOP_LISTS) {
    for (const [label, count] of Object.entries(statistics[key])) rows.push([title.toLowerCase(), label, Number(count), '', ...(previous ? [Number(previous[key][label] ?? 0), ''] : [])])
  }
  // The workspace's answer: its most clicked links of the range.
  const topLinks = (statistics as { topLinks?: Array<{ shorturl: string; clicks: number; uniqueClicks: number }> }).topLinks
  const previousLinks = (previous as { topLinks?: Array<{ clicks: number; uniqueClicks: number }> } | undefined)?.topLinks
  topLinks?.forEach((link, index) => rows.push(['top links', link.shorturl, link.clicks, link.uniqueClicks, ...(previous ? [previousLinks?.[index]?.clicks ?? '', previousLinks?.[index]?.uniqueClicks ?? ''] : [])]))
  for (const [network, count] of Object.entries(statistics.socialCount)) rows.push(['social', network, count, '', ...(previous ? [previous.socialCount[network as keyof typeof previous.socialCount], ''] : [])])
  return toCsv(rows)
}
