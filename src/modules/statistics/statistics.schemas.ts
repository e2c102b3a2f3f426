// Schemas of the statistics endpoints (beyond the spec): a range of days and the per-day answer.
import { Type } from 'typebox'
import { TOP_LIMIT } from './statistics.repository.js'

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: 'must be a date YYYY-MM-DD' })

export const StatisticsRangeQuery = Type.Object({
  from: Type.Optional(Day),
  to: Type.Optional(Day),
})

/** spec: top lists map a label to a count written as a string, highest count first. */
export const TopList = Type.Record(Type.String(), Type.String())

/** decisions §7: clicks referred by each social network. */
export const SocialCount = Type.Object({ facebook: Type.Integer(), twitter: Type.Integer(), instagram: Type.Integer(), linkedin: Type.Integer() })

const RangeDays = Type.Array(Type.Object({ date: Type.String(), clicks: Type.Integer(), uniqueClicks: Type.Integer() }), { description: 'every day of the range, oldest first' })

export const StatisticsRangeResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    from: Type.String({ description: 'first day, UTC, YYYY-MM-DD' }),
    to: Type.String({ description: 'last day, UTC, YYYY-MM-DD' }),
    clicks: Type.Integer(),
    uniqueClicks: Type.Integer(),
    days: RangeDays,
    topCountries: TopList,
    topReferrers: TopList,
    topBrowsers: TopList,
    topOs: TopList,
    topDevices: TopList,
    topLanguages: TopList,
    socialCount: SocialCount,
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
})

export const AccountStatisticsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    from: Type.String({ description: 'first day, UTC, YYYY-MM-DD' }),
    to: Type.String({ description: 'last day, UTC, YYYY-MM-DD' }),
    clicks: Type.Integer({ description: "clicks of all the account's links within the range" }),
    uniqueClicks: Type.Integer({ description: "unique clicks of all the account's links within the range" }),
    days: RangeDays,
    totals: Type.Object({
      links: Type.Integer({ description: 'how many links the account has' }),
      clicks: Type.Integer({ description: "all-time clicks of the account's links" }),
      uniqueClicks: Type.Integer({ description: "all-time unique clicks of the account's links" }),
    }, { description: 'all time, from the links\' own counters' }),
    topLinks: Type.Array(TopLink, { maxItems: TOP_LIMIT, description: 'the most clicked links of the range, most first; links without clicks in it are absent' }),
  }),
})
