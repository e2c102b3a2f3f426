import { describe, expect, it } from 'vitest'
import { avatarHue, escapeXml, renderAvatarSvg } from '../../src/public/avatar.routes.js'
import { createAccount } from '../helpers/factories.js'
import { useTestApp } from '../helpers/test-app.js'
import { expectPage } from '../helpers/pages.js'

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

  it('answers an unknown username with the 404 page', async () => {
    expectPage(await context.app.inject({ method: 'GET', url: '/avatar/nobody_here.svg' }), 404, 'Not found')
    expectPage(await context.app.inject({ method: 'GET', url: '/avatar/%3Cscript%3E.svg' }), 404)
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
