// Schemas of the statistics endpoints (beyond the spec): a range of days and the per-day answer.
import { Type } from 'typebox'

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: 'must be a date YYYY-MM-DD' })

export const StatisticsRangeQuery = Type.Object({
  from: Type.Optional(Day),
  to: Type.Optional(Day),
})

/** spec: top lists map a label to a count written as a string, highest count first. */
export const TopList = Type.Record(Type.String(), Type.String())

/** decisions §7: clicks referred by each social network. */
export const SocialCount = Type.Object({ facebook: Type.Integer(), twitter: Type.Integer(), instagram: Type.Integer(), linkedin: Type.Integer() })

export const StatisticsRangeResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    from: Type.String({ description: 'first day, UTC, YYYY-MM-DD' }),
    to: Type.String({ description: 'last day, UTC, YYYY-MM-DD' }),
    clicks: Type.Integer(),
    uniqueClicks: Type.Integer(),
    days: Type.Array(Type.Object({ date: Type.String(), clicks: Type.Integer(), uniqueClicks: Type.Integer() }), { description: 'every day of the range, oldest first' }),
    topCountries: TopList,
    topReferrers: TopList,
    topBrowsers: TopList,
    topOs: TopList,
    topDevices: TopList,
    topLanguages: TopList,
    socialCount: SocialCount,
  }),
})
