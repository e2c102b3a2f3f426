// GET /api/{url|qr|campaign|bio}/{id}/stats?from&to (beyond the spec): an item's clicks per day
// between two days, with the range's top lists, for charts; GET /api/stats?from&to: the same
// series over all the account's links, with their totals and top links. Read from the aggregates only.
import type { App } from '../../http/app-instance.js'
import type { StatisticsService } from './statistics.service.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import { toTopLinkEntry } from './statistics.mapper.js'
import { AccountStatisticsResponse, StatisticsRangeQuery, StatisticsRangeResponse } from './statistics.schemas.js'
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from './statistics.service.js'
import type { ClickItemType } from '../../analytics/click-items.js'
import { IdParams } from '../../core/schemas.js'

const ITEMS: Array<{ path: string; itemType: ClickItemType; tag: string; noun: string }> = [
  { path: 'url', itemType: 'link', tag: 'links', noun: 'a short link' },
  { path: 'qr', itemType: 'qr', tag: 'qr codes', noun: 'a QR code (scans)' },
  { path: 'campaign', itemType: 'campaign', tag: 'campaigns', noun: "a campaign's rotator" },
  { path: 'bio', itemType: 'bio', tag: 'bio pages', noun: 'a bio page' },
]

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface StatisticsRouteDependencies {
  statistics: StatisticsService
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
}

export function registerStatisticsRoutes(app: App, { statistics, publicUrl }: StatisticsRouteDependencies): void {
  app.get('/api/stats', {
    schema: {
      tags: ['statistics'],
      summary: "Daily statistics of all the account's links, with their totals and the range's top links",
      description: `Days are UTC and inclusive; by default the last ${DEFAULT_RANGE_DAYS} days, at most ${MAX_RANGE_DAYS}. Totals are all time.`,
      querystring: StatisticsRangeQuery,
      response: { 200: AccountStatisticsResponse, ...errorResponses },
    },
  }, async (request) => {
    const { topLinks, ...data } = await statistics.accountBetween(accountOf(request).id, request.query)
    return { error: 0 as const, data: { ...data, topLinks: topLinks.map((row) => toTopLinkEntry(row, publicUrl)) } }
  })

  for (const { path, itemType, tag, noun } of ITEMS) {
    app.get(`/api/${path}/:id/stats`, {
      schema: {
        tags: [tag],
        summary: `Daily statistics of ${noun}`,
        description: `Days are UTC and inclusive; by default the last ${DEFAULT_RANGE_DAYS} days, at most ${MAX_RANGE_DAYS}.`,
        params: IdParams,
        querystring: StatisticsRangeQuery,
        response: { 200: StatisticsRangeResponse, ...errorResponses },
      },
    }, async (request) => {
      const data = await statistics.betweenOrThrow(accountOf(request).id, { itemType, itemId: request.params.id }, request.query)
      return { error: 0 as const, data }
    })
  }
}
