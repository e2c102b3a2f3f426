// A link's statistics for a range as one CSV: the days, then every top list.
import { toCsv } from '../components/download'
import type { paths } from '../api/schema'

export type RangeStatistics = paths['/api/url/{id}/stats']['get']['responses'][200]['content']['application/json']['data']

export const TOP_LISTS: Array<{ key: 'topCountries' | 'topReferrers' | 'topBrowsers' | 'topOs' | 'topDevices' | 'topLanguages'; title: string }> = [
  { key: 'topCountries', title: 'Countries' },
  { key: 'topReferrers', title: 'Referrers' },
  { key: 'topBrowsers', title: 'Browsers' },
  { key: 'topOs', title: 'Operating systems' },
  { key: 'topDevices', title: 'Devices' },
  { key: 'topLanguages', title: 'Languages' },
]

export function statisticsCsv(statistics: RangeStatistics): string {
  const rows: unknown[][] = [['section', 'label', 'clicks', 'unique clicks']]
  for (const day of statistics.days) rows.push(['day', day.date, day.clicks, day.uniqueClicks])
  rows.push(['total', `${statistics.from} to ${statistics.to}`, statistics.clicks, statistics.uniqueClicks])
  for (const { key, title } of TOP_LISTS) {
    for (const [label, count] of Object.entries(statistics[key])) rows.push([title.toLowerCase(), label, Number(count), ''])
  }
  for (const [network, count] of Object.entries(statistics.socialCount)) rows.push(['social', network, count, ''])
  return toCsv(rows)
}
