// How conversion figures are ranked and summed up (issue 39, ADR 034): rates of clicks, the order
// of a top list by clicks, leads, sales or revenue, and the percentiles of the funnel's delays.
import { addConversions, noConversions, type ConversionCounts, type Revenue } from './conversion-figures.repository.js'

/** What a top list may be ordered by. */
export const RANK_ORDERS = ['clicks', 'leads', 'sales', 'revenue'] as const
export type RankOrder = (typeof RANK_ORDERS)[number]

/** The rule of `revenue` orders, as the schemas describe it. */
export const REVENUE_ORDER_RULE = 'revenue orders by the net revenue in the main currency of the rows listed (the one with the largest net total: a workspace has no currency setting), then by the largest net total in another currency, then by clicks'

/** Leads and sales per click (0 when there are no clicks). */
export function conversionRatesOf(clicks: number, counts: ConversionCounts): { leads: number; sales: number } {
  return { leads: clicks > 0 ? counts.leads / clicks : 0, sales: clicks > 0 ? counts.sales / clicks : 0 }
}

/** The sum of many conversion counts. */
export function totalOf(counts: readonly ConversionCounts[]): ConversionCounts {
  return counts.reduce((total, entry) => addConversions(total, entry), noConversions())
}

/** The currency with the largest net total over the rows (ties: alphabetical); undefined when none has revenue. */
export function mainCurrencyOf(rows: readonly { revenue: Revenue }[]): string | undefined {
  const totals = totalOf(rows.map((row) => ({ leads: 0, sales: 0, revenue: row.revenue }))).revenue
  return Object.entries(totals).sort(([a, x], [b, y]) => y - x || a.localeCompare(b))[0]?.[0]
}

/**
 * Rows ordered by `order`, most first; ties by clicks, then id, highest first. Revenue: by
 * REVENUE_ORDER_RULE.
 */
export function rankRows<R extends ConversionCounts & { id: number; clicks: number }>(rows: readonly R[], order: RankOrder): R[] {
  const main = order === 'revenue' ? mainCurrencyOf(rows) : undefined
  const otherOf = (revenue: Revenue) => Math.max(0, ...Object.entries(revenue).filter(([currency]) => currency !== main).map(([, amount]) => amount))
  const keys = (row: R): number[] => {
    if (order === 'clicks') return [row.clicks]
    if (order === 'leads') return [row.leads, row.clicks]
    if (order === 'sales') return [row.sales, row.clicks]
    return [main === undefined ? 0 : row.revenue[main] ?? 0, otherOf(row.revenue), row.clicks]
  }
  return [...rows].sort((a, b) => {
    const [left, right] = [keys(a), keys(b)]
    for (let index = 0; index < left.length; index += 1) if (left[index] !== right[index]) return right[index]! - left[index]!
    return b.id - a.id
  })
}

/** The nearest-rank percentile (`share` 0.5 the median, 0.9 the 90th) of seconds: a delay that really happened; null when none. */
export function percentileOf(values: readonly number[], share: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!
}

/** `{median, p90}` of delays in seconds, or null when there are none. */
export function delaysOf(values: readonly number[]): { median: number; p90: number } | null {
  return values.length === 0 ? null : { median: percentileOf(values, 0.5)!, p90: percentileOf(values, 0.9)! }
}
