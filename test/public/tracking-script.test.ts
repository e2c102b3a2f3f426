// GET /lw.js (issue 39): served small and cacheable, never taken for an alias, and, run on a page,
// it keeps the click id of the page's URL in a first-party cookie and answers it from there.
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../helpers/test-app.js'

/** Runs the script on a page at `url` with a cookie jar that keeps name=value pairs; answers the page's window. */
function runOnPage(script: string, url: string, attributes: Record<string, string> = {}, cookies = new Map<string, string>()) {
  const written: string[] = []
  const document = {
    currentScript: { getAttribute: (name: string) => attributes[name] ?? null },
    get cookie() {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    },
    set cookie(text: string) {
      written.push(text)
      const [pair] = text.split('; ')
      const [name, value] = pair!.split('=')
      cookies.set(name!, value!)
    },
  }
  const window: Record<string, unknown> = { location: new URL(url) }
  vm.runInNewContext(script, { window, document, URLSearchParams })
  return { linkwell: window.linkwell as { clickId(): string | null }, written, cookies }
}

describe('the click id script', () => {
  const { context, api } = useTestApp()
  const id = '0123456789abcdef0123456789abcdef'

  it('is served as JavaScript under 2 kB, cacheable, and loadable by any site', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/lw.js' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('application/javascript')
    expect(response.headers['cache-control']).toBe('public, max-age=3600')
    expect(Buffer.byteLength(response.body)).toBeLessThan(2048)
  })

  it('keeps the id of the URL for the window, and answers it on later pages', async () => {
    const script = (await context.app.inject({ method: 'GET', url: '/lw.js' })).body
    const landing = runOnPage(script, `https://shop.example/p?x=1&lw_id=${id}`)
    expect(landing.linkwell.clickId()).toBe(id)
    expect(landing.written[0]).toBe(`lw_click_id=${id}; Max-Age=${90 * 86400}; Path=/; SameSite=Lax; Secure`)
    const later = runOnPage(script, 'https://shop.example/checkout', {}, landing.cookies)
    expect(later.written).toEqual([])
    expect(later.linkwell.clickId()).toBe(id)
  })

  it('reads the parameter and window the snippet names, and ignores what is no click id', async () => {
    const script = (await context.app.inject({ method: 'GET', url: '/lw.js' })).body
    const named = runOnPage(script, `http://shop.example/?cid=${id}`, { 'data-param': 'cid', 'data-days': '30' })
    expect(named.written[0]).toBe(`lw_click_id=${id}; Max-Age=${30 * 86400}; Path=/; SameSite=Lax`)
    const forged = runOnPage(script, 'https://shop.example/?lw_id=%3Cscript%3E')
    expect(forged.written).toEqual([])
    expect(forged.linkwell.clickId()).toBeNull()
  })

  it('is refused as a custom alias (the address is the script\'s)', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/', custom: 'lw.js' })
    expect(created.statusCode).toBe(400)
  })
})
