import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { avatarHue, escapeXml, renderAvatarSvg } from '../../../src/public/avatar.routes.js'
import { apiClient, createAccount, createTestApp, type TestAccount, type TestContext } from '../../helpers/test-app.js'
import { expectPage } from '../../helpers/pages.js'

describe('GET /avatar/{username}.svg', () => {
  let context: TestContext
  let account: TestAccount

  beforeAll(async () => {
    context = await createTestApp()
    account = await createAccount(context, { username: 'zoe_avatar' })
  })
  afterAll(() => context.close())

  it('serves an SVG with the initial, without a key, cached for a day', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/avatar/zoe_avatar.svg' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(response.headers['cache-control']).toBe('public, max-age=86400')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(response.body).toContain('>Z</text>')
    expect(response.body).toContain(`fill="hsl(${avatarHue('zoe_avatar')}, 55%, 42%)"`)
    // Not an API request: no rate-limit accounting.
    expect(response.headers['x-ratelimit-limit']).toBeUndefined()
  })

  it('is the URL the account record points to', async () => {
    const record = await apiClient(context.app, account.apiKey)('GET', '/api/account')
    const url = new URL(record.data.data.avatar)
    const response = await context.app.inject({ method: 'GET', url: url.pathname })
    expect(response.statusCode).toBe(200)
  })

  it('answers an unknown username with the 404 page', async () => {
    expectPage(await context.app.inject({ method: 'GET', url: '/avatar/nobody_here.svg' }), 404, 'Not found')
    expectPage(await context.app.inject({ method: 'GET', url: '/avatar/%3Cscript%3E.svg' }), 404)
  })

  it('derives a stable colour per username, different for different names', () => {
    expect(avatarHue('alice')).toBe(avatarHue('alice'))
    const hues = new Set(['alice', 'bob', 'carol', 'dave', 'erin', 'frank'].map(avatarHue))
    expect(hues.size).toBeGreaterThan(3)
    for (const hue of hues) expect(hue).toBeGreaterThanOrEqual(0)
    for (const hue of hues) expect(hue).toBeLessThan(360)
  })

  it('escapes everything it puts into the markup', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;')
    const svg = renderAvatarSvg('<b>"x"&')
    expect(svg).toContain('>&lt;</text>')
    expect(svg).toContain('<title>&lt;b&gt;&quot;x&quot;&amp;</title>')
    expect(svg).not.toContain('<b>')
    // A name starting with a character outside the BMP keeps the whole character.
    expect(renderAvatarSvg('😀smile')).toContain('>😀</text>')
  })
})
