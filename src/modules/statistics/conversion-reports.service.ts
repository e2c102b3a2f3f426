// Conversion reports of the workspace (issue 39, ADR 034): the funnel (clicks → leads → sales, with
// the time from click to lead and to sale) and the top links, campaigns, channels or tags by
// revenue, sales, leads or clicks, under the range, filters and options of GET /api/stats. Clicks
// come from whichever statistics engine answers, conversions from the main database.
import type { ClickFilters } from './click-query-params.js'
import { queryError } from './click-query-params.js'
import type { UtcWindow } from './click-query.js'
import { GROUPINGS, noConversions, type ConversionCounts, type ConversionFiguresRepository } from './conversion-figures.repository.js'
import { conversionRatesOf, delaysOf, rankRows, RANK_ORDERS, totalOf, type RankOrder } from './conversion-ranking.js'
import { rankOrderOf, type RangeQuery, type StatisticsItems, type StatisticsService } from './statistics.service.js'

/** Rows of a top report by default, and at most. */
export const DEFAULT_REPORT_LIMIT = 10
export const MAX_REPORT_LIMIT = 100

type ReportGrouping = (typeof GROUPINGS)[number]

/** A row of a top report: a link (with its address's parts) or a campaign, channel or tag. */
export interface ReportRow extends ConversionCounts {
  id: number
  name: string
  clicks: number
  /** Links only: what their short URL is made of. */
  link?: { alias: string; domainOrigin: string | null }
}

export interface ConversionReportsOptions {
  statistics: Pick<StatisticsService, 'accountWindows' | 'linkClicks'>
  conversions: ConversionFiguresRepository
  links: StatisticsItems['links']
}

function groupingOf(given: unknown): ReportGrouping {
  if (given === undefined) return 'link'
  if (typeof given !== 'string' || !(GROUPINGS as readonly string[]).includes(given)) throw queryError('by', `must be one of ${GROUPINGS.join(', ')}`)
  return given as ReportGrouping
}

function limitOf(given: unknown): number {
  if (given === undefined) return DEFAULT_REPORT_LIMIT
  const text = String(given)
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > MAX_REPORT_LIMIT) throw queryError('limit', `must be a whole number from 1 to ${MAX_REPORT_LIMIT}`)
  return Number(text)
}

export function createConversionReports({ statistics, conversions, links }: ConversionReportsOptions) {
  /** One period of the funnel. */
  async function funnelOf(accountId: number, window: UtcWindow, filters: ClickFilters, from: string, to: string) {
    const { clicks } = await statistics.linkClicks(accountId, window, filters)
    const counts = totalOf(await conversions.slots(accountId, { accountId }, window, filters, false))
    const delays = await conversions.delays(accountId, { accountId }, window, filters)
    return {
      from,
      to,
      clicks,
      leads: counts.leads,
      sales: counts.sales,
      revenue: counts.revenue,
      conversionRates: conversionRatesOf(clicks, counts),
      timeToLead: delaysOf(delays.toLead),
      timeToSale: delaysOf(delays.toSale),
    }
  }

  return {
    /** Clicks → leads → sales of the workspace's links (or those the filters leave), with compare=previous the period before. */
    async funnel(accountId: number, query: RangeQuery & Record<string, unknown>) {
      const { parameters, fromDay, toDay, window, previous } = await statistics.accountWindows(accountId, query, ['from', 'to'])
      const current = await funnelOf(accountId, window, parameters.filters, fromDay, toDay)
      if (!parameters.compare) return { ...current, filters: parameters.givenFilters }
      return { ...current, filters: parameters.givenFilters, previous: await funnelOf(accountId, previous.window, parameters.filters, previous.from, previous.to) }
    },

    /** The workspace's links, campaigns, channels or tags by revenue, sales, leads or clicks in the range, most first. */
    async top(accountId: number, query: RangeQuery & Record<string, unknown>) {
      const by = groupingOf(query.by)
      const sort: RankOrder = rankOrderOf(query.sort ?? 'revenue', 'sort')
      const limit = limitOf(query.limit)
      const { parameters, fromDay, toDay, window } = await statistics.accountWindows(accountId, query, ['from', 'to', 'by', 'sort', 'limit'])
      const { links: clicked } = await statistics.linkClicks(accountId, window, parameters.filters)
      const perLink = new Map<number, { id: number; clicks: number } & ConversionCounts>(clicked.map((row) => [row.id, { id: row.id, clicks: row.clicks, ...noConversions() }]))
      for (const row of await conversions.links(accountId, window, parameters.filters)) {
        perLink.set(row.id, { id: row.id, clicks: perLink.get(row.id)?.clicks ?? 0, leads: row.leads, sales: row.sales, revenue: row.revenue })
      }
      let rows: ReportRow[]
      if (by === 'link') {
        // Ranked first, then named: only the rows shown are looked up (a link deleted since is left out).
        const ranked = rankRows([...perLink.values()], sort).slice(0, limit)
        const found = new Map((await links.findSummaries(accountId, ranked.map((row) => row.id))).map((link) => [link.id, link]))
        rows = ranked.flatMap((row) => {
          const link = found.get(row.id)
          return link ? [{ ...row, name: link.alias, link: { alias: link.alias, domainOrigin: link.domainOrigin } }] : []
        })
      } else {
        const groups = new Map<number, ReportRow>()
        for (const { linkId, id, name } of await conversions.groupsOf(accountId, by, [...perLink.keys()])) {
          const figures = perLink.get(linkId)!
          const group = groups.get(id) ?? { id, name, clicks: 0, ...noConversions() }
          group.clicks += figures.clicks
          const summed = totalOf([group, figures])
          groups.set(id, { ...group, leads: summed.leads, sales: summed.sales, revenue: summed.revenue })
        }
        rows = rankRows([...groups.values()], sort).slice(0, limit)
      }
      return { from: fromDay, to: toDay, by, sort, filters: parameters.givenFilters, rows }
    },
  }
}

export type ConversionReports = ReturnType<typeof createConversionReports>
export { RANK_ORDERS }
