// Schemas of the conversion reports (issue 39): GET /api/conversions/funnel and /api/conversions/top.
import { Type } from 'typebox'
import { AccountRangeFields, ConversionCounts, ConversionRates } from './statistics.schemas.js'
import { GROUPINGS } from './conversion-figures.repository.js'
import { RANK_ORDERS, REVENUE_ORDER_RULE } from './conversion-ranking.js'
import { DEFAULT_REPORT_LIMIT, MAX_REPORT_LIMIT } from './conversion-reports.service.js'

/** GET /api/conversions/funnel: the range, filters and options of GET /api/stats. */
export const FunnelQuery = Type.Object({ ...AccountRangeFields })

export const TopReportQuery = Type.Object({
  ...AccountRangeFields,
  by: Type.Optional(Type.String({ enum: [...GROUPINGS], description: 'what the rows are: link (default), campaign, channel or tag (a link counts in each of its channels and tags)', errorMessage: `must be one of ${GROUPINGS.join(', ')}` })),
  sort: Type.Optional(Type.String({ enum: [...RANK_ORDERS], description: `the order, most first: revenue (default), sales, leads or clicks; ${REVENUE_ORDER_RULE}; ties by clicks`, errorMessage: `must be one of ${RANK_ORDERS.join(', ')}` })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_REPORT_LIMIT, description: `rows, ${DEFAULT_REPORT_LIMIT} by default`, errorMessage: `must be a whole number from 1 to ${MAX_REPORT_LIMIT}` })),
})

const Delays = Type.Union([
  Type.Object({ median: Type.Integer({ description: 'seconds' }), p90: Type.Integer({ description: 'seconds' }) }),
  Type.Null(),
], { description: 'seconds from the click to it, nearest-rank median and 90th percentile over the clicks converted in the range; null when none' })

const FunnelPeriod = {
  from: Type.String({ description: 'first day (the time zone asked, else the workspace\'s), YYYY-MM-DD' }),
  to: Type.String({ description: 'last day, YYYY-MM-DD' }),
  clicks: Type.Integer({ description: 'clicks of the workspace\'s links (under the filters) in the range' }),
  ...ConversionCounts,
  conversionRates: ConversionRates,
  timeToLead: Delays,
  timeToSale: Type.Union([Delays.anyOf[0]!, Type.Null()], { description: 'seconds from the click to the first sale (a positive amount) of it; null when none' }),
}

export const FunnelResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    ...FunnelPeriod,
    filters: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'the filters applied, as given' }),
    previous: Type.Optional(Type.Object(FunnelPeriod, { description: 'with compare=previous: the period of the same length just before' })),
  }),
})

const TopRow = Type.Object({
  id: Type.Integer({ description: 'the link\'s, campaign\'s, channel\'s or tag\'s id' }),
  name: Type.String({ description: 'a link\'s alias; a campaign\'s, channel\'s or tag\'s name' }),
  shorturl: Type.Optional(Type.String({ description: 'links only' })),
  clicks: Type.Integer(),
  ...ConversionCounts,
})

export const TopReportResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    from: Type.String(),
    to: Type.String(),
    by: Type.String(),
    sort: Type.String(),
    filters: Type.Record(Type.String(), Type.Array(Type.String())),
    rows: Type.Array(TopRow, { description: 'most first; rows with neither clicks nor conversions in the range are absent' }),
  }),
})
