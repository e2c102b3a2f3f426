// From a click to revenue in a real browser (issue 39), on SQLite (and PostgreSQL when
// TEST_DATABASE_URL is set). The marketer's part in the dashboard: the conversions page says what
// to do first; the setup page makes a publishable key and the Stripe address and takes Stripe's
// signing secret; the link form makes a link that tracks conversions, whose destination is a shop
// started here on loopback (node:http). The shop's page loads /lw.js from Linkwell; a visitor
// clicks the short link in Chromium, lands there, signs up, and the page hands
// `linkwell.clickId()` to the shop's server, which reports the lead with the publishable key (as
// lw.js's documentation says). Stripe then sends a `checkout.session.completed` signed with
// stripe.webhooks.generateTestHeaderString to the workspace's address. The conversions page shows
// the funnel 1 → 1 → 1 with €49.00, and the link's statistics its lead, sale and revenue.
// Screenshots at 1440 and 375 px of every page added or changed.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { e2eDatabases, hasChromium, screenshot, screenshotAtEveryWidth, useBrowser, WIDTHS, withDashboard } from './harness.js'

const SIGNING_SECRET = 'whsec_e2e_0123456789abcdef'
const CUSTOMER = 'cus_e2e_ada'
const stripe = new Stripe('sk_test_unused')

interface Shop {
  url: string
  /** The answers Linkwell gave the shop's server for its leads: [status, body]. */
  leads: Array<[number, unknown]>
  close(): Promise<void>
}

/**
 * The advertiser's shop: `/` loads Linkwell's script and offers a sign-up; the page posts the
 * click id to the shop's own `/signup`, whose server reports the lead with `key()`.
 */
async function startShop(linkwell: string, key: () => string): Promise<Shop> {
  const leads: Shop['leads'] = []
  const page = `<!doctype html><html lang="en"><title>Spring shop</title><link rel="icon" href="data:,">
<script src="${linkwell}/lw.js" async></script>
<h1>Spring shop</h1>
<form id="signup"><label>E-mail <input name="email" type="email" value="ada@example.com"></label><button>Sign up</button></form>
<p id="result" role="status"></p>
<script>
document.getElementById('signup').addEventListener('submit', async function (event) {
  event.preventDefault()
  var answer = await fetch('/signup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clickid: window.linkwell.clickId(), email: this.email.value }) })
  document.getElementById('result').textContent = answer.ok ? 'Welcome aboard!' : 'Sign-up failed: ' + answer.status
})
</script></html>`
  const site = http.createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/signup') {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', async () => {
        const signup = JSON.parse(body) as { clickid: string | null; email: string }
        // The shop's server reports the lead: its customer id, the visitor's click id.
        const answer = await fetch(`${linkwell}/api/track/lead`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key()}`, 'content-type': 'application/json' },
          body: JSON.stringify({ clickid: signup.clickid, customer: { id: CUSTOMER, name: 'Ada', email: signup.email } }),
        })
        leads.push([answer.status, await answer.json()])
        response.writeHead(answer.status === 201 ? 201 : 502, { 'content-type': 'application/json' }).end('{}')
      })
      return
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    leads,
    close: () => new Promise((resolve) => site.close(() => resolve())),
  }
}

function poll<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 20_000 })
}

async function figure(page: Page, testId: string): Promise<string | null> {
  return page.getByTestId(testId).textContent()
}

describe.skipIf(!hasChromium)('conversions in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('a click on a tracked link, a sign-up on the shop and a Stripe payment make the funnel 1 → 1 → 1 with the revenue ($name)', async ({ name, create }) => {
    let publishableKey = ''
    await withDashboard(browser(), await create(), async (d) => {
      const shop = await startShop(d.publicUrl, () => publishableKey)
      try {
        const page = await d.signedInPage()

        await page.goto(`${d.publicUrl}/app/conversions/setup`)
        await page.getByRole('heading', { name: 'Set up conversion tracking', level: 1 }).waitFor()

        // Step 1: new links track conversions.
        await page.getByRole('checkbox', { name: 'Track conversions on every new link' }).check()
        await page.getByRole('form', { name: 'Conversion tracking for new links' }).getByRole('button', { name: 'Save' }).click()
        await poll(async () => (await d.api<{ data: { trackconversions: boolean } }>('GET', '/api/account/settings')).body.data.trackconversions).toBe(true)

        // Step 2: the script to paste, with this Linkwell's address.
        expect(await page.getByLabel('Script for your website').textContent()).toBe(`<script src="${d.publicUrl}/lw.js" async></script>`)

        // Step 3: a publishable key, shown once.
        await page.getByRole('button', { name: 'Create publishable key' }).click()
        publishableKey = (await page.getByLabel('New publishable key').textContent())!
        expect(publishableKey).toMatch(/\S{20,}/)
        const keys = await d.api<{ data: Array<{ name: string; scopes: string[] | null }> }>('GET', '/api/keys')
        expect(keys.body.data.find((key) => key.name === 'Website')?.scopes).toEqual(['track'])

        // Step 4: the Stripe address first (Stripe shows its secret only once it has it), then the secret.
        await page.getByRole('button', { name: 'Get my Stripe address' }).click()
        const address = (await page.getByLabel('Your Stripe webhook address').textContent())!
        expect(address).toMatch(new RegExp(`^${d.publicUrl}/api/integrations/stripe/webhook/\\S+$`))
        await page.getByLabel('Stripe signing secret').fill(SIGNING_SECRET)
        await page.getByRole('button', { name: 'Save secret' }).click()
        await page.getByText('Stripe is connected: paid checkouts and invoices are recorded as sales.').waitFor()
        await screenshotAtEveryWidth(page, name, 'conversions-setup', `${d.publicUrl}/app/conversions/setup`, (shown) => shown.getByLabel('Your Stripe webhook address').waitFor())

        // The link, in the link form: its box is ticked by the workspace's default.
        await page.goto(`${d.publicUrl}/app/links/new`)
        await page.getByLabel('Destination URL').fill(`${shop.url}/`)
        await page.getByLabel('Alias (optional)').fill('spring-shop')
        const track = page.getByRole('checkbox', { name: 'Track conversions' })
        await poll(() => track.isChecked()).toBe(true)
        for (const size of WIDTHS) {
          await page.setViewportSize(size)
          await screenshot(page, name, 'link-form-track-conversions')
        }
        await page.setViewportSize(WIDTHS[0]!)
        await page.getByRole('button', { name: 'Create link' }).click()
        const shortUrl = (await page.locator('.short-result a').textContent())!
        expect(shortUrl).toBe(`${d.publicUrl}/spring-shop`)
        const linkId = Number((await page.getByRole('link', { name: 'View analytics' }).getAttribute('href'))!.match(/links\/(\d+)\/analytics/)![1])
        expect((await d.api<{ details: { trackconversions: boolean } }>('GET', `/api/url/${linkId}`)).body.details.trackconversions).toBe(true)

        // Nothing reported yet: the conversions page says what to do first and leads to the setup steps.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversions' }).click()
        await page.getByText('No sign-ups or sales in this range yet').waitFor()
        await screenshotAtEveryWidth(page, name, 'conversions-empty', page.url(), (shown) => shown.getByText('No sign-ups or sales in this range yet').waitFor())
        await page.getByRole('link', { name: 'Start the setup' }).click()
        await page.getByRole('heading', { name: 'Set up conversion tracking', level: 1 }).waitFor()

        // A visitor clicks the short link, lands on the shop with a click id, and signs up.
        const visitor = await (await d.newContext()).newPage()
        await visitor.goto(shortUrl)
        await visitor.getByRole('heading', { name: 'Spring shop' }).waitFor()
        const landed = new URL(visitor.url())
        expect(landed.origin).toBe(shop.url)
        const clickId = landed.searchParams.get('lw_id')
        expect(clickId).toMatch(/^[0-9a-f]{32}$/)
        await poll(() => visitor.evaluate('window.linkwell && window.linkwell.clickId()')).toBe(clickId)
        await visitor.getByRole('button', { name: 'Sign up' }).click()
        await visitor.getByText('Welcome aboard!').waitFor()
        expect(shop.leads).toEqual([[201, expect.objectContaining({ error: 0 })]])

        // Stripe: the customer pays €49.00 at checkout.
        const payload = JSON.stringify({
          id: 'evt_e2e_checkout', object: 'event', type: 'checkout.session.completed',
          data: { object: { id: 'cs_e2e', object: 'checkout.session', client_reference_id: CUSTOMER, amount_total: 4900, currency: 'eur', payment_status: 'paid', invoice: null } },
        })
        const delivered = await fetch(address, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: SIGNING_SECRET }) }, body: payload })
        expect(delivered.status).toBe(200)
        expect(await delivered.json()).toEqual({ error: 0, type: 'checkout.session.completed', recorded: true })

        // The funnel: one click, one lead, one sale, €49.00.
        await page.goto(`${d.publicUrl}/app/conversions`)
        await poll(() => figure(page, 'funnel-clicks')).toBe('1')
        expect(await figure(page, 'funnel-leads')).toBe('1')
        expect(await figure(page, 'funnel-sales')).toBe('1')
        expect(await figure(page, 'funnel-revenue')).toBe('€49.00')
        expect(await figure(page, 'funnel-lead-rate')).toBe('100% of clicks')
        const byLink = page.getByRole('table', { name: 'Conversions by link' })
        await poll(() => byLink.getByRole('row').nth(1).textContent()).toMatch(/spring-shop.*1.*1.*1.*€49\.00/)
        const sales = page.getByRole('table', { name: 'Latest sales' })
        await poll(() => sales.getByRole('row').nth(1).textContent()).toMatch(/€49\.00.*Ada.*spring-shop/)
        await screenshotAtEveryWidth(page, name, 'conversions-funnel', page.url(), (shown) => poll(() => shown.getByTestId('funnel-revenue').textContent()).toBe('€49.00'))

        // A link's row shows only its conversions, as a chip.
        await byLink.getByRole('button', { name: /spring-shop/ }).click()
        await page.getByRole('button', { name: /^Remove filter Link: / }).waitFor()
        expect(new URL(page.url()).searchParams.get('link')).toBe(String(linkId))
        await poll(() => figure(page, 'funnel-sales')).toBe('1')

        // The link's own statistics: its lead, sale and revenue beside its click.
        await page.goto(`${d.publicUrl}/app/links/${linkId}/analytics`)
        await poll(() => figure(page, 'range-clicks')).toBe('1')
        await poll(() => figure(page, 'range-leads')).toBe('1')
        expect(await figure(page, 'range-sales')).toBe('1')
        expect(await figure(page, 'range-revenue')).toBe('€49.00')
        await screenshotAtEveryWidth(page, name, 'link-analytics-conversions', page.url(), (shown) => poll(() => shown.getByTestId('range-revenue').textContent()).toBe('€49.00'))
      } finally {
        await shop.close()
      }
    })
  })
})
