// Schemas of the statistics endpoints (beyond the spec): a range of days and the per-day answer.
import { Type } from 'typebox'
import { TOP_LIMIT } from './statistics.repository.js'
import { GRANULARITIES, MAX_FILTER_VALUES, MAX_HOURLY_DAYS } from './click-query-params.js'
import { RANK_ORDERS, REVENUE_ORDER_RULE } from './conversion-ranking.js'

/** Net revenue per currency in minor units, refunds subtracted (`{"EUR": 4900}`); `{}` when none. */
export const Revenue = Type.Record(Type.String(), Type.Integer(), { description: 'net revenue per ISO 4217 currency in minor units (cents), refunds subtracted, e.g. `{"EUR": 4900}`; `{}` when none' })
/** A window's leads, sales and revenue (issue 39). */
export const ConversionCounts = {
  leads: Type.Integer({ description: 'leads created in the range (at their own time) attributed to clicks of these links' }),
  sales: Type.Integer({ description: 'sales with a positive amount created in the range (refunds are not counted here, only subtracted from revenue)' }),
  revenue: Revenue,
}
export const ConversionRates = Type.Object({
  leads: Type.Number({ description: 'leads / clicks; 0 when there are no clicks' }),
  sales: Type.Number({ description: 'sales / clicks; 0 when there are no clicks' }),
})
const CONVERSIONS_NOTE = 'Conversions (leads, sales, revenue) count at their own time, in the range and the buckets of the time zone asked; dimension filters apply to the click each is attributed to, link/campaign/channel/tag filters to its link. ' +
  'QR codes, bio pages and campaign rotators record no click ids: their conversion figures are zeros (a campaign\'s links\' conversions: GET /api/stats?campaign=ID).'
export const CONVERSION_FIGURES_NOTE = CONVERSIONS_NOTE
const ConversionFigures = { ...ConversionCounts, conversionRates: ConversionRates }

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: 'must be a date YYYY-MM-DD' })

const filterOf = (description: string) => Type.Optional(Type.String({ maxLength: 6000, description: `${description}; comma-separated, at most ${MAX_FILTER_VALUES} values (any of them)` }))

/** Filters and options that send a request to the raw clicks (issue 24, ADR 022): any of them. */
const ClickQueryFields = {
  country: filterOf('country codes (`DE`) or names as top lists show them (`Germany`); `Unknown` for clicks not located'),
  referrer: filterOf('referrer hosts (`twitter.com`); `Direct` for none'),
  browser: filterOf('browsers (`Chrome`); `Unknown` for none'),
  os: filterOf('operating systems (`Windows`); `Unknown` for none'),
  device: filterOf('device types (`Desktop`, `Mobile`, `Tablet`); `Unknown` for none'),
  language: filterOf('languages (`en`); `Unknown` for none'),
}
const ClickQueryOptions = {
  granularity: Type.Optional(Type.String({ enum: [...GRANULARITIES], description: `the buckets of \`series\`: hour (ranges up to ${MAX_HOURLY_DAYS} days), day (default), week (from Monday) or month`, errorMessage: `must be one of ${GRANULARITIES.join(', ')}` })),
  tz: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone of the range and the buckets; default the workspace\'s (`timezone`, PUT /api/account/update), itself UTC unless set' })),
  compare: Type.Optional(Type.String({ enum: ['previous'], description: '`previous`: the period of the same length just before, in `previous`', errorMessage: 'must be previous' })),
}
const TopBy = Type.Optional(Type.String({
  enum: [...RANK_ORDERS],
  description: `the order of \`topLinks\`: clicks (default), leads, sales or revenue; ${REVENUE_ORDER_RULE}; ties by clicks. Other than clicks, the answer is computed from the raw clicks (with \`series\`)`,
  errorMessage: `must be one of ${RANK_ORDERS.join(', ')}`,
}))
const ACCOUNT_FILTERS = {
  link: filterOf('link ids'),
  campaign: filterOf('campaign ids (their links)'),
  channel: filterOf('channel ids (their links)'),
  tag: filterOf('tag names (links with any of them)'),
}

/** An item's range, filters and options. */
export const ItemStatisticsQuery = Type.Object({ from: Type.Optional(Day), to: Type.Optional(Day), ...ClickQueryFields, ...ClickQueryOptions })
/** The workspace's range, filters (link, campaign, channel and tag too) and options. */
export const AccountStatisticsQuery = Type.Object({ from: Type.Optional(Day), to: Type.Optional(Day), ...ClickQueryFields, ...ACCOUNT_FILTERS, ...ClickQueryOptions, topby: TopBy })
/** The workspace's range, filters and options, as conversion reports take them (GET /api/conversions/funnel and /top). */
export const AccountRangeFields = { from: Type.Optional(Day), to: Type.Optional(Day), ...ClickQueryFields, ...ACCOUNT_FILTERS, ...ClickQueryOptions }
/** The live minutes' filters. */
export const ItemLiveQuery = Type.Object({ ...ClickQueryFields })
export const AccountLiveQuery = Type.Object({ ...ClickQueryFields, ...ACCOUNT_FILTERS })

const SeriesEntry = Type.Object({
  date: Type.String({ description: 'the bucket in the time zone: `YYYY-MM-DD HH:00` (hour), `YYYY-MM-DD` (day; a week\'s Monday), `YYYY-MM` (month)' }),
  start: Type.String({ description: 'its first second, UTC `YYYY-MM-DD HH:MM:SS` (the range\'s start for a first partial week or month)' }),
  clicks: Type.Integer(),
  uniqueClicks: Type.Integer(),
  ...ConversionCounts,
})
const Series = Type.Array(SeriesEntry, { description: 'every bucket of the range at the granularity asked, zeros included, oldest first' })
const FiltersEcho = Type.Record(Type.String(), Type.Array(Type.String()), { description: 'the filters applied, as given' })
const RAW_NOTE = 'present when the request gave a filter, `granularity`, `tz` or `compare` (answered from the raw clicks)'

/** spec: top lists map a label to a count written as a string, highest count first. */
export const TopList = Type.Record(Type.String(), Type.String())

/** decisions §7: clicks referred by each social network. */
export const SocialCount = Type.Object({ facebook: Type.Integer(), twitter: Type.Integer(), instagram: Type.Integer(), linkedin: Type.Integer() })

const RangeDays = Type.Array(Type.Object({ date: Type.String(), clicks: Type.Integer(), uniqueClicks: Type.Integer(), ...ConversionCounts }), { description: 'every day of the range, oldest first' })

const ItemFigures = {
  clicks: Type.Integer(),
  uniqueClicks: Type.Integer(),
  ...ConversionFigures,
  days: RangeDays,
  topCountries: TopList,
  topReferrers: TopList,
  topBrowsers: TopList,
  topOs: TopList,
  topDevices: TopList,
  topLanguages: TopList,
  socialCount: SocialCount,
}

const PreviousOf = <T extends Record<string, any>>(fields: T) => Type.Optional(Type.Object({
  from: Type.String({ description: 'first day of the previous period' }),
  to: Type.String({ description: 'last day of the previous period' }),
  ...fields,
  series: Series,
}, { description: 'with compare=previous: the period of the same length just before; its top lists count the values the current lists show, in their order' }))

const RawFields = {
  granularity: Type.Optional(Type.String({ enum: [...GRANULARITIES], description: RAW_NOTE })),
  timeZone: Type.Optional(Type.String({ description: `the IANA zone of the days and buckets; ${RAW_NOTE}` })),
  filters: Type.Optional(FiltersEcho),
  series: Type.Optional(Series),
}

export const StatisticsRangeResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    from: Type.String({ description: 'first day, UTC (or the time zone asked), YYYY-MM-DD' }),
    to: Type.String({ description: 'last day, UTC (or the time zone asked), YYYY-MM-DD' }),
    ...ItemFigures,
    ...RawFields,
    previous: PreviousOf(ItemFigures),
  }),
})

/** GET …/stats/live: the last 60 minutes. */
export const LiveStatisticsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    from: Type.String({ description: 'first minute, UTC `YYYY-MM-DD HH:MM:SS`' }),
    to: Type.String({ description: 'end (excluded), UTC: the minute after the current one' }),
    clicks: Type.Integer({ description: 'clicks of the 60 minutes' }),
    minutes: Type.Array(Type.Object({ minute: Type.String({ description: 'UTC `YYYY-MM-DD HH:MM`' }), clicks: Type.Integer() }), { minItems: 60, maxItems: 60, description: 'each of the last 60 minutes, the current one last, zeros included' }),
    filters: FiltersEcho,
  }),
})

/** A link among the most clicked of the range: its clicks are the range's, not all time. */
const TopLink = Type.Object({
  id: Type.Integer(),
  alias: Type.String(),
  shorturl: Type.String(),
  longurl: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  clicks: Type.Integer({ description: 'clicks within the range' }),
  uniqueClicks: Type.Integer({ description: 'unique clicks within the range' }),
  ...ConversionCounts,
})

export const AccountStatisticsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    from: Type.String({ description: 'first day, UTC, YYYY-MM-DD' }),
    to: Type.String({ description: 'last day, UTC, YYYY-MM-DD' }),
    clicks: Type.Integer({ description: "clicks of all the account's links within the range" }),
    uniqueClicks: Type.Integer({ description: "unique clicks of all the account's links within the range" }),
    ...ConversionFigures,
    days: RangeDays,
    totals: Type.Object({
      links: Type.Integer({ description: 'how many links the account has' }),
      clicks: Type.Integer({ description: "all-time clicks of the account's links" }),
      uniqueClicks: Type.Integer({ description: "all-time unique clicks of the account's links" }),
    }, { description: 'all time, from the links\' own counters' }),
    topLinks: Type.Array(TopLink, { maxItems: TOP_LIMIT, description: 'the most clicked links of the range, most first (or by `topby`); links without clicks (or, by `topby`, conversions) in it are absent' }),
    topCountries: Type.Optional(TopList),
    topReferrers: Type.Optional(TopList),
    topBrowsers: Type.Optional(TopList),
    topOs: Type.Optional(TopList),
    topDevices: Type.Optional(TopList),
    topLanguages: Type.Optional(TopList),
    socialCount: Type.Optional(SocialCount),
    ...RawFields,
    previous: PreviousOf({ ...ItemFigures, topLinks: Type.Array(TopLink, { description: 'the current top links\' counts in the previous period, same order' }) }),
  }),
})
