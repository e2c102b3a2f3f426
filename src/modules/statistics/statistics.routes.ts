// GET /api/{url|qr|campaign|bio}/{id}/stats?from&to (beyond the spec): an item's clicks per day
// between two days, with the range's top lists, for charts; GET /api/stats?from&to: the same
// series over all the account's links, with their totals and top links. Read from the aggregates;
// with a filter, `granularity`, `tz` or `compare` (issue 24) from the raw clicks through the query
// module (click-query.ts, ADR 022). GET …/stats/live: the last 60 minutes per minute.
import type { App } from '../../http/app-instance.js'
import type { StatisticsService } from './statistics.service.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import { toTopLinkEntry } from './statistics.mapper.js'
import type { RankedLink } from './statistics.service.js'
import type { Static } from 'typebox'
import { AccountLiveQuery, AccountStatisticsQuery, AccountStatisticsResponse, CONVERSION_FIGURES_NOTE, ItemLiveQuery, ItemStatisticsQuery, LiveStatisticsResponse, StatisticsRangeResponse } from './statistics.schemas.js'
import { DIMENSION_FILTERS, LINK_FILTERS, MAX_FILTER_VALUES, MAX_HOURLY_DAYS } from './click-query-params.js'
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

const FILTERS_NOTE = `Filters (${DIMENSION_FILTERS.join(', ')}) take comma-separated values, at most ${MAX_FILTER_VALUES}; values of one filter are alternatives, filters combine. ` +
  `With any filter, \`granularity\` (hour up to ${MAX_HOURLY_DAYS} days, day, week, month), \`tz\` (IANA; default the workspace's) or \`compare=previous\`, the answer is computed from the raw clicks ` +
  'and adds `series`, `granularity`, `timeZone`, `filters` and, when comparing, `previous`; clicks pruned by retention are not in it. An unknown parameter is refused. ' + CONVERSION_FIGURES_NOTE

export function registerStatisticsRoutes(app: App, { statistics, publicUrl }: StatisticsRouteDependencies): void {
  app.get('/api/stats', {
    schema: {
      tags: ['statistics'],
      summary: "Daily statistics of all the account's links, with their totals and the range's top links",
      description: `Days are UTC and inclusive; by default the last ${DEFAULT_RANGE_DAYS} days, at most ${MAX_RANGE_DAYS}. Totals are all time (unfiltered). ${FILTERS_NOTE} ` +
        `The workspace also filters by ${LINK_FILTERS.join(', ')} and, from the raw clicks, answers the top lists of the range too.`,
      querystring: AccountStatisticsQuery,
      response: { 200: AccountStatisticsResponse, ...errorResponses },
    },
  }, async (request) => {
    const answer = await statistics.accountBetween(accountOf(request).id, request.query as Record<string, unknown>)
    const { topLinks, previous, ...data } = answer as typeof answer & { previous?: { topLinks?: RankedLink[] } }
    return {
      error: 0 as const,
      data: {
        ...data,
        topLinks: topLinks.map((row) => toTopLinkEntry(row, publicUrl)),
        ...(previous ? { previous: { ...previous, topLinks: (previous.topLinks ?? []).map((row: RankedLink) => toTopLinkEntry(row, publicUrl)) } } : {}),
      } as Static<typeof AccountStatisticsResponse>['data'],
    }
  })

  app.get('/api/stats/live', {
    schema: {
      tags: ['statistics'],
      summary: "Clicks of all the account's links in the last 60 minutes, per minute",
      description: `Read from the raw clicks; the same filters as GET /api/stats (${[...DIMENSION_FILTERS, ...LINK_FILTERS].join(', ')}). Poll it every few seconds for a live counter.`,
      querystring: AccountLiveQuery,
      response: { 200: LiveStatisticsResponse, ...errorResponses },
    },
  }, async (request) => {
    return { error: 0 as const, data: await statistics.live(accountOf(request).id, undefined, request.query as Record<string, unknown>) }
  })

  for (const { path, itemType, tag, noun } of ITEMS) {
    app.get(`/api/${path}/:id/stats`, {
      schema: {
        tags: [tag],
        summary: `Daily statistics of ${noun}`,
        description: `Days are UTC and inclusive; by default the last ${DEFAULT_RANGE_DAYS} days, at most ${MAX_RANGE_DAYS}. ${FILTERS_NOTE}`,
        params: IdParams,
        querystring: ItemStatisticsQuery,
        response: { 200: StatisticsRangeResponse, ...errorResponses },
      },
    }, async (request) => {
      const data = await statistics.betweenOrThrow(accountOf(request).id, { itemType, itemId: request.params.id }, request.query as Record<string, unknown>)
      return { error: 0 as const, data }
    })

    app.get(`/api/${path}/:id/stats/live`, {
      schema: {
        tags: [tag],
        summary: `Clicks of ${noun} in the last 60 minutes, per minute`,
        description: `Read from the raw clicks; filters as for its statistics (${DIMENSION_FILTERS.join(', ')}). Poll it every few seconds for a live counter.`,
        params: IdParams,
        querystring: ItemLiveQuery,
        response: { 200: LiveStatisticsResponse, ...errorResponses },
      },
    }, async (request) => {
      const data = await statistics.live(accountOf(request).id, { itemType, itemId: request.params.id }, request.query as Record<string, unknown>)
      return { error: 0 as const, data }
    })
  }
}
