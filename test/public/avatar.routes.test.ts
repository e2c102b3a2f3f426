import { describe, expect, it } from 'vitest'
import { avatarHue, escapeXml, renderAvatarSvg } from '../../src/public/avatar.routes.js'
import { createAccount } from '../helpers/factories.js'
import { useTestApp } from '../helpers/test-app.js'

describe('GET /avatar/{username}.svg', () => {
  const { context, api } = useTestApp()

  it('serves an SVG with the initial, without a key, cached for a day', async () => {
    await createAccount(context, { username: 'zoe_avatar' })
    const response = await context.app.inject({ method: 'GET', url: '/avatar/zoe_avatar.svg' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(response.headers['cache-control']).toBe('public, max-age=86400')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(response.body).toContain('>Z</text>')
    // The hue is the first two bytes of SHA-256('zoe_avatar') modulo 360.
    expect(response.body).toContain('fill="hsl(34, 55%, 42%)"')
    // Not an API request: no rate-limit accounting.
    expect(response.headers['x-ratelimit-limit']).toBeUndefined()
  })

  it('is the URL the account record points to', async () => {
    const record = await api('GET', '/api/account')
    const url = new URL(record.data.data.avatar)
    const response = await context.app.inject({ method: 'GET', url: url.pathname })
    expect(response.statusCode).toBe(200)
  })

  it('answers a name no account has exactly as one that exists (the address tells no one which usernames exist)', async () => {
    await createAccount(context, { username: 'yan_avatar' })
    const existing = await context.app.inject({ method: 'GET', url: '/avatar/yan_avatar.svg' })
    const missing = await context.app.inject({ method: 'GET', url: '/avatar/yao_avatar.svg' })
    expect([existing.statusCode, missing.statusCode]).toEqual([200, 200])
    const headersOf = (response: typeof existing) => {
      const { date: _date, 'x-request-id': _id, 'content-length': _length, ...headers } = response.headers
      return headers
    }
    expect(headersOf(missing)).toEqual(headersOf(existing))
    expect(missing.body).toBe(renderAvatarSvg('yao_avatar'))
    expect(existing.body).toBe(renderAvatarSvg('yan_avatar'))
    // Markup in the name is escaped as everywhere else.
    const odd = await context.app.inject({ method: 'GET', url: '/avatar/%3Cscript%3E.svg' })
    expect(odd.statusCode).toBe(200)
    expect(odd.body).not.toContain('<script>')
  })

  it('derives the hue from the SHA-256 of the lower-cased username', () => {
    // Expected values: the first two bytes of SHA-256(username), big-endian, modulo 360.
    expect(['alice', 'bob', 'carol', 'dave', 'erin', 'frank'].map(avatarHue)).toEqual([64, 86, 54, 226, 252, 324])
    expect(avatarHue('Alice')).toBe(64)
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
