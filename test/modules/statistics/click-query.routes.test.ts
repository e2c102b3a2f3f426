// Statistics from the raw clicks (issue 24, ADR 022; modules/statistics/click-query.ts): filters
// (one, several, several values), granularities, time zones across DST changes, compare=previous,
// the live minutes, every refusal, and the aggregates' answers unchanged. A few hundred clicks are
// written directly (raw rows and aggregates, as the writer does) with known fields and times, and
// every expected figure is counted here from the same list.
import { beforeAll, describe, expect, it } from 'vitest'
import { writeEnrichedClicks, type EnrichedClick } from '../../../src/analytics/click-writer.js'
import { nowTimestamp } from '../../../src/core/time.js'
import { useTestApp } from '../../helpers/test-app.js'

const COUNTRIES = ['DE', 'FR', 'US', null] as const
const REFERRERS = ['twitter.com', 'google.com', null, 'l.facebook.com', 't.co'] as const
const BROWSERS = ['Chrome', 'Firefox', 'Safari'] as const

interface Seeded {
  itemId: number
  createdAt: string
  country: string | null
  referrerHost: string | null
  browser: string
  isUnique: boolean
}

describe('statistics from the raw clicks', () => {
  const { context, owner, api, otherApi } = useTestApp()
  const seeded: Seeded[] = []
  let linkA: number
  let linkB: number
  let campaignId: number
  let channelId: number

  /** Clicks of March 2026 spread over hours, countries, referrers and browsers, on two links. */
  function spread(): Seeded[] {
    const clicks: Seeded[] = []
    for (let index = 0; index < 300; index += 1) {
      const time = Date.UTC(2026, 2, 1) + index * 7 * 3_600_000 + (index % 4) * 900_000
      clicks.push({
        itemId: index % 4 === 0 ? linkB : linkA,
        createdAt: nowTimestamp(new Date(time)),
        country: COUNTRIES[index % 4]!,
        referrerHost: REFERRERS[index % 5]!,
        browser: BROWSERS[index % 3]!,
        isUnique: index % 2 === 0,
      })
    }
    return clicks
  }

  async function write(clicks: Seeded[]): Promise<void> {
    const enriched: EnrichedClick[] = clicks.map((click, index) => ({
      accountId: owner.id,
      itemType: 'link',
      itemId: click.itemId,
      createdAt: click.createdAt,
      referrerHost: click.referrerHost,
      language: 'en',
      visitorHash: `visitor-${seeded.length + index}`,
      country: click.country,
      agent: { browser: click.browser, os: 'Windows', device: 'Desktop' },
      isUnique: click.isUnique,
    }))
    await context.database.db.transaction().execute((trx) => writeEnrichedClicks(trx, enriched))
    seeded.push(...clicks)
  }

  /** Seeded clicks in [from, to) UTC text, matching `where`. */
  function count(from: string, to: string, where: (click: Seeded) => boolean = () => true): number {
    return seeded.filter((click) => click.createdAt >= from && click.createdAt < to && where(click)).length
  }

  beforeAll(async () => {
    linkA = (await api('POST', '/api/url/add', { url: 'https://example.com/a' })).data.id
    const b = await api('POST', '/api/url/add', { url: 'https://example.com/b', tags: ['Promo'] })
    expect(b.statusCode).toBe(201)
    linkB = b.data.id
    campaignId = (await api('POST', '/api/campaign/add', { name: `Spring ${process.pid}`, slug: `spring${process.pid}` })).data.id
    expect((await api('POST', `/api/campaign/${campaignId}/assign/${linkB}`)).statusCode).toBe(200)
    channelId = (await api('POST', '/api/channel/add', { name: 'Socials' })).data.id
    expect((await api('POST', `/api/channel/${channelId}/assign/links/${linkB}`)).statusCode).toBe(200)
    await write(spread())
    // Around Europe/Berlin's DST changes: 29 March 2026 (23 hours) and 25 October 2026 (25 hours).
    const at = (createdAt: string): Seeded => ({ itemId: linkA, createdAt, country: 'DE', referrerHost: null, browser: 'Chrome', isUnique: false })
    await write(['2026-03-28 22:59:59', '2026-03-28 23:00:00', '2026-03-29 00:30:00', '2026-03-29 01:30:00', '2026-03-29 21:59:59', '2026-03-29 22:00:00'].map(at))
    await write(['2026-10-24 21:59:59', '2026-10-24 22:00:00', '2026-10-25 00:30:00', '2026-10-25 01:30:00', '2026-10-25 22:59:59', '2026-10-25 23:00:00'].map(at))
  })

  const link = (query: string) => api('GET', `/api/url/${linkA}/stats?${query}`)
  const workspace = (query: string) => api('GET', `/api/stats?${query}`)
  const MARCH = { from: '2026-03-01 00:00:00', to: '2026-04-01 00:00:00' }
  const ofA = (click: Seeded) => click.itemId === linkA

  describe('filters', () => {
    it('one filter with one value counts the clicks that match, in every figure', async () => {
      const response = await link('from=2026-03-01&to=2026-03-31&country=DE')
      expect(response.statusCode).toBe(200)
      const expected = count(MARCH.from, MARCH.to, (click) => ofA(click) && click.country === 'DE')
      expect(response.data.data.clicks).toBe(expected)
      expect(response.data.data.topCountries).toEqual({ Germany: String(expected) })
      expect(response.data.data.series.reduce((sum: number, day: { clicks: number }) => sum + day.clicks, 0)).toBe(expected)
      expect(response.data.data.filters).toEqual({ country: ['DE'] })
      expect(response.data.data.granularity).toBe('day')
      expect(response.data.data.timeZone).toBe('UTC')
    })

    it('several filters combine and several values of one are alternatives', async () => {
      const response = await link('from=2026-03-01&to=2026-03-31&country=DE,FR&referrer=twitter.com,Direct&browser=Chrome')
      const where = (click: Seeded) => ofA(click) && ['DE', 'FR'].includes(click.country ?? '') && (click.referrerHost === 'twitter.com' || click.referrerHost === null) && click.browser === 'Chrome'
      expect(response.statusCode).toBe(200)
      expect(response.data.data.clicks).toBe(count(MARCH.from, MARCH.to, where))
      expect(response.data.data.uniqueClicks).toBe(count(MARCH.from, MARCH.to, (click) => where(click) && click.isUnique))
      const browsers = response.data.data.topBrowsers
      expect(Object.keys(browsers)).toEqual(['Chrome'])
    })

    it('country names as top lists show them, Unknown and Direct filter too', async () => {
      const byName = await link('from=2026-03-01&to=2026-03-31&country=Germany')
      const byCode = await link('from=2026-03-01&to=2026-03-31&country=de')
      expect(byName.data.data.clicks).toBe(byCode.data.data.clicks)
      const unknown = await link('from=2026-03-01&to=2026-03-31&country=Unknown&referrer=Direct')
      expect(unknown.data.data.clicks).toBe(count(MARCH.from, MARCH.to, (click) => ofA(click) && click.country === null && click.referrerHost === null))
      expect(unknown.data.data.clicks).toBeGreaterThan(0)
    })

    it('social counts follow the filters', async () => {
      const response = await link('from=2026-03-01&to=2026-03-31&browser=Firefox')
      const where = (host: string) => (click: Seeded) => ofA(click) && click.browser === 'Firefox' && click.referrerHost === host
      expect(response.data.data.socialCount).toEqual({
        facebook: count(MARCH.from, MARCH.to, where('l.facebook.com')),
        twitter: count(MARCH.from, MARCH.to, where('twitter.com')) + count(MARCH.from, MARCH.to, where('t.co')),
        instagram: 0,
        linkedin: 0,
      })
    })

    it('the workspace filters by link, campaign, channel and tag', async () => {
      const ofB = (click: Seeded) => click.itemId === linkB
      const expectedB = count(MARCH.from, MARCH.to, ofB)
      for (const query of [`link=${linkB}`, `campaign=${campaignId}`, `channel=${channelId}`, 'tag=promo', 'tag=Promo,other']) {
        const response = await workspace(`from=2026-03-01&to=2026-03-31&${query}`)
        expect(response.statusCode, query).toBe(200)
        expect(response.data.data.clicks, query).toBe(expectedB)
        expect(response.data.data.topLinks.map((row: { id: number }) => row.id), query).toEqual([linkB])
      }
      const both = await workspace(`from=2026-03-01&to=2026-03-31&link=${linkA},${linkB}&country=US`)
      expect(both.data.data.clicks).toBe(count(MARCH.from, MARCH.to, (click) => click.country === 'US'))
      expect(both.data.data.topCountries).toEqual({ 'United States': String(both.data.data.clicks) })
    })

    it('another account sees none of these clicks, and cannot read the item', async () => {
      expect((await otherApi('GET', `/api/stats?from=2026-03-01&to=2026-03-31&country=DE`)).data.data.clicks).toBe(0)
      expect((await otherApi('GET', `/api/url/${linkA}/stats?country=DE`)).statusCode).toBe(404)
    })
  })

  describe('granularity and time zones', () => {
    it('hours, weeks and months bucket the same clicks', async () => {
      const total = count('2026-03-02 00:00:00', '2026-03-16 00:00:00', ofA)
      const hours = await link('from=2026-03-02&to=2026-03-15&granularity=hour')
      expect(hours.data.data.series).toHaveLength(14 * 24)
      expect(hours.data.data.series[0]).toEqual(expect.objectContaining({ date: '2026-03-02 00:00', start: '2026-03-02 00:00:00' }))
      expect(hours.data.data.series.reduce((sum: number, entry: { clicks: number }) => sum + entry.clicks, 0)).toBe(total)
      const hour = hours.data.data.series.find((entry: { start: string }) => entry.start === '2026-03-05 06:00:00')
      expect(hour.clicks).toBe(count('2026-03-05 06:00:00', '2026-03-05 07:00:00', ofA))
      // 2 to 15 March 2026: two weeks from Monday.
      const weeks = await link('from=2026-03-02&to=2026-03-15&granularity=week')
      expect(weeks.data.data.series.map((entry: { date: string; clicks: number }) => [entry.date, entry.clicks])).toEqual([
        ['2026-03-02', count('2026-03-02 00:00:00', '2026-03-09 00:00:00', ofA)],
        ['2026-03-09', count('2026-03-09 00:00:00', '2026-03-16 00:00:00', ofA)],
      ])
      expect(weeks.data.data.days).toHaveLength(14)
      const months = await link('from=2026-02-15&to=2026-04-10&granularity=month')
      expect(months.data.data.series.map((entry: { date: string; start: string }) => [entry.date, entry.start])).toEqual([
        ['2026-02', '2026-02-15 00:00:00'], ['2026-03', '2026-03-01 00:00:00'], ['2026-04', '2026-04-01 00:00:00'],
      ])
      expect(months.data.data.series[1].clicks).toBe(count(MARCH.from, MARCH.to, ofA))
    })

    it('a Europe/Berlin day is 23 hours when the clocks go forward and 25 when they go back', async () => {
      const spring = await link('from=2026-03-29&to=2026-03-29&granularity=hour&tz=Europe/Berlin')
      expect(spring.statusCode).toBe(200)
      expect(spring.data.data.series).toHaveLength(23)
      expect(spring.data.data.series[0]).toEqual(expect.objectContaining({ date: '2026-03-29 00:00', start: '2026-03-28 23:00:00' }))
      expect(spring.data.data.series.map((entry: { date: string }) => entry.date)).not.toContain('2026-03-29 02:00')
      // The day is 23:00 UTC on the 28th to 22:00 UTC on the 29th.
      expect(spring.data.data.clicks).toBe(count('2026-03-28 23:00:00', '2026-03-29 22:00:00', ofA))
      const day = await link('from=2026-03-29&to=2026-03-29&tz=Europe/Berlin')
      expect(day.data.data.series).toEqual([{ date: '2026-03-29', start: '2026-03-28 23:00:00', clicks: day.data.data.clicks, uniqueClicks: day.data.data.uniqueClicks, leads: 0, sales: 0, revenue: {} }])
      expect(day.data.data.clicks).toBe(spring.data.data.clicks)

      const autumn = await link('from=2026-10-25&to=2026-10-25&granularity=hour&tz=Europe/Berlin')
      expect(autumn.data.data.series).toHaveLength(25)
      // 02:00 happens twice: two buckets, an hour apart.
      expect(autumn.data.data.series.filter((entry: { date: string }) => entry.date === '2026-10-25 02:00').map((entry: { start: string }) => entry.start)).toEqual(['2026-10-25 00:00:00', '2026-10-25 01:00:00'])
      expect(autumn.data.data.clicks).toBe(count('2026-10-24 22:00:00', '2026-10-25 23:00:00', ofA))
      expect(autumn.data.data.clicks).toBe(4)
    })

    it('a zone whose offset is not whole hours buckets by its own clock hours', async () => {
      const response = await link('from=2026-03-05&to=2026-03-05&granularity=hour&tz=Asia/Kolkata')
      expect(response.data.data.series).toHaveLength(24)
      expect(response.data.data.series[0].start).toBe('2026-03-04 18:30:00')
      expect(response.data.data.clicks).toBe(count('2026-03-04 18:30:00', '2026-03-05 18:30:00', ofA))
      for (const entry of response.data.data.series as Array<{ start: string; clicks: number }>) {
        const end = nowTimestamp(new Date(Date.parse(`${entry.start.replace(' ', 'T')}Z`) + 3_600_000))
        expect(entry.clicks, entry.start).toBe(count(entry.start, end, ofA))
      }
    })

    it("the workspace's stored zone is the default, set through the account's update", async () => {
      expect((await api('GET', '/api/account/settings')).data.data.timezone).toBe('UTC')
      expect((await api('PUT', '/api/account/update', { timezone: 'europe/berlin' })).statusCode).toBe(200)
      expect((await api('GET', '/api/account/settings')).data.data.timezone).toBe('Europe/Berlin')
      const response = await link('from=2026-03-29&to=2026-03-29&granularity=hour')
      expect(response.data.data.timeZone).toBe('Europe/Berlin')
      expect(response.data.data.series).toHaveLength(23)
      const refused = await api('PUT', '/api/account/update', { timezone: 'Mars/Olympus' })
      expect(refused.statusCode).toBe(400)
      expect(refused.data).toEqual(expect.objectContaining({ error: 1, field: 'timezone' }))
      expect((await api('PUT', '/api/account/update', { timezone: 'UTC' })).statusCode).toBe(200)
    })
  })

  describe('compare=previous', () => {
    it('answers the period of the same length before, beside each figure', async () => {
      const response = await link('from=2026-03-15&to=2026-03-28&compare=previous&browser=Chrome')
      expect(response.statusCode).toBe(200)
      const { data } = response.data
      const chrome = (click: Seeded) => ofA(click) && click.browser === 'Chrome'
      expect(data.previous.from).toBe('2026-03-01')
      expect(data.previous.to).toBe('2026-03-14')
      expect(data.clicks).toBe(count('2026-03-15 00:00:00', '2026-03-29 00:00:00', chrome))
      expect(data.previous.clicks).toBe(count('2026-03-01 00:00:00', '2026-03-15 00:00:00', chrome))
      expect(data.previous.series).toHaveLength(14)
      expect(data.previous.series[0].date).toBe('2026-03-01')
      // The previous top lists count the current lists' values, in their order.
      expect(Object.keys(data.previous.topCountries)).toEqual(Object.keys(data.topCountries))
      expect(data.previous.topCountries.Germany).toBe(String(count('2026-03-01 00:00:00', '2026-03-15 00:00:00', (click) => chrome(click) && click.country === 'DE')))
    })

    it("the workspace's previous top links are the current ones' counts", async () => {
      const response = await workspace('from=2026-03-15&to=2026-03-28&compare=previous')
      const { data } = response.data
      expect(data.previous.topLinks.map((row: { id: number }) => row.id)).toEqual(data.topLinks.map((row: { id: number }) => row.id))
      expect(data.previous.topLinks.find((row: { id: number }) => row.id === linkB).clicks).toBe(count('2026-03-01 00:00:00', '2026-03-15 00:00:00', (click) => click.itemId === linkB))
      expect(data.previous.topLinks[0].shorturl).toMatch(/^https?:\/\//)
    })
  })

  describe('unchanged without the new parameters', () => {
    it('an item answers from the aggregates what the raw clicks answer in UTC', async () => {
      const plain = await link('from=2026-03-01&to=2026-03-31')
      const raw = await link('from=2026-03-01&to=2026-03-31&tz=UTC')
      expect(Object.keys(plain.data.data).sort()).toEqual(['clicks', 'conversionRates', 'days', 'from', 'leads', 'revenue', 'sales', 'socialCount', 'to', 'topBrowsers', 'topCountries', 'topDevices', 'topLanguages', 'topOs', 'topReferrers', 'uniqueClicks'])
      const { granularity: _g, timeZone: _t, filters: _f, series, ...sameFields } = raw.data.data
      expect(sameFields).toEqual(plain.data.data)
      expect(series).toEqual(plain.data.data.days.map((day: object, index: number) => ({ ...day, start: `${series[index].date} 00:00:00` })))
    })

    it('the workspace answers from the aggregates what the raw clicks answer in UTC', async () => {
      const plain = await workspace('from=2026-03-01&to=2026-03-31')
      const raw = await workspace('from=2026-03-01&to=2026-03-31&tz=UTC')
      expect(Object.keys(plain.data.data).sort()).toEqual(['clicks', 'conversionRates', 'days', 'from', 'leads', 'revenue', 'sales', 'to', 'topLinks', 'totals', 'uniqueClicks'])
      for (const field of ['from', 'to', 'clicks', 'uniqueClicks', 'days', 'totals', 'topLinks']) expect(raw.data.data[field], field).toEqual(plain.data.data[field])
    })
  })

  describe('live', () => {
    it('answers the last 60 minutes per minute, zeros included, for an item and the workspace', async () => {
      const now = Date.now()
      const recent = nowTimestamp(new Date(now - 5 * 60_000))
      await write([
        { itemId: linkA, createdAt: recent, country: 'DE', referrerHost: null, browser: 'Chrome', isUnique: true },
        { itemId: linkA, createdAt: recent, country: 'FR', referrerHost: null, browser: 'Chrome', isUnique: false },
        { itemId: linkB, createdAt: recent, country: 'DE', referrerHost: null, browser: 'Chrome', isUnique: true },
        { itemId: linkA, createdAt: nowTimestamp(new Date(now - 90 * 60_000)), country: 'DE', referrerHost: null, browser: 'Chrome', isUnique: true },
      ])
      const item = await api('GET', `/api/url/${linkA}/stats/live`)
      expect(item.statusCode).toBe(200)
      expect(item.data.data.minutes).toHaveLength(60)
      expect(item.data.data.clicks).toBe(2)
      expect(item.data.data.minutes.find((entry: { minute: string }) => entry.minute === recent.slice(0, 16)).clicks).toBe(2)
      expect(item.data.data.minutes.filter((entry: { clicks: number }) => entry.clicks === 0)).toHaveLength(59)
      expect((await api('GET', `/api/url/${linkA}/stats/live?country=DE`)).data.data.clicks).toBe(1)
      expect((await api('GET', '/api/stats/live')).data.data.clicks).toBe(3)
      expect((await api('GET', `/api/stats/live?link=${linkB}`)).data.data.clicks).toBe(1)
      expect((await api('GET', `/api/qr/${linkA}/stats/live`)).statusCode).toBe(404)
      expect((await otherApi('GET', '/api/stats/live')).data.data.clicks).toBe(0)
    })
  })

  describe('refusals', () => {
    const CASES: Array<[string, string, string]> = [
      ['an unknown filter', 'colour=red', 'colour'],
      ['a workspace filter on an item', 'campaign=1', 'campaign'],
      ['more than 20 values', `country=${Array.from({ length: 21 }, (_, index) => `C${String.fromCharCode(65 + index)}`).join(',')}`, 'country'],
      ['an empty value', 'browser=Chrome,', 'browser'],
      ['a range over 366 days', 'from=2025-01-01&to=2026-03-01&country=DE', 'to'],
      ['an unknown time zone', 'tz=Mars/Olympus', 'tz'],
      ['hours over 31 days', 'from=2026-01-01&to=2026-02-01&granularity=hour', 'granularity'],
      ['an unknown granularity', 'granularity=minute', 'granularity'],
      ['an unknown comparison', 'compare=last-year', 'compare'],
      ['a country that is none', 'country=Atlantis', 'country'],
    ]
    it.each(CASES)('refuses %s with a 400 naming the parameter', async (_name, query, field) => {
      const response = await link(query)
      expect(response.statusCode).toBe(400)
      expect(response.data).toEqual(expect.objectContaining({ error: 1, code: 'validation_failed', field }))
      expect(response.data.message).toContain(`"${field}"`)
    })

    it('refuses bad ids and unknown names on the workspace and live endpoints', async () => {
      for (const [url, field] of [['/api/stats?link=abc', 'link'], ['/api/stats?tz=Nowhere', 'tz'], ['/api/stats/live?granularity=hour', 'granularity'], [`/api/url/${linkA}/stats/live?tag=x`, 'tag'], ['/api/stats?compare=previous&channel=0', 'channel']] as const) {
        const response = await api('GET', url)
        expect(response.statusCode, url).toBe(400)
        expect(response.data.field, url).toBe(field)
      }
    })
  })
})
