// GET /api/stats: every link of the account per day between two UTC days, its links' all-time
// totals and the range's top links. Clicks are recorded with chosen times so each lands on a known
// day, and each account's clicks go into one flush (a later batch may prune the daily visitor
// rows uniqueness uses).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ClickEvent } from '../../../src/analytics/click-items.js'
import { createAccount, createDomain, createLink, uniqueAlias } from '../../helpers/factories.js'
import { apiClient, PUBLIC_URL, useTestApp, type TestAccount } from '../../helpers/test-app.js'

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const US_IP = '8.8.8.8'
const GB_IP = '81.2.69.160'
const DE_IP = '2a00:1450:4001::1'
const DATA_KEYS = ['clicks', 'conversionRates', 'days', 'from', 'leads', 'revenue', 'sales', 'to', 'topLinks', 'totals', 'uniqueClicks']

describe('GET /api/stats', () => {
  const { context, owner, other, api, otherApi } = useTestApp()
  const links: Record<string, { id: number; alias: string }> = {}
  let brandedOrigin: string

  afterEach(() => {
    vi.useRealTimers()
  })

  /** Queues one click of a link at a chosen UTC time; synchronous, so clicks queued together share a batch. */
  function record(account: TestAccount, itemId: number, at: string, fields: Partial<ClickEvent> = {}): void {
    context.clicks.record({
      accountId: account.id,
      itemType: 'link',
      itemId,
      ip: US_IP,
      userAgent: WINDOWS_CHROME,
      referrer: undefined,
      acceptLanguage: 'en-US',
      at: new Date(at),
      ...fields,
    })
  }

  async function stats(query = '', client = api) {
    await context.clicks.flush()
    return client('GET', `/api/stats${query}`)
  }

  beforeAll(async () => {
    const domain = await createDomain(context, owner)
    brandedOrigin = domain.origin
    links.main = await createLink(context, owner, { custom: uniqueAlias('main'), metatitle: 'Main page' })
    links.branded = await createLink(context, owner, { custom: uniqueAlias('branded'), domain: domain.id, url: 'https://example.com/branded' })
    links.unclicked = await createLink(context, owner)
    links.foreign = await createLink(context, other)

    record(owner, links.main.id, '2026-01-08T12:00:00Z')
    record(owner, links.main.id, '2026-01-10T08:00:00Z')
    record(owner, links.main.id, '2026-01-10T09:00:00Z')
    record(owner, links.main.id, '2026-01-10T10:00:00Z', { ip: GB_IP })
    record(owner, links.main.id, '2026-01-12T23:59:59Z')
    record(owner, links.branded.id, '2026-01-10T12:00:00Z', { ip: DE_IP })
    record(owner, links.branded.id, '2026-01-11T00:00:00Z')
    record(owner, links.branded.id, '2026-01-11T01:00:00Z', { ip: GB_IP })
    // Ids are per table: a QR code may share a link's id, and its scans are not the link's clicks.
    record(owner, links.main.id, '2026-01-10T11:00:00Z', { itemType: 'qr' })
    for (let index = 0; index < 5; index += 1) record(other, links.foreign.id, '2026-01-10T12:00:00Z', { ip: `203.0.113.${index + 1}` })
    await context.clicks.flush()
  })

  it('answers the documented keys, every day of the range zero-filled, oldest first', async () => {
    const response = await stats('?from=2026-01-09&to=2026-01-12')
    expect(response.statusCode).toBe(200)
    expect(response.data.error).toBe(0)
    const { data } = response.data
    expect(Object.keys(data).sort()).toEqual(DATA_KEYS)
    expect(data).toMatchObject({ from: '2026-01-09', to: '2026-01-12', clicks: 7, uniqueClicks: 6 })
    expect(data.days).toEqual([
      { date: '2026-01-09', clicks: 0, uniqueClicks: 0, leads: 0, sales: 0, revenue: {} },
      { date: '2026-01-10', clicks: 4, uniqueClicks: 3, leads: 0, sales: 0, revenue: {} },
      { date: '2026-01-11', clicks: 2, uniqueClicks: 2, leads: 0, sales: 0, revenue: {} },
      { date: '2026-01-12', clicks: 1, uniqueClicks: 1, leads: 0, sales: 0, revenue: {} },
    ])
  })

  it("totals the account's links all time, from their own counters", async () => {
    const { data } = (await stats('?from=2026-01-11&to=2026-01-11')).data
    // The click of the 8th lies outside the range but counts all time.
    expect(data.totals).toEqual({ links: 3, clicks: 8, uniqueClicks: 7 })
  })

  it('lists the range\'s most clicked links with their short URLs and range counts; links without clicks are absent', async () => {
    const { data } = (await stats('?from=2026-01-09&to=2026-01-12')).data
    expect(data.topLinks).toEqual([
      { id: links.main!.id, alias: links.main!.alias, shorturl: `${PUBLIC_URL}/${links.main!.alias}`, longurl: 'https://example.com/landing', title: 'Main page', clicks: 4, uniqueClicks: 3, leads: 0, sales: 0, revenue: {} },
      { id: links.branded!.id, alias: links.branded!.alias, shorturl: `${brandedOrigin}/${links.branded!.alias}`, longurl: 'https://example.com/branded', title: null, clicks: 3, uniqueClicks: 3, leads: 0, sales: 0, revenue: {} },
    ])
    const lastDay = (await stats('?from=2026-01-11&to=2026-01-12')).data.data
    expect(lastDay.topLinks.map((link: { id: number; clicks: number }) => [link.id, link.clicks])).toEqual([[links.branded!.id, 2], [links.main!.id, 1]])
  })

  it('defaults to the last 30 days ending today (UTC)', async () => {
    // Only Date is mocked: the recorder's timer and the database keep real time.
    vi.setSystemTime(new Date('2026-02-08T12:00:00Z'))
    const { data } = (await stats()).data
    expect(data).toMatchObject({ from: '2026-01-10', to: '2026-02-08', clicks: 7, uniqueClicks: 6 })
    expect(data.days).toHaveLength(30)
    expect(data.days[0]).toEqual({ date: '2026-01-10', clicks: 4, uniqueClicks: 3, leads: 0, sales: 0, revenue: {} })
  })

  it("shows another account only its own links, and an account without links zeros", async () => {
    const { data } = (await stats('?from=2026-01-09&to=2026-01-12', otherApi)).data
    expect(data).toMatchObject({ clicks: 5, uniqueClicks: 5, totals: { links: 1, clicks: 5, uniqueClicks: 5 } })
    expect(data.topLinks).toEqual([expect.objectContaining({ id: links.foreign!.id, clicks: 5 })])
    expect(data.days.find((day: { date: string }) => day.date === '2026-01-10')).toEqual({ date: '2026-01-10', clicks: 5, uniqueClicks: 5, leads: 0, sales: 0, revenue: {} })

    const newcomer = await createAccount(context)
    const empty = (await stats('?from=2026-01-09&to=2026-01-12', apiClient(context.app, newcomer.apiKey))).data.data
    expect(empty).toEqual({
      from: '2026-01-09',
      to: '2026-01-12',
      clicks: 0,
      uniqueClicks: 0,
      leads: 0,
      sales: 0,
      revenue: {},
      conversionRates: { leads: 0, sales: 0 },
      days: ['2026-01-09', '2026-01-10', '2026-01-11', '2026-01-12'].map((date) => ({ date, clicks: 0, uniqueClicks: 0, leads: 0, sales: 0, revenue: {} })),
      totals: { links: 0, clicks: 0, uniqueClicks: 0 },
      topLinks: [],
    })
  })

  it('forgets a deleted link, whose day counters outlive it', async () => {
    const account = await createAccount(context)
    const client = apiClient(context.app, account.apiKey)
    const kept = await createLink(context, account)
    const gone = await createLink(context, account)
    record(account, kept.id, '2026-01-10T08:00:00Z')
    record(account, gone.id, '2026-01-10T08:00:00Z')
    record(account, gone.id, '2026-01-10T09:00:00Z', { ip: GB_IP })
    expect((await stats('?from=2026-01-10&to=2026-01-10', client)).data.data.clicks).toBe(3)
    expect((await client('DELETE', `/api/url/${gone.id}/delete`)).statusCode).toBe(200)
    const { data } = (await stats('?from=2026-01-10&to=2026-01-10', client)).data
    expect(data).toMatchObject({ clicks: 1, uniqueClicks: 1, totals: { links: 1, clicks: 1, uniqueClicks: 1 } })
    expect(data.topLinks.map((link: { id: number }) => link.id)).toEqual([kept.id])
  })

  it('lists at most 10 top links, most clicks first, ties newest first', async () => {
    const account = await createAccount(context)
    const created: number[] = []
    for (let index = 0; index < 12; index += 1) created.push((await createLink(context, account)).id)
    // Link n (0-based) gets n + 1 clicks, except that links 10 and 11 tie with 12 clicks each.
    created.forEach((id, index) => {
      const clicks = index >= 10 ? 12 : index + 1
      for (let click = 0; click < clicks; click += 1) record(account, id, '2026-01-10T08:00:00Z', { ip: `198.51.100.${click + 1}` })
    })
    const { data } = (await stats('?from=2026-01-10&to=2026-01-10', apiClient(context.app, account.apiKey))).data
    expect(data.topLinks.map((link: { id: number; clicks: number }) => [link.id, link.clicks])).toEqual([
      [created[11], 12], [created[10], 12], [created[9], 10], [created[8], 9], [created[7], 8],
      [created[6], 7], [created[5], 6], [created[4], 5], [created[3], 4], [created[2], 3],
    ])
    expect(data.totals).toEqual({ links: 12, clicks: 79, uniqueClicks: 79 })
  })

  describe('validation, as for one item', () => {
    const DATE_RULE = 'must be a date YYYY-MM-DD.'
    it.each([
      ['?from=2026-1-01', 'from', DATE_RULE],
      ['?to=yesterday', 'to', DATE_RULE],
      ['?to=2026-13-01', 'to', DATE_RULE],
      ['?from=2026-02-30&to=2026-03-01', 'from', DATE_RULE],
      ['?from=2026-01-02&to=2026-01-01', 'from', 'must not be after "to" (2026-01-01).'],
      ['?from=2025-01-01&to=2026-01-02', 'to', 'must be at most 366 days; it is 367.'],
    ])('rejects %s with a 400 naming "%s"', async (query, field, rule) => {
      const response = await stats(query)
      expect(response.statusCode).toBe(400)
      expect(response.data).toEqual({ error: 1, message: expect.stringContaining(`"${field}"`), code: 'validation_failed', field })
      expect(response.data.message.endsWith(` ${rule}`)).toBe(true)
    })

    it('accepts a range of 366 days', async () => {
      const response = await stats('?from=2025-01-11&to=2026-01-11')
      expect(response.statusCode).toBe(200)
      expect(response.data.data.days).toHaveLength(366)
      expect(response.data.data).toMatchObject({ clicks: 7, uniqueClicks: 6 })
    })

    it('answers 401 without an API key', async () => {
      const response = await apiClient(context.app, null)('GET', '/api/stats')
      expect(response.statusCode).toBe(401)
      expect(response.data).toMatchObject({ error: 1, code: 'invalid_api_key' })
    })
  })
})
