// GET /api/conversions/funnel and GET /api/conversions/top (issue 39): the workspace's conversion
// reports, under the range, filters and options of GET /api/stats (a link, campaign, channel or tag's
// funnel is the same question with that filter).
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import { shortUrl } from '../aliases/alias-namespace.js'
import type { ConversionReports } from './conversion-reports.service.js'
import { FunnelQuery, FunnelResponse, TopReportQuery, TopReportResponse } from './conversion-report.schemas.js'
import { CONVERSION_FIGURES_NOTE } from './statistics.schemas.js'

const tags = ['conversions']

/** What the routes use, handed over by app.ts. */
export interface ConversionReportRouteDependencies {
  reports: ConversionReports
  publicUrl: string
}

export function registerConversionReportRoutes(app: App, { reports, publicUrl }: ConversionReportRouteDependencies): void {
  app.get('/api/conversions/funnel', {
    schema: {
      tags,
      summary: 'Clicks → leads → sales of the workspace\'s links in a range, with the time from click to lead and to sale',
      description: `The range, filters (country … language; link, campaign, channel, tag) and options (tz, compare) of GET /api/stats; a link's, campaign's, channel's or tag's funnel is this with that filter. ${CONVERSION_FIGURES_NOTE}`,
      querystring: FunnelQuery,
      response: { 200: FunnelResponse, ...errorResponses },
    },
  }, async (request) => {
    return { error: 0 as const, data: await reports.funnel(accountOf(request).id, request.query as Record<string, unknown>) }
  })

  app.get('/api/conversions/top', {
    schema: {
      tags,
      summary: 'The workspace\'s links, campaigns, channels or tags by revenue, sales, leads or clicks in a range',
      description: `The range and filters of GET /api/stats. ${CONVERSION_FIGURES_NOTE}`,
      querystring: TopReportQuery,
      response: { 200: TopReportResponse, ...errorResponses },
    },
  }, async (request) => {
    const report = await reports.top(accountOf(request).id, request.query as Record<string, unknown>)
    const rows = report.rows.map(({ link, ...row }) => (link ? { ...row, shorturl: shortUrl(publicUrl, link.domainOrigin, link.alias) } : row))
    return { error: 0 as const, data: { ...report, rows } }
  })
}
