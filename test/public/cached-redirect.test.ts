// The front door's short path (src/public/cached-redirect.ts) against the general router: the
// same request sent through both must get the same status, headers and body and hand the same
// click to the recorder; what the short path declines must reach the router.
import lightMyRequest, { type InjectOptions } from 'light-my-request'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ClickEvent } from '../../src/analytics/click-items.js'
import { attachPixelRows, createAccount, insertBioPageRow, insertLinkRow, insertPixelRow } from '../helpers/factories.js'
import { createTestApp, type TestContext } from '../helpers/test-app.js'
import { clicksOf, linkClickCount } from './redirect-test-support.js'

const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const SAFARI_ON_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

describe.each([
  ['302 (default)', {}],
  ['301 (REDIRECT_STATUS)', { REDIRECT_STATUS: '301' }],
])('cached redirects answered before the router, %s', (_label, env) => {
  let context: TestContext
  let accountId: number
  let recorded: ClickEvent[]
  let routed: number

  beforeAll(async () => {
    context = await createTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1', ...env } })
    accountId = (await createAccount(context)).id
  })
  afterAll(() => context.close())
  afterEach(() => vi.restoreAllMocks())

  /** Spies on the recorder and the router; the recorder still records. */
  function watch(): void {
    vi.restoreAllMocks()
    recorded = []
    routed = 0
    const record = context.clicks.record.bind(context.clicks)
    vi.spyOn(context.clicks, 'record').mockImplementation((event) => {
      recorded.push({ ...event })
      return record(event)
    })
    const routing = context.app.routing.bind(context.app)
    vi.spyOn(context.app, 'routing').mockImplementation((request, response) => {
      routed += 1
      routing(request, response)
    })
  }

  /** The request through the front door (after a first one has put the alias in the cache). */
  async function throughFrontDoor(request: InjectOptions) {
    await context.app.inject(request)
    watch()
    const response = await context.app.inject(request)
    return { response, clicks: recorded, routed }
  }

  /** The same request through the router alone (what every request met before the front door). */
  async function throughRouter(request: InjectOptions) {
    watch()
    const response = await lightMyRequest((req, res) => context.app.routing(req, res), request)
    return { response, clicks: recorded, routed }
  }

  /** What a client sees: status, headers but the date (which ticks), body. */
  const seen = (response: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    const { date: _date, ...headers } = response.headers
    return { status: response.statusCode, headers, body: response.body }
  }

  const visitorHeaders = { 'user-agent': CHROME_ON_WINDOWS, 'x-forwarded-for': '203.0.113.9', referer: 'https://news.example.org/item', 'accept-language': 'de-DE,de;q=0.9', 'x-request-id': 'parity-1' }

  it.each([
    ['a GET', { method: 'GET', headers: visitorHeaders }],
    ['a GET with a query string', { method: 'GET', headers: visitorHeaders, query: '?utm_source=mail' }],
    ['a HEAD (never counted)', { method: 'HEAD', headers: visitorHeaders }],
    ['a bot (dropped by the recorder)', { method: 'GET', headers: { ...visitorHeaders, 'user-agent': GOOGLEBOT } }],
    ['a prefetch (dropped by the recorder)', { method: 'GET', headers: { ...visitorHeaders, purpose: 'prefetch' } }],
    ['a request without a user agent', { method: 'GET', headers: { 'x-forwarded-for': '203.0.113.10', 'x-request-id': 'parity-2' } }],
    ['a forwarded chain through an untrusted hop', { method: 'GET', headers: { ...visitorHeaders, 'x-forwarded-for': '198.51.100.7, 203.0.113.9' } }],
  ] as const)('answers %s as the router does, with the same click', async (_case, { method, headers, ...rest }) => {
    const link = await insertLinkRow(context.database.db, accountId, { url: 'https://example.com/landing?from=short' })
    const request: InjectOptions = { method, url: `/${link.alias}${'query' in rest ? rest.query : ''}`, headers: { ...headers }, remoteAddress: '127.0.0.1' }

    const fast = await throughFrontDoor(request)
    const general = await throughRouter(request)

    expect(fast.routed).toBe(0)
    expect(general.routed).toBe(1)
    expect(seen(fast.response)).toEqual(seen(general.response))
    expect(fast.response.headers['x-request-id']).toBe(headers['x-request-id'])
    expect(fast.clicks).toEqual(general.clicks)
    expect(fast.clicks).toHaveLength(method === 'HEAD' ? 0 : 1)
  })

  it('gives every request a fresh id when none is given, as the router does', async () => {
    const link = await insertLinkRow(context.database.db, accountId)
    const request: InjectOptions = { method: 'GET', url: `/${link.alias}`, headers: { 'user-agent': CHROME_ON_WINDOWS } }
    const first = await throughFrontDoor(request)
    const second = await context.app.inject(request)
    expect(first.routed).toBe(0)
    expect(first.response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(second.headers['x-request-id']).not.toBe(first.response.headers['x-request-id'])
  })

  it('chooses device and language targets as the router does', async () => {
    const link = await insertLinkRow(context.database.db, accountId, {
      url: 'https://example.com/default',
      targeting: JSON.stringify({ device: [{ device: 'iPhone', link: 'https://example.com/iphone' }], language: [{ language: 'fr', link: 'https://example.com/fr' }] }),
    })
    for (const headers of [
      { 'user-agent': SAFARI_ON_IPHONE, 'accept-language': 'fr-FR', 'x-request-id': 'target-1' },
      { 'user-agent': CHROME_ON_WINDOWS, 'accept-language': 'fr-FR,en;q=0.5', 'x-request-id': 'target-2' },
      { 'user-agent': CHROME_ON_WINDOWS, 'accept-language': 'en-GB', 'x-request-id': 'target-3' },
    ]) {
      const request: InjectOptions = { method: 'GET', url: `/${link.alias}`, headers }
      const fast = await throughFrontDoor(request)
      const general = await throughRouter(request)
      expect(fast.routed).toBe(0)
      expect(seen(fast.response)).toEqual(seen(general.response))
      expect(fast.clicks).toEqual(general.clicks)
    }
  })

  it('merges a link\'s UTM parameters into the chosen destination as the router does', async () => {
    const link = await insertLinkRow(context.database.db, accountId, {
      url: 'https://example.com/landing?utm_source=old&ref=1#top',
      targeting: JSON.stringify({ device: [{ device: 'iphone', link: 'https://example.com/iphone' }] }),
      options: JSON.stringify({ utm: { source: 'mail', campaign: 'spring sale' } }),
    })
    const expected = ['https://example.com/landing?utm_source=mail&ref=1&utm_campaign=spring%20sale#top', 'https://example.com/iphone?utm_source=mail&utm_campaign=spring%20sale']
    for (const [index, agent] of [CHROME_ON_WINDOWS, SAFARI_ON_IPHONE].entries()) {
      const request: InjectOptions = { method: 'GET', url: `/${link.alias}`, headers: { 'user-agent': agent, 'x-request-id': `utm-${index}` } }
      const fast = await throughFrontDoor(request)
      const general = await throughRouter(request)
      expect(fast.routed).toBe(0)
      expect(seen(fast.response)).toEqual(seen(general.response))
      expect(fast.response.headers.location).toBe(expected[index])
      expect(fast.clicks).toEqual(general.clicks)
    }
  })

  it('sends the visitors of a broken link to its brokenurl, and of a working one to its destination, as the router does', async () => {
    const options = JSON.stringify({ brokenurl: 'https://example.com/meanwhile', utm: { source: 'print' } })
    const broken = await insertLinkRow(context.database.db, accountId, { url: 'https://example.com/gone', health: 'broken', options })
    const working = await insertLinkRow(context.database.db, accountId, { url: 'https://example.com/fine', health: 'ok', options })
    for (const [link, location] of [[broken, 'https://example.com/meanwhile'], [working, 'https://example.com/fine?utm_source=print']] as const) {
      const request: InjectOptions = { method: 'GET', url: `/${link.alias}`, headers: { 'user-agent': CHROME_ON_WINDOWS, 'x-request-id': `broken-${link.alias}` } }
      const fast = await throughFrontDoor(request)
      const general = await throughRouter(request)
      expect(fast.routed).toBe(0)
      expect(seen(fast.response)).toEqual(seen(general.response))
      expect(fast.response.headers.location).toBe(location)
      expect(fast.clicks).toEqual(general.clicks)
      expect(fast.clicks.length).toBe(1)
    }
  })

  it('sends the visitors of a link expired by date to its fallback address as the router does', async () => {
    const link = await insertLinkRow(context.database.db, accountId, { expires_at: '2000-01-01 00:00:00', options: JSON.stringify({ expiredurl: 'https://example.com/over' }) })
    const request: InjectOptions = { method: 'GET', url: `/${link.alias}`, headers: { 'user-agent': CHROME_ON_WINDOWS, 'x-request-id': 'expired-1' } }
    const fast = await throughFrontDoor(request)
    const general = await throughRouter(request)
    expect(fast.routed).toBe(0)
    expect(seen(fast.response)).toEqual(seen(general.response))
    expect(fast.response.statusCode).toBe(302)
    expect(fast.response.headers.location).toBe('https://example.com/over')
    expect(fast.clicks).toEqual([])
  })

  it('lets exactly a capped link\'s limit through, then sends visitors to its fallback, as the router does', async () => {
    const capped = () => insertLinkRow(context.database.db, accountId, { url: 'https://example.com/capped', options: JSON.stringify({ clicklimit: 2, expiredurl: 'https://example.com/after' }) })
    const [fastLink, routedLink] = [await capped(), await capped()]
    const headers = { 'user-agent': CHROME_ON_WINDOWS, 'x-request-id': 'capped' }
    // A HEAD (never counted) puts the alias in the cache for the short path.
    await context.app.inject({ method: 'HEAD', url: `/${fastLink.alias}`, headers })
    const answers = async (send: () => Promise<{ statusCode: number; headers: Record<string, unknown> }>) => {
      const seenAnswers = []
      for (let visit = 0; visit < 4; visit += 1) {
        watch()
        const response = await send()
        seenAnswers.push({ status: response.statusCode, location: response.headers.location, clicks: recorded.length, routed })
      }
      return seenAnswers
    }
    const fast = await answers(() => context.app.inject({ method: 'GET', url: `/${fastLink.alias}`, headers }))
    const general = await answers(() => lightMyRequest((req, res) => context.app.routing(req, res), { method: 'GET', url: `/${routedLink.alias}`, headers }))
    // The destination's redirect has the operator's status; the fallback is always a 302.
    const status = 'REDIRECT_STATUS' in env ? 301 : 302
    const expected = [
      { status, location: 'https://example.com/capped', clicks: 1 },
      { status, location: 'https://example.com/capped', clicks: 1 },
      { status: 302, location: 'https://example.com/after', clicks: 0 },
      { status: 302, location: 'https://example.com/after', clicks: 0 },
    ]
    expect(fast).toEqual(expected.map((answer) => ({ ...answer, routed: 0 })))
    expect(general).toEqual(expected.map((answer) => ({ ...answer, routed: 1 })))
  })

  // A capped link whose answer is a page (here its pixel page) is left to the router; the visit the
  // short path decided first had taken one of the cap's clicks, which it must give back, or every
  // visit would spend two and the link expire at half its limit.
  it('lets exactly a capped link\'s limit through when its answer is a page the router renders', async () => {
    const link = await insertLinkRow(context.database.db, accountId, { url: 'https://example.com/capped-page', options: JSON.stringify({ clicklimit: 3, expiredurl: 'https://example.com/after-page' }) })
    await attachPixelRows(context.database.db, link.id, [await insertPixelRow(context.database.db, accountId, 'fbpixel', '5550001112')])
    const headers = { 'user-agent': CHROME_ON_WINDOWS, 'x-request-id': 'capped-page' }
    await context.app.inject({ method: 'HEAD', url: `/${link.alias}`, headers })
    const answers = []
    for (let visit = 0; visit < 4; visit += 1) {
      watch()
      const response = await context.app.inject({ method: 'GET', url: `/${link.alias}`, headers })
      answers.push({ status: response.statusCode, location: response.headers.location, clicks: recorded.length, routed })
    }
    expect(answers).toEqual([
      { status: 200, location: undefined, clicks: 1, routed: 1 },
      { status: 200, location: undefined, clicks: 1, routed: 1 },
      { status: 200, location: undefined, clicks: 1, routed: 1 },
      { status: 302, location: 'https://example.com/after-page', clicks: 0, routed: 0 },
    ])
  })

  it('sends iOS and Android visitors to the link\'s app links as the router does', async () => {
    const ANDROID_PHONE = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36'
    const link = await insertLinkRow(context.database.db, accountId, {
      url: 'https://example.com/web',
      targeting: JSON.stringify({ device: [{ device: 'iphone', link: 'https://example.com/iphone' }] }),
      options: JSON.stringify({ ios: 'https://apps.example.com/ios', android: 'https://apps.example.com/android' }),
    })
    const expected = ['https://apps.example.com/ios', 'https://apps.example.com/android', 'https://example.com/web']
    for (const [index, agent] of [SAFARI_ON_IPHONE, ANDROID_PHONE, CHROME_ON_WINDOWS].entries()) {
      const request: InjectOptions = { method: 'GET', url: `/${link.alias}`, headers: { 'user-agent': agent, 'x-request-id': `app-${index}` } }
      const fast = await throughFrontDoor(request)
      const general = await throughRouter(request)
      expect(fast.routed).toBe(0)
      expect(seen(fast.response)).toEqual(seen(general.response))
      expect(fast.response.headers.location).toBe(expected[index])
      expect(fast.clicks).toEqual(general.clicks)
    }
  })

  it('sends a visitor of a split test to the same variant, with the same click, as the router does', async () => {
    const variants = [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 1 }, { url: 'https://example.com/c', weight: 1 }]
    const link = await insertLinkRow(context.database.db, accountId, { options: JSON.stringify({ variants }) })
    const chosen = new Set<string>()
    for (let visitor = 1; visitor <= 12; visitor += 1) {
      const request: InjectOptions = { method: 'GET', url: `/${link.alias}`, headers: { 'user-agent': CHROME_ON_WINDOWS, 'x-forwarded-for': `203.0.113.${visitor}`, 'x-request-id': `variant-${visitor}` }, remoteAddress: '127.0.0.1' }
      const fast = await throughFrontDoor(request)
      const general = await throughRouter(request)
      expect(fast.routed).toBe(0)
      expect(seen(fast.response)).toEqual(seen(general.response))
      expect(fast.clicks).toEqual(general.clicks)
      const location = fast.response.headers.location as string
      expect(fast.clicks[0]!.variant).toBe(variants.findIndex((variant) => variant.url === location))
      chosen.add(location)
    }
    expect(chosen.size).toBeGreaterThan(1)
  })

  it('writes the same rows and counters for the clicks it hands over', async () => {
    const fastLink = await insertLinkRow(context.database.db, accountId)
    const generalLink = await insertLinkRow(context.database.db, accountId)
    const headers = { 'user-agent': CHROME_ON_WINDOWS, 'x-forwarded-for': '203.0.113.50', 'accept-language': 'en-US', referer: 'https://www.google.com/' }
    await throughFrontDoor({ method: 'GET', url: `/${fastLink.alias}`, headers })
    await throughRouter({ method: 'GET', url: `/${generalLink.alias}`, headers })
    await lightMyRequest((req, res) => context.app.routing(req, res), { method: 'GET', url: `/${generalLink.alias}`, headers })
    await context.clicks.flush()
    const columns = (rows: Awaited<ReturnType<typeof clicksOf>>) => rows.map(({ id: _id, item_id: _item, created_at: _at, ...row }) => row)
    expect(columns(await clicksOf(context.database.db, 'link', fastLink.id))).toEqual(columns(await clicksOf(context.database.db, 'link', generalLink.id)))
    expect(await linkClickCount(context.database.db, fastLink.id)).toBe(2)
    expect(await linkClickCount(context.database.db, generalLink.id)).toBe(2)
  })

  it.each([
    ['an expired link', { expires_at: '2000-01-01 00:00:00' }],
    ['a password-protected link', { password_hash: 'scrypt$0$0$00' }],
    ['a splash link', { type: 'splash' }],
    ['a frame link', { type: 'frame' }],
    ['a link with geo rules', { targeting: JSON.stringify({ geo: [{ location: 'US', link: 'https://us.example.com/' }] }) }],
  ] as const)('leaves %s to the router', async (_case, columns) => {
    const link = await insertLinkRow(context.database.db, accountId, columns)
    const fast = await throughFrontDoor({ method: 'GET', url: `/${link.alias}`, headers: { 'user-agent': CHROME_ON_WINDOWS } })
    expect(fast.routed).toBe(1)
  })

  it('leaves links with pixels, bio pages, unknown aliases and fixed paths to the router', async () => {
    const withPixels = await insertLinkRow(context.database.db, accountId)
    await attachPixelRows(context.database.db, withPixels.id, [await insertPixelRow(context.database.db, accountId, 'fbpixel', '1234567890')])
    const bio = await insertBioPageRow(context.database.db, accountId)
    for (const url of [`/${withPixels.alias}`, `/${bio.alias}`, '/no-such-alias-here', '/healthz', '/api/urls', `/${withPixels.alias}/`, '/']) {
      const fast = await throughFrontDoor({ method: 'GET', url, headers: { 'user-agent': CHROME_ON_WINDOWS } })
      expect({ url, routed: fast.routed }).toEqual({ url, routed: 1 })
    }
    const post = await throughFrontDoor({ method: 'POST', url: `/${withPixels.alias}`, headers: { 'user-agent': CHROME_ON_WINDOWS } })
    expect(post.routed).toBe(1)
  })
})
