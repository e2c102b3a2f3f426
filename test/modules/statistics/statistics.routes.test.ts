// GET /api/{url|qr|campaign|bio}/{id}/stats: per-day series and top lists between two UTC days.
// Clicks are recorded with chosen times (`at`) so each lands on a known day; all clicks of one
// test go into one flush, since a later batch may prune the daily visitor rows uniqueness uses.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { decodeQrImage } from '../qr-codes/qr-test-support.js'
import { apiClient, useTestApp } from '../../helpers/test-app.js'
import { NO_SOCIAL } from '../../helpers/statistics.js'
import type { ClickEvent, ClickItemType } from '../../../src/analytics/click-items.js'

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const LINUX_FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const US_IP = '8.8.8.8'
const GB_IP = '81.2.69.160'
const DE_IP = '2a00:1450:4001::1'
const DATA_KEYS = ['clicks', 'conversionRates', 'days', 'from', 'leads', 'revenue', 'sales', 'socialCount', 'to', 'topBrowsers', 'topCountries', 'topDevices', 'topLanguages', 'topOs', 'topReferrers', 'uniqueClicks']

type Kind = 'url' | 'qr' | 'campaign' | 'bio'
const ITEM_TYPES: Record<Kind, ClickItemType> = { url: 'link', qr: 'qr', campaign: 'campaign', bio: 'bio' }
let slugCounter = 0

describe('GET /api/{kind}/{id}/stats', () => {
  const { context, owner, api, otherApi } = useTestApp()
  afterEach(() => {
    vi.useRealTimers()
  })

  /** Creates an item through the API; answers its id and the public path whose visits count. */
  async function createItem(kind: Kind, client = api): Promise<{ id: number; path: string }> {
    slugCounter += 1
    const unique = `st${process.pid}x${slugCounter}`
    if (kind === 'url') {
      const created = await client('POST', '/api/url/add', { url: 'https://example.com/landing' })
      expect(created.statusCode).toBe(201)
      return { id: created.data.id, path: new URL(created.data.shorturl).pathname }
    }
    if (kind === 'qr') {
      const created = await client('POST', '/api/qr/add', { type: 'link', data: 'https://example.com/menu' })
      expect(created.statusCode).toBe(201)
      // The tracking address is what the image encodes.
      const image = await context.app.inject({ method: 'GET', url: new URL(created.data.link).pathname })
      return { id: created.data.id, path: new URL((await decodeQrImage(image.rawPayload))!).pathname }
    }
    if (kind === 'campaign') {
      const created = await client('POST', '/api/campaign/add', { name: `Spring ${unique}`, slug: unique })
      expect(created.statusCode).toBe(201)
      const link = await client('POST', '/api/url/add', { url: 'https://example.com/spring' })
      expect((await client('POST', `/api/campaign/${created.data.id}/assign/${link.data.id}`)).statusCode).toBe(200)
      return { id: created.data.id, path: `/r/${unique}` }
    }
    const created = await client('POST', '/api/bio/add', { name: 'My links', alias: unique, blocks: [{ title: 'Blog', url: 'https://blog.example.com/' }] })
    expect(created.statusCode).toBe(201)
    return { id: created.data.id, path: `/${unique}` }
  }

  /** Queues one click of an item at a chosen UTC time (synchronous: clicks recorded together share a batch). */
  function record(kind: Kind, itemId: number, at: string, fields: Partial<ClickEvent> = {}): void {
    context.clicks.record({
      accountId: owner.id,
      itemType: ITEM_TYPES[kind],
      itemId,
      ip: US_IP,
      userAgent: WINDOWS_CHROME,
      referrer: undefined,
      acceptLanguage: 'en-US,en;q=0.9',
      at: new Date(at),
      ...fields,
    })
  }

  async function stats(kind: Kind, id: number, query = '', client = api) {
    await context.clicks.flush()
    return client('GET', `/api/${kind}/${id}/stats${query}`)
  }

  /** The days of a series that have clicks, as `{date: [clicks, uniqueClicks]}`. */
  function activeDays(days: Array<{ date: string; clicks: number; uniqueClicks: number, leads: 0, sales: 0, revenue: {} }>) {
    return Object.fromEntries(days.filter((day) => day.clicks > 0 || day.uniqueClicks > 0).map((day) => [day.date, [day.clicks, day.uniqueClicks]]))
  }

  describe('range', () => {
    it('defaults to the last 30 days ending today (UTC), every day listed oldest first, zero-filled', async () => {
      const { id } = await createItem('url')
      record('url', id, '2026-02-13T23:59:59Z')
      record('url', id, '2026-02-14T00:00:00Z')
      record('url', id, '2026-03-15T23:59:59Z', { ip: GB_IP })
      record('url', id, '2026-03-16T00:00:00Z')
      // Only Date is mocked: the recorder's timer and the database keep real time.
      vi.setSystemTime(new Date('2026-03-15T12:00:00Z'))
      const response = await stats('url', id)
      expect(response.statusCode).toBe(200)
      const { data } = response.data
      expect(data).toMatchObject({ from: '2026-02-14', to: '2026-03-15', clicks: 2, uniqueClicks: 2 })
      expect(data.days).toHaveLength(30)
      expect(data.days[0]).toEqual({ date: '2026-02-14', clicks: 1, uniqueClicks: 1, leads: 0, sales: 0, revenue: {} })
      expect(data.days[1]).toEqual({ date: '2026-02-15', clicks: 0, uniqueClicks: 0, leads: 0, sales: 0, revenue: {} })
      expect(data.days[14]).toEqual({ date: '2026-02-28', clicks: 0, uniqueClicks: 0, leads: 0, sales: 0, revenue: {} })
      expect(data.days[15]).toEqual({ date: '2026-03-01', clicks: 0, uniqueClicks: 0, leads: 0, sales: 0, revenue: {} })
      expect(data.days[29]).toEqual({ date: '2026-03-15', clicks: 1, uniqueClicks: 1, leads: 0, sales: 0, revenue: {} })
      expect(activeDays(data.days)).toEqual({ '2026-02-14': [1, 1], '2026-03-15': [1, 1] })
      expect(data.topCountries).toEqual({ 'United Kingdom': '1', 'United States': '1' })
    })

    it('ends the default range on the real current UTC day', async () => {
      const { id } = await createItem('url')
      const before = new Date().toISOString().slice(0, 10)
      const response = await stats('url', id)
      const after = new Date().toISOString().slice(0, 10)
      const { data } = response.data
      expect([before, after]).toContain(data.to)
      expect(data.from).toBe(new Date(Date.parse(`${data.to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10))
      expect(data.days).toHaveLength(30)
      expect(data.days.map((day: { date: string }) => day.date).at(-1)).toBe(data.to)
      expect(data).toMatchObject({ clicks: 0, uniqueClicks: 0, topCountries: {}, topReferrers: {}, topBrowsers: {}, topOs: {}, topDevices: {}, topLanguages: {}, socialCount: NO_SOCIAL })
    })

    it('counts clicks and unique visitors per day between explicit days, inclusive', async () => {
      const { id } = await createItem('url')
      record('url', id, '2026-01-10T08:00:00Z')
      record('url', id, '2026-01-10T09:00:00Z')
      record('url', id, '2026-01-10T10:00:00Z', { ip: GB_IP })
      record('url', id, '2026-01-10T11:00:00Z', { userAgent: LINUX_FIREFOX })
      record('url', id, '2026-01-12T00:00:00Z')
      record('url', id, '2026-01-12T23:59:59Z')
      record('url', id, '2026-01-08T12:00:00Z')
      record('url', id, '2026-01-13T00:00:00Z')

      const response = await stats('url', id, '?from=2026-01-09&to=2026-01-12')
      expect(response.statusCode).toBe(200)
      const { data } = response.data
      expect(data).toMatchObject({ from: '2026-01-09', to: '2026-01-12', clicks: 6, uniqueClicks: 4 })
      expect(data.days).toEqual([
        { date: '2026-01-09', clicks: 0, uniqueClicks: 0, leads: 0, sales: 0, revenue: {} },
        { date: '2026-01-10', clicks: 4, uniqueClicks: 3, leads: 0, sales: 0, revenue: {} },
        { date: '2026-01-11', clicks: 0, uniqueClicks: 0, leads: 0, sales: 0, revenue: {} },
        { date: '2026-01-12', clicks: 2, uniqueClicks: 1, leads: 0, sales: 0, revenue: {} },
      ])

      const single = (await stats('url', id, '?from=2026-01-10&to=2026-01-10')).data.data
      expect(single).toMatchObject({ from: '2026-01-10', to: '2026-01-10', clicks: 4, uniqueClicks: 3 })
      expect(single.days).toEqual([{ date: '2026-01-10', clicks: 4, uniqueClicks: 3, leads: 0, sales: 0, revenue: {} }])
      expect(single.topCountries).toEqual({ 'United States': '3', 'United Kingdom': '1' })
    })

    it('restricts the top lists and social counts to the range', async () => {
      const { id } = await createItem('url')
      record('url', id, '2026-01-10T08:00:00Z', { ip: GB_IP, userAgent: LINUX_FIREFOX, referrer: 'https://www.facebook.com/groups/1', acceptLanguage: 'fr-CH, fr;q=0.9' })
      record('url', id, '2026-01-11T08:00:00Z', { ip: DE_IP, userAgent: IPHONE, referrer: 'https://t.co/abc', acceptLanguage: 'de-DE' })
      record('url', id, '2026-01-11T09:00:00Z', { ip: '127.0.0.1', userAgent: IPHONE, referrer: 'https://lnkd.in/x', acceptLanguage: undefined })
      record('url', id, '2026-01-20T08:00:00Z', { ip: US_IP, referrer: 'https://www.instagram.com/p/1', acceptLanguage: 'es' })

      const first = (await stats('url', id, '?from=2026-01-10&to=2026-01-10')).data.data
      expect(first).toMatchObject({
        clicks: 1,
        uniqueClicks: 1,
        topCountries: { 'United Kingdom': '1' },
        topReferrers: { 'facebook.com': '1' },
        topBrowsers: { Firefox: '1' },
        topOs: { Linux: '1' },
        topDevices: { desktop: '1' },
        topLanguages: { fr: '1' },
        socialCount: { ...NO_SOCIAL, facebook: 1 },
      })

      const middle = (await stats('url', id, '?from=2026-01-11&to=2026-01-19')).data.data
      expect(middle).toMatchObject({ clicks: 2, uniqueClicks: 2, socialCount: { ...NO_SOCIAL, twitter: 1, linkedin: 1 } })
      expect(middle.topCountries).toEqual({ Germany: '1', Unknown: '1' })
      expect(middle.topReferrers).toEqual({ 'lnkd.in': '1', 't.co': '1' })
      expect(middle.topBrowsers).toEqual({ 'Mobile Safari': '2' })
      expect(middle.topOs).toEqual({ iOS: '2' })
      expect(middle.topDevices).toEqual({ mobile: '2' })
      expect(middle.topLanguages).toEqual({ de: '1', Unknown: '1' })

      const all = (await stats('url', id, '?from=2026-01-01&to=2026-01-31')).data.data
      expect(all).toMatchObject({ clicks: 4, uniqueClicks: 4, socialCount: { facebook: 1, twitter: 1, instagram: 1, linkedin: 1 } })
      // Highest count first; ties in the order of the stored value ('' < 'DE' < 'GB' < 'US').
      expect(Object.entries(all.topCountries)).toEqual([['Unknown', '1'], ['Germany', '1'], ['United Kingdom', '1'], ['United States', '1']])
      expect(Object.entries(all.topBrowsers)).toEqual([['Mobile Safari', '2'], ['Chrome', '1'], ['Firefox', '1']])
      expect(Object.entries(all.topDevices)).toEqual([['desktop', '2'], ['mobile', '2']])
      expect(all.topReferrers).toEqual({ 'facebook.com': '1', 'instagram.com': '1', 'lnkd.in': '1', 't.co': '1' })

      const outside = (await stats('url', id, '?from=2026-01-12&to=2026-01-19')).data.data
      expect(outside).toMatchObject({ clicks: 0, uniqueClicks: 0, topCountries: {}, topReferrers: {}, topBrowsers: {}, topOs: {}, topDevices: {}, topLanguages: {}, socialCount: NO_SOCIAL })
      expect(outside.days).toHaveLength(8)
    })

    it('answers exactly the documented keys', async () => {
      const { id } = await createItem('url')
      record('url', id, '2026-01-10T08:00:00Z', { referrer: 'https://x.com/post' })
      const response = await stats('url', id, '?from=2026-01-10&to=2026-01-11')
      expect(Object.keys(response.data).sort()).toEqual(['data', 'error'])
      expect(response.data.error).toBe(0)
      expect(Object.keys(response.data.data).sort()).toEqual(DATA_KEYS)
      expect(Object.keys(response.data.data.days[0]).sort()).toEqual(['clicks', 'date', 'leads', 'revenue', 'sales', 'uniqueClicks'])
      expect(Object.keys(response.data.data.socialCount).sort()).toEqual(['facebook', 'instagram', 'linkedin', 'twitter'])
      expect(response.data.data.socialCount.twitter).toBe(1)
    })
  })

  describe('validation', () => {
    const DATE_RULE = 'must be a date YYYY-MM-DD.'
    it.each([
      ['?from=2026-1-01', 'from', DATE_RULE],
      ['?to=yesterday', 'to', DATE_RULE],
      ['?to=2026-13-01', 'to', DATE_RULE],
      ['?from=2026-02-30&to=2026-03-01', 'from', DATE_RULE],
      ['?from=2026-01-01&to=2025-02-29', 'to', DATE_RULE],
      ['?from=2026-01-02&to=2026-01-01', 'from', 'must not be after "to" (2026-01-01).'],
      ['?from=2025-01-01&to=2026-01-02', 'to', 'must be at most 366 days; it is 367.'],
    ])('rejects %s with a 400 naming "%s"', async (query, field, rule) => {
      const { id } = await createItem('url')
      const response = await stats('url', id, query)
      expect(response.statusCode).toBe(400)
      expect(response.data).toEqual({ error: 1, message: expect.stringContaining(`"${field}"`), code: 'validation_failed', field })
      expect(response.data.message.endsWith(` ${rule}`)).toBe(true)
    })

    it('accepts a range of 366 days and rejects 367', async () => {
      const { id } = await createItem('url')
      const longest = await stats('url', id, '?from=2025-01-01&to=2026-01-01')
      expect(longest.statusCode).toBe(200)
      expect(longest.data.data.days).toHaveLength(366)
      expect(longest.data.data.days.at(-1)).toEqual({ date: '2026-01-01', clicks: 0, uniqueClicks: 0, leads: 0, sales: 0, revenue: {} })
      const leapYear = await stats('url', id, '?from=2024-01-01&to=2024-12-31')
      expect(leapYear.data.data.days).toHaveLength(366)
      expect(leapYear.data.data.days[59].date).toBe('2024-02-29')
      const tooLong = await stats('url', id, '?from=2024-01-01&to=2025-01-01')
      expect(tooLong.statusCode).toBe(400)
      expect(tooLong.data).toEqual({ error: 1, message: 'The range from "from" to "to" must be at most 366 days; it is 367.', code: 'validation_failed', field: 'to' })
    })
  })

  describe.each(['url', 'qr', 'campaign', 'bio'] as const)('/api/%s/{id}/stats', (kind) => {
    const notFound = { url: 'Link', qr: 'QR code', campaign: 'Campaign', bio: 'Bio page' }[kind]

    it('counts the clicks of the item, and only of it', async () => {
      const item = await createItem(kind)
      const neighbour = await createItem(kind)
      record(kind, item.id, '2026-01-10T08:00:00Z', { userAgent: IPHONE, acceptLanguage: 'it-IT' })
      record(kind, item.id, '2026-01-10T09:00:00Z', { userAgent: IPHONE, acceptLanguage: 'it-IT' })
      record(kind, neighbour.id, '2026-01-10T09:00:00Z')
      const response = await stats(kind, item.id, '?from=2026-01-10&to=2026-01-10')
      expect(response.statusCode).toBe(200)
      expect(response.data.data).toMatchObject({ clicks: 2, uniqueClicks: 1, topDevices: { mobile: '2' }, topLanguages: { it: '2' } })
    })

    it('counts a visit of its public address by a browser', async () => {
      const item = await createItem(kind)
      const visit = await context.app.inject({ method: 'GET', url: item.path, headers: { 'user-agent': LINUX_FIREFOX } })
      expect(visit.statusCode).toBe(kind === 'bio' ? 200 : 302)
      const { data } = (await stats(kind, item.id)).data
      // The visit is today's or, right at midnight, yesterday's: both are in the default range.
      expect(data).toMatchObject({ clicks: 1, uniqueClicks: 1, topBrowsers: { Firefox: '1' }, topOs: { Linux: '1' }, topCountries: { Unknown: '1' } })
      expect(data.days.reduce((total: number, day: { clicks: number }) => total + day.clicks, 0)).toBe(1)
    })

    it("answers 404 for an unknown id and for another account's item, with the same message", async () => {
      const theirs = await createItem(kind, otherApi)
      record(kind, theirs.id, '2026-01-10T08:00:00Z')
      const expected = { error: 1, message: `${notFound} not found. Please try again.`, code: 'not_found' }
      for (const id of [theirs.id, 987654321]) {
        const response = await stats(kind, id, '?from=2026-01-10&to=2026-01-10')
        expect(response.statusCode).toBe(404)
        expect(response.data).toEqual(expected)
      }
      expect((await stats(kind, theirs.id, '?from=2026-01-10&to=2026-01-10', otherApi)).data.data.clicks).toBe(1)
    })

    it('answers 401 without an API key', async () => {
      const item = await createItem(kind)
      const response = await stats(kind, item.id, '', apiClient(context.app, null))
      expect(response.statusCode).toBe(401)
      expect(response.data).toEqual({ error: 1, message: 'A valid API key is required to use this service.', code: 'invalid_api_key' })
    })
  })
})
