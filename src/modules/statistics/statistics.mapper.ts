// Aggregate rows to the spec's statistics object (spec: QR statistics object): top lists map a
// label to a count written as a string, in descending order of count.
import { SOCIAL_NETWORKS, type SocialNetwork } from '../../analytics/visitor-reading.js'
import type { ValueDimension } from '../../analytics/click-aggregates.js'
import { shortUrl } from '../aliases/alias-namespace.js'
import type { CountedValue, TopLinkRow } from './statistics.repository.js'
import type { ConversionCounts } from './conversion-figures.repository.js'

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })

/** `US` → `United States`; '' (not located) → `Unknown`. */
export function countryLabel(code: string): string {
  if (!code) return 'Unknown'
  try {
    return regionNames.of(code) ?? code
  } catch {
    return code
  }
}

/** How each counted dimension's stored value reads in a top list; '' is what was not known. */
const LABELS: Record<ValueDimension, (value: string) => string> = {
  country: countryLabel,
  // No referrer: the link was typed, bookmarked, scanned or opened from an app or an e-mail.
  referrer: (value) => value || 'Direct',
  browser: (value) => value || 'Unknown',
  os: (value) => value || 'Unknown',
  device: (value) => value || 'Unknown',
  language: (value) => value || 'Unknown',
}

/** `{label: "count"}` in the order given (highest count first). */
export function toTopList(dimension: ValueDimension, values: CountedValue[]): Record<string, string> {
  const label = LABELS[dimension]
  const counts = new Map<string, number>()
  for (const { value, clicks } of values) counts.set(label(value), (counts.get(label(value)) ?? 0) + clicks)
  return Object.fromEntries([...counts].map(([name, clicks]) => [name, String(clicks)]))
}

export type SocialCount = Record<SocialNetwork, number>

/** decisions §7: clicks referred by each social network, zero where none. */
export function toSocialCount(values: CountedValue[]): SocialCount {
  const counts = Object.fromEntries(Object.keys(SOCIAL_NETWORKS).map((network) => [network, 0])) as SocialCount
  for (const { value, clicks } of values) if (value in counts) counts[value as SocialNetwork] += clicks
  return counts
}

export interface StatisticsObject {
  clicks: number
  uniqueClicks: number
  topCountries: Record<string, string>
  topReferrers: Record<string, string>
  topBrowsers: Record<string, string>
  topOs: Record<string, string>
  socialCount: SocialCount
}

/** A link of the account's top list as the API shows it, with its absolute short URL (decisions §5). */
export function toTopLinkEntry(row: TopLinkRow & ConversionCounts, publicUrl: string) {
  return {
    id: row.id,
    alias: row.alias,
    shorturl: shortUrl(publicUrl, row.domainOrigin, row.alias),
    longurl: row.url,
    title: row.title,
    clicks: row.clicks,
    uniqueClicks: row.uniqueClicks,
    leads: row.leads,
    sales: row.sales,
    revenue: row.revenue,
  }
}
