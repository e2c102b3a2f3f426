// The pages a link visit can show instead of a plain 302: pixels, splash interstitials, frames
// with CTA overlays, and contact submissions. Every stored text is hostile here.
// Rows are written directly (helpers/factories `insert…Row`): the stored values are ones the API
// would refuse or clean, as an older version or another writer may have left them.
import { describe, expect, it } from 'vitest'
import { attachPixelRows, createAccount, insertLinkRow, insertOverlayRow, insertPixelRow, insertSplashPageRow } from '../helpers/factories.js'
import { useTestApp } from '../helpers/test-app.js'
import { clicksOf, linkClickCount, visit } from './redirect-test-support.js'

const XSS = '<script>alert(1)</script>'
const XSS_ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;'
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'

/** The nonce of the page's script-src, after checking the policy has the expected shape. */
function scriptNonceOf(policy: string): string {
  const match = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)
  expect(match).not.toBeNull()
  return match![1]!
}

describe('link pages', () => {
  const { context, owner } = useTestApp()

  const db = () => context.database.db

  /** Visits and checks what every page carries; returns the response. */
  async function page(path: string, status = 200) {
    const response = await visit(context.app, path, { headers: { 'user-agent': BROWSER } })
    expect(response.statusCode).toBe(status)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['content-security-policy']).toContain("default-src 'none'")
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    return response
  }

  describe('pixels', () => {
    it('loads each pixel under a nonce with only its hosts allowed, then forwards without JavaScript', async () => {
      const link = await insertLinkRow(db(), owner.id, { url: 'https://shop.example.com/item?id=1&ref=x', title: `Sale ${XSS}` })
      await attachPixelRows(db(), link.id, [await insertPixelRow(db(), owner.id, 'fbpixel', '123456789012345'), await insertPixelRow(db(), owner.id, 'gtmpixel', 'GTM-ABC1234')])
      const response = await page(`/${link.alias}`)
      const policy = String(response.headers['content-security-policy'])
      const nonce = scriptNonceOf(policy)
      expect(policy).toContain(`script-src 'nonce-${nonce}' https://connect.facebook.net https://www.googletagmanager.com;`)
      expect(policy).not.toContain('unsafe-inline\' https')
      expect(response.body.match(new RegExp(`<script nonce="${nonce.replace(/[+/=]/g, '\\$&')}">`, 'g'))).toHaveLength(2)
      expect(response.body).toContain("fbq('init',\"123456789012345\")")
      expect(response.body).toContain('"GTM-ABC1234"')
      expect(response.body).toContain('<meta http-equiv="refresh" content="1;url=https://shop.example.com/item?id=1&amp;ref=x">')
      expect(response.body).toContain('<a class="button" href="https://shop.example.com/item?id=1&amp;ref=x">Continue</a>')
      expect(response.body).toContain(`<title>Sale ${XSS_ESCAPED}</title>`)
      expect(response.body).not.toContain(XSS)
      await context.clicks.flush()
      expect(await linkClickCount(db(), link.id)).toBe(1)
    })

    it('gives every response its own nonce', async () => {
      const link = await insertLinkRow(db(), owner.id)
      await attachPixelRows(db(), link.id, [await insertPixelRow(db(), owner.id, 'tiktok', 'C4ABCDEFGHIJKLMNOPQR')])
      const first = scriptNonceOf(String((await page(`/${link.alias}`)).headers['content-security-policy']))
      const second = scriptNonceOf(String((await page(`/${link.alias}`)).headers['content-security-policy']))
      expect(first).not.toBe(second)
    })

    it('keeps a hostile tag a string literal that cannot close the script', async () => {
      const link = await insertLinkRow(db(), owner.id)
      await attachPixelRows(db(), link.id, [await insertPixelRow(db(), owner.id, 'twitterpixel', `x');</script>${XSS}`)])
      const response = await page(`/${link.alias}`)
      expect(response.body).not.toContain(XSS)
      expect(response.body).not.toContain('</script><script>')
      expect(response.body).toContain(`twq('config',"x');\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e")`)
    })

    it('ignores pixels of another account and pixel types it does not know', async () => {
      const stranger = await createAccount(context)
      const link = await insertLinkRow(db(), owner.id, { url: 'https://example.com/plain' })
      await attachPixelRows(db(), link.id, [await insertPixelRow(db(), stranger.id, 'fbpixel', '999999999999999'), await insertPixelRow(db(), owner.id, 'myspace', 'abc')])
      const response = await visit(context.app, `/${link.alias}`)
      expect(response.statusCode).toBe(302)
      expect(response.headers.location).toBe('https://example.com/plain')
    })
  })

  describe('splash pages', () => {
    it('shows the generic interstitial for a splash link without a splash page', async () => {
      const link = await insertLinkRow(db(), owner.id, { type: 'splash', url: 'https://example.com/onward', title: XSS, description: `Read ${XSS}` })
      const response = await page(`/${link.alias}`)
      expect(response.headers['content-security-policy']).not.toContain('script-src')
      expect(response.body).toContain('<meta http-equiv="refresh" content="5;url=https://example.com/onward">')
      expect(response.body).toContain('<a class="button" href="https://example.com/onward">Continue</a>')
      expect(response.body).toContain(`<h1>${XSS_ESCAPED}</h1>`)
      expect(response.body).toContain(`<meta name="description" content="Read ${XSS_ESCAPED}">`)
      expect(response.body).not.toContain(XSS)
      await context.clicks.flush()
      expect(await clicksOf(db(), 'link', link.id)).toHaveLength(1)
    })

    it("shows the link's splash page with its title, image, product button and counter", async () => {
      const splashId = await insertSplashPageRow(db(), owner.id, {
        title: `Deal ${XSS}`, description: 'Half price "today"', image: 'https://cdn.example.com/banner.png', link: 'https://shop.example.com/deal', counter: 12,
      })
      const link = await insertLinkRow(db(), owner.id, { type: 'splash', splash_id: splashId, url: 'https://example.com/after' })
      const response = await page(`/${link.alias}`)
      expect(response.body).toContain('<meta http-equiv="refresh" content="12;url=https://example.com/after">')
      expect(response.body).toContain(`<h1>Deal ${XSS_ESCAPED}</h1>`)
      expect(response.body).toContain('<img src="https://cdn.example.com/banner.png"')
      expect(response.body).toContain('Half price &quot;today&quot;')
      expect(response.body).toContain('href="https://shop.example.com/deal"')
      expect(response.body).toContain('in 12 seconds')
      expect(response.body).toContain('href="https://example.com/after"')
      expect(response.body).not.toContain(XSS)
    })

    it('never puts a non-http image or product link of a splash page into the page', async () => {
      const splashId = await insertSplashPageRow(db(), owner.id, { title: 'Hi', image: 'javascript:alert(1)', link: 'data:text/html,x', counter: 3 })
      const link = await insertLinkRow(db(), owner.id, { type: 'splash', splash_id: splashId })
      const response = await page(`/${link.alias}`)
      expect(response.body).not.toContain('javascript:')
      expect(response.body).not.toContain('data:text')
    })

    it('loads pixels on the splash page too', async () => {
      const link = await insertLinkRow(db(), owner.id, { type: 'splash' })
      await attachPixelRows(db(), link.id, [await insertPixelRow(db(), owner.id, 'pinterest', '2612345678901')])
      const response = await page(`/${link.alias}`)
      expect(response.headers['content-security-policy']).toContain('https://s.pinimg.com')
      expect(response.body).toContain("pintrk('load',\"2612345678901\")")
    })
  })

  describe('frames and overlays', () => {
    it('frames the destination, allowing exactly its origin', async () => {
      const link = await insertLinkRow(db(), owner.id, { type: 'frame', url: 'https://news.example.org:8443/story?a=1&b=2', title: `Story ${XSS}` })
      const response = await page(`/${link.alias}`)
      expect(response.headers['content-security-policy']).toContain('frame-src https://news.example.org:8443;')
      expect(response.body).toContain('<iframe src="https://news.example.org:8443/story?a=1&amp;b=2"')
      expect(response.body).toContain('href="https://news.example.org:8443/story?a=1&amp;b=2" target="_top"')
      expect(response.body).toContain(`<strong>Story ${XSS_ESCAPED}</strong>`)
      expect(response.body).not.toContain(XSS)
      expect(response.body).not.toContain('class="overlay"')
      await context.clicks.flush()
      expect(await linkClickCount(db(), link.id)).toBe(1)
    })

    it('shows a message overlay with its button and colors, escaped', async () => {
      const overlayId = await insertOverlayRow(db(), owner.id, 'message', {
        message: `Hello ${XSS}`, label: 'Shop <now>', link: 'https://shop.example.com/', color: '#ffffff', bg: '#123abc',
      })
      const link = await insertLinkRow(db(), owner.id, { type: 'overlay', overlay_id: overlayId, url: 'https://example.com/framed' })
      const response = await page(`/${link.alias}`)
      expect(response.body).toContain('<iframe src="https://example.com/framed"')
      expect(response.body).toContain('style="color:#ffffff;background:#123abc"')
      expect(response.body).toContain(`<p>Hello ${XSS_ESCAPED}</p>`)
      expect(response.body).toContain('href="https://shop.example.com/" target="_top" rel="noopener">Shop &lt;now&gt;</a>')
      expect(response.body).not.toContain(XSS)
    })

    it('keeps anything but a #hex color out of the style attribute', async () => {
      const overlayId = await insertOverlayRow(db(), owner.id, 'message', { message: 'Hi', color: 'red;background:url(https://evil.example/x)' })
      const link = await insertLinkRow(db(), owner.id, { type: 'overlay', overlay_id: overlayId })
      const response = await page(`/${link.alias}`)
      expect(response.body).not.toContain('evil.example')
      expect(response.body).toContain('<details class="overlay" open>')
    })

    it('shows a plain frame for an overlay link whose overlay is gone or of another account', async () => {
      const stranger = await createAccount(context)
      const foreign = await insertOverlayRow(db(), stranger.id, 'message', { message: 'Not yours' })
      const link = await insertLinkRow(db(), owner.id, { type: 'overlay', overlay_id: foreign })
      const response = await page(`/${link.alias}`)
      expect(response.body).toContain('<iframe')
      expect(response.body).not.toContain('Not yours')
    })

    describe('contact overlays', () => {
      // Each test its own link and overlay: a count of stored submissions must not depend on another test's.
      async function contactLink() {
        const overlayId = await insertOverlayRow(db(), owner.id, 'contact', { email: 'owner@example.com', title: `Talk ${XSS}`, description: 'We answer fast', label: 'Send it' })
        const link = await insertLinkRow(db(), owner.id, { type: 'overlay', overlay_id: overlayId, url: 'https://example.com/product' })
        return { alias: link.alias, linkId: link.id, overlayId }
      }

      const contactsOfLink = (linkId: number) => db().selectFrom('contacts').selectAll().where('link_id', '=', linkId).orderBy('id').execute()

      it('shows the contact form posting to /{alias}/contact', async () => {
        const { alias } = await contactLink()
        const response = await page(`/${alias}`)
        expect(response.body).toContain(`<form method="post" action="/${alias}/contact">`)
        expect(response.body).toContain('name="email" type="email" required')
        expect(response.body).toContain(`<strong>Talk ${XSS_ESCAPED}</strong>`)
        expect(response.body).toContain('>Send it</button>')
        expect(response.body).not.toContain(XSS)
        expect(response.body).not.toContain('owner@example.com')
      })

      it('stores a submission for the owner and thanks the visitor', async () => {
        const { alias, linkId, overlayId } = await contactLink()
        const response = await visit(context.app, `/${alias}/contact`, { form: { name: ' Ada ', email: 'ada@example.com', message: `Call me ${XSS}` } })
        expect(response.statusCode).toBe(200)
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
        expect(response.body).toContain('Your message has been sent.')
        expect(response.body).toContain('href="https://example.com/product"')
        const stored = await contactsOfLink(linkId)
        expect(stored).toHaveLength(1)
        expect(stored[0]).toMatchObject({ account_id: owner.id, overlay_id: overlayId, link_id: linkId, name: 'Ada', email: 'ada@example.com', message: `Call me ${XSS}` })
        expect(stored[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
      })

      it.each([
        [{ name: 'Ada', message: 'hi' }, 'Please give your e-mail address.'],
        [{ email: 'not-an-email' }, 'Please give a valid e-mail address.'],
        [{ email: `${'a'.repeat(250)}@example.com` }, 'Please give a valid e-mail address.'],
        [{ email: 'ada@example.com', name: 'n'.repeat(101) }, 'Your name may be at most 100 characters.'],
        [{ email: 'ada@example.com', message: 'm'.repeat(1001) }, 'Your message may be at most 1000 characters.'],
        [{ email: 'ada@example.com', message: 'bell \u0007' }, 'Your message contains characters that are not allowed.'],
      ])('refuses %j with a 400 page and stores nothing', async (form, problem) => {
        const { alias, linkId } = await contactLink()
        const response = await visit(context.app, `/${alias}/contact`, { form })
        expect(response.statusCode).toBe(400)
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
        expect(response.body).toContain(problem)
        expect(await contactsOfLink(linkId)).toEqual([])
      })

      it('answers a body too large or of another type with an HTML 4xx page', async () => {
        const { alias } = await contactLink()
        const large = await visit(context.app, `/${alias}/contact`, { form: { email: 'ada@example.com', message: 'm'.repeat(5000) } })
        expect(large.statusCode).toBe(413)
        expect(large.headers['content-type']).toBe('text/html; charset=utf-8')
        const json = await visit(context.app, `/${alias}/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, payload: '{"email":' })
        expect(json.statusCode).toBe(400)
        expect(json.headers['content-type']).toBe('text/html; charset=utf-8')
      })

      it('takes no submissions for links without a contact overlay', async () => {
        const plain = await insertLinkRow(db(), owner.id, { type: 'frame' })
        const response = await visit(context.app, `/${plain.alias}/contact`, { form: { email: 'ada@example.com' } })
        expect(response.statusCode).toBe(404)
        expect((await visit(context.app, '/no-such-link/contact', { form: { email: 'ada@example.com' } })).statusCode).toBe(404)
      })
    })
  })
})
