// End to end: visits of the public addresses, behind a trusted proxy that forwards the visitor's
// address, as they show in the API (statistics objects, list counters, per-day stats). Only
// browser GETs count; HEAD, bots, link-preview fetchers and prefetches are answered, not counted.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { apiClient, createAccount, createTestApp, type ApiClient, type TestContext } from '../helpers/test-app.js'
import { decodeQrImage } from '../modules/qr-codes/qr-test-support.js'
import { EMPTY_STATISTICS } from '../helpers/statistics.js'

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const US_IP = '8.8.8.8'
const GB_IP = '81.2.69.160'
const DESTINATION = 'https://example.com/landing'
let slugCounter = 0

/** The shared steps of both suites: create items through the API, visit them, read the counts. */
function visitorSteps(env: Record<string, string>) {
  const steps = {
    context: undefined as unknown as TestContext,
    api: undefined as unknown as ApiClient,

    async createLink(): Promise<{ id: number; path: string }> {
      const created = await steps.api('POST', '/api/url/add', { url: DESTINATION })
      expect(created.statusCode).toBe(201)
      return { id: created.data.id, path: new URL(created.data.shorturl).pathname }
    },

    /** A request as the proxy hands it on; `userAgent: null` sends no User-Agent header at all. */
    visit(path: string, options: { ip?: string; userAgent?: string | null; method?: 'GET' | 'HEAD'; headers?: Record<string, string> } = {}) {
      const { ip = US_IP, userAgent = IPHONE, method = 'GET', headers = {} } = options
      return steps.context.app.inject({
        method,
        url: path,
        // light-my-request adds its own User-Agent unless the header is present and undefined.
        headers: { 'x-forwarded-for': ip, 'user-agent': userAgent ?? undefined, ...headers },
      })
    },

    /** GET /api/url/{id} after the recorder has written everything. */
    async linkDetails(id: number) {
      await steps.context.clicks.flush()
      const response = await steps.api('GET', `/api/url/${id}`)
      expect(response.statusCode).toBe(200)
      return response.data
    },
  }
  beforeAll(async () => {
    steps.context = await createTestApp({ env })
    steps.api = apiClient(steps.context.app, (await createAccount(steps.context)).apiKey)
  })
  afterAll(() => steps.context.close())
  afterEach(() => {
    vi.useRealTimers()
  })
  return steps
}

describe('click counting behind a trusted proxy', () => {
  const steps = visitorSteps({ TRUSTED_PROXIES: '127.0.0.1' })

  it('shows a visit in the statistics object, the list and the per-day stats', async () => {
    const { id, path } = await steps.createLink()
    const response = await steps.visit(path, { headers: { referer: 'https://t.co/abc', 'accept-language': 'de-CH,de;q=0.9' } })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe(DESTINATION)

    const details = await steps.linkDetails(id)
    expect(details.data).toEqual({
      clicks: 1,
      uniqueClicks: 1,
      topCountries: { 'United States': '1' },
      topReferrers: { 't.co': '1' },
      topBrowsers: { 'Mobile Safari': '1' },
      topOs: { iOS: '1' },
      socialCount: { facebook: 0, twitter: 1, instagram: 0, linkedin: 0 },
    })
    expect(details.details).toMatchObject({ clicks: 1, uniqueclicks: 1 })

    const list = await steps.api('GET', '/api/urls?limit=100')
    const entry = (list.data.data.urls as Array<{ id: number }>).find((link) => link.id === id)
    expect(entry).toMatchObject({ clicks: 1, uniqueclicks: 1 })

    const stats = await steps.api('GET', `/api/url/${id}/stats`)
    expect(stats.data.data).toMatchObject({ clicks: 1, uniqueClicks: 1, topDevices: { mobile: '1' }, topLanguages: { de: '1' } })
  })

  it('takes the address the trusted proxy saw, not one the client wrote in front of it', async () => {
    const { id, path } = await steps.createLink()
    await steps.visit(path, { ip: `${US_IP}, ${GB_IP}` })
    expect((await steps.linkDetails(id)).data.topCountries).toEqual({ 'United Kingdom': '1' })
  })

  describe('answers without counting', () => {
    const cases: Array<[string, Parameters<typeof steps.visit>[1]]> = [
      ['HEAD', { method: 'HEAD' }],
      ...['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
        'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'WhatsApp/2.23.20.0', 'TelegramBot (like TwitterBot)',
        'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', 'curl/8.5.0']
        .map((userAgent): [string, { userAgent: string }] => [userAgent, { userAgent }]),
      ['no User-Agent header', { userAgent: null }],
      ...[['sec-purpose', 'prefetch'], ['purpose', 'prefetch'], ['x-purpose', 'preview'], ['x-moz', 'prefetch']]
        .map(([name, value]): [string, { headers: Record<string, string> }] => [`${name}: ${value}`, { headers: { [name!]: value! } }]),
    ]

    it.each(cases)('%s', async (_label, options) => {
      const { id, path } = await steps.createLink()
      const response = await steps.visit(path, { ...options, headers: { referer: 'https://t.co/abc', ...options?.headers } })
      expect(response.statusCode).toBe(302)
      expect(response.headers.location).toBe(DESTINATION)
      const details = await steps.linkDetails(id)
      expect(details.data).toEqual(EMPTY_STATISTICS)
      expect(details.details).toMatchObject({ clicks: 0, uniqueclicks: 0 })

      // Without what made it skipped, the same visit counts: the link itself is countable.
      await steps.visit(path, { ...options, method: 'GET', userAgent: IPHONE, headers: { referer: 'https://t.co/abc' } })
      expect((await steps.linkDetails(id)).details).toMatchObject({ clicks: 1, uniqueclicks: 1 })
    })
  })

  it('counts a visitor (address and user agent) once a day as unique', async () => {
    const { id, path } = await steps.createLink()
    // Only Date is mocked, so that all visits fall on one UTC day whenever the test runs.
    vi.setSystemTime(new Date('2026-05-05T12:00:00Z'))
    await steps.visit(path)
    await steps.visit(path)
    expect((await steps.linkDetails(id)).data).toMatchObject({ clicks: 2, uniqueClicks: 1 })
    await steps.visit(path, { ip: GB_IP })
    expect((await steps.linkDetails(id)).data).toMatchObject({ clicks: 3, uniqueClicks: 2, topCountries: { 'United States': '2', 'United Kingdom': '1' } })
    await steps.visit(path, { userAgent: WINDOWS_CHROME })
    const details = await steps.linkDetails(id)
    expect(details.data).toMatchObject({ clicks: 4, uniqueClicks: 3, topBrowsers: { 'Mobile Safari': '3', Chrome: '1' } })
    expect(details.details).toMatchObject({ clicks: 4, uniqueclicks: 3 })
  })

  it("counts a QR code's tracking scan in its statistics and its scans", async () => {
    const created = await steps.api('POST', '/api/qr/add', { type: 'link', data: DESTINATION, name: 'Poster' })
    expect(created.statusCode).toBe(201)
    const image = await steps.context.app.inject({ method: 'GET', url: new URL(created.data.link).pathname })
    const tracking = new URL((await decodeQrImage(image.rawPayload))!)
    expect(tracking.pathname).toMatch(/^\/qr\/[A-Za-z0-9_-]+\/scan$/)

    const scan = await steps.visit(tracking.pathname, { ip: GB_IP, userAgent: WINDOWS_CHROME })
    expect(scan.statusCode).toBe(302)
    expect(scan.headers.location).toBe(DESTINATION)
    await steps.visit(tracking.pathname, { method: 'HEAD' })
    await steps.visit(tracking.pathname, { userAgent: 'facebookexternalhit/1.1' })

    await steps.context.clicks.flush()
    const details = await steps.api('GET', `/api/qr/${created.data.id}`)
    expect(details.data.details.scans).toBe(1)
    expect(details.data.data).toEqual({
      ...EMPTY_STATISTICS,
      clicks: 1,
      uniqueClicks: 1,
      topCountries: { 'United Kingdom': '1' },
      topReferrers: { Direct: '1' },
      topBrowsers: { Chrome: '1' },
      topOs: { Windows: '1' },
    })
    const list = await steps.api('GET', '/api/qr?limit=100')
    expect((list.data.data.qrs as Array<{ id: number }>).find((qr) => qr.id === created.data.id)).toMatchObject({ scans: 1 })
  })

  it("counts a rotator visit in the campaign's views", async () => {
    slugCounter += 1
    const slug = `count${process.pid}x${slugCounter}`
    const campaign = await steps.api('POST', '/api/campaign/add', { name: `Rotation ${slug}`, slug })
    expect(campaign.statusCode).toBe(201)
    const link = await steps.createLink()
    expect((await steps.api('POST', `/api/campaign/${campaign.data.id}/assign/${link.id}`)).statusCode).toBe(200)
    const viewsOf = async () => {
      await steps.context.clicks.flush()
      const list = await steps.api('GET', '/api/campaigns?limit=100')
      return (list.data.data.campaigns as Array<{ id: number; views: number }>).find((entry) => entry.id === campaign.data.id)?.views
    }
    expect(await viewsOf()).toBe(0)

    const response = await steps.visit(`/r/${slug}`)
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe(DESTINATION)
    expect(await viewsOf()).toBe(1)
    await steps.visit(`/r/${slug}`, { method: 'HEAD' })
    await steps.visit(`/r/${slug}`, { userAgent: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' })
    await steps.visit(`/r/${slug}`, { headers: { 'sec-purpose': 'prefetch' } })
    expect(await viewsOf()).toBe(1)
    await steps.visit(`/r/${slug}`, { ip: GB_IP })
    expect(await viewsOf()).toBe(2)
    // A rotator visit is the campaign's click, not one of the link it sends to.
    expect((await steps.linkDetails(link.id)).details.clicks).toBe(0)
  })
})

describe('click counting without a trusted proxy', () => {
  const steps = visitorSteps({})

  it("ignores X-Forwarded-For: the socket's (loopback) address has no country", async () => {
    const { id, path } = await steps.createLink()
    vi.setSystemTime(new Date('2026-05-05T12:00:00Z'))
    await steps.visit(path, { ip: US_IP })
    await steps.visit(path, { ip: GB_IP })
    const details = await steps.linkDetails(id)
    // Both visits come from 127.0.0.1 with one user agent: one visitor.
    expect(details.data).toMatchObject({ clicks: 2, uniqueClicks: 1, topCountries: { Unknown: '2' } })
  })
})
