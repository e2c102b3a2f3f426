// Pixel snippets: one per spec provider, the tag only ever as an escaped string literal, and a
// policy that allows exactly the providers' hosts.
import { describe, expect, it } from 'vitest'
import { PIXEL_TYPES } from '../../src/modules/pixels/pixel-tags.js'
import { linkPagePolicy, pixelScriptsOf } from '../../src/public/link-pages.js'
import { jsString, pixelSnippetOf } from '../../src/public/pixel-snippets.js'

describe('pixel snippets', () => {
  it.each(PIXEL_TYPES.map((type) => [type]))('has a snippet for %s that embeds the tag and loads from https hosts', (type) => {
    const snippet = pixelSnippetOf(type, 'TAG1234567890')
    expect(snippet!.script).toContain('"TAG1234567890"')
    expect(snippet!.scriptHosts.length).toBeGreaterThan(0)
    for (const host of [...snippet!.scriptHosts, ...snippet!.connectHosts]) expect(host).toMatch(/^https:\/\/[a-z0-9.*-]+$/)
    // Every script the snippet loads comes from one of its declared hosts.
    for (const [, loaded] of snippet!.script.matchAll(/'(https:\/\/[^/']+)\//g)) expect(snippet!.scriptHosts).toContain(loaded)
  })

  it('splits a Google Ads tag into the account and the conversion label', () => {
    const snippet = pixelSnippetOf('adwordspixel', 'AW-123456789/AbC_label')!
    expect(snippet.script).toContain(`gtag('config',"AW-123456789")`)
    expect(snippet.script).toContain(`send_to:"AW-123456789/AbC_label"`)
  })

  it('escapes what could end a script element or a string', () => {
    expect(jsString('</script><b>"x"&\u2028')).toBe('"\\u003c/script\\u003e\\u003cb\\u003e\\"x\\"\\u0026\\u2028"')
    const snippet = pixelSnippetOf('fbpixel', "1');alert(1)//</script>")!
    expect(snippet.script).not.toContain('</script>')
    expect(snippet.script).toContain(`fbq('init',"1');alert(1)//\\u003c/script\\u003e")`)
  })
})

describe('linkPagePolicy', () => {
  it('allows nothing but styles and images by default', () => {
    expect(linkPagePolicy()).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
  })

  it('adds the nonce and each provider host once, and the framed origin', () => {
    const pixels = pixelScriptsOf([pixelSnippetOf('gapixel', 'G-ABCD1234')!, pixelSnippetOf('gtmpixel', 'GTM-ABCD123')!])!
    const policy = linkPagePolicy({ pixels, frameOrigin: 'https://example.com' })
    expect(policy).toContain(`script-src 'nonce-${pixels.nonce}' https://www.googletagmanager.com;`)
    expect(policy).toContain('connect-src https://www.google-analytics.com ')
    expect(policy).toContain('frame-src https://example.com;')
    expect(policy).not.toContain("'unsafe-eval'")
    expect(pixels.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
  })

  it('has no pixel scripts without snippets', () => {
    expect(pixelScriptsOf([])).toBeNull()
  })
})
