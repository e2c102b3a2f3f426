// Link options in a real browser, the rest of issue 23's walk (link-options.e2e.test.ts has UTM,
// the cap and split tests; link-builder.e2e.test.ts the social card), on SQLite (and PostgreSQL
// when TEST_DATABASE_URL is set):
// - app links: in the builder an iOS and an Android destination beside device rules; visitors on
//   an iPhone, an Android phone and a desktop each land where ADR 020's precedence says (the app
//   link of the platform before every rule, the rules for the others, UTM merged into either);
// - links that report when they break: the served process's own checker (LINK_CHECK on,
//   LINK_CHECK_ALLOW_PRIVATE=1 for this machine's sites) finds the destination answering 500, the
//   links list shows the Broken badge and its filter, a visitor goes to the link's `brokenurl`
//   while it is broken and to the destination again once it has recovered.
// Screenshots at 1440 and 375 px of the builder's app links and of the list with the badge.
import { expect, it, describe } from 'vitest'
import { openDatabase } from '../../src/db/database.js'
import { e2eDatabases, hasChromium, screenshot, screenshotAtEveryWidth, startLandingSite, useBrowser, VISITOR_AGENT, WIDTHS, withDashboard } from './harness.js'

const IPHONE_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const ANDROID_AGENT = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'

/**
 * Six hours later, as far as the checker can tell: the link is due for its next look at once. The
 * checker runs in the served process on its own schedule (a look when a link is new, then every
 * LINK_CHECK_INTERVAL_HOURS, at least one): the test moves the link's next time, nothing else.
 */
async function dueForALook(databaseUrl: string, alias: string): Promise<void> {
  const handle = openDatabase(databaseUrl)
  try {
    await handle.db.updateTable('links').set({ health_next_at: '' }).where('alias', '=', alias).execute()
  } finally {
    await handle.close()
  }
}

// The served process's checker asks for due links every second here (LINK_CHECK_POLL_SECONDS=1);
// the deadline is a hang guard for a loaded machine.
const CHECKER_POLL = { timeout: 90_000, intervals: [250] }

interface ListedLinks {
  data: { urls: Array<{ id: number; alias: string; health: { state: string; status: number | null } }> }
}

describe.skipIf(!hasChromium)('app links and links that report when they break, in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('sends iPhone, Android and desktop visitors where the precedence says ($name)', async ({ name, create }) => {
    const landing = await startLandingSite()
    try {
      await withDashboard(browser(), await create(), async (d) => {
        const page = await d.signedInPage()
        await page.goto(`${d.publicUrl}/app/links/new`)
        await page.getByRole('heading', { name: 'Create link' }).waitFor()
        await page.getByLabel('Destination URL').fill(`${landing.url}/spring`)
        await page.getByLabel('Alias (optional)').fill('app-e2e')
        await page.getByLabel('UTM source (optional)').fill('poster')
        await page.getByLabel('iOS app link (optional)').fill(`${landing.url}/ios-app`)
        await page.getByLabel('Android app link (optional)').fill(`${landing.url}/android-app`)
        // Device rules: one for iPhones (the app link comes first), one for desktops (it applies).
        await page.getByRole('button', { name: 'Add device rule' }).click()
        await page.getByLabel('Device 1', { exact: true }).selectOption({ label: 'iPhone' })
        await page.getByLabel('Device 1 destination').fill(`${landing.url}/iphone-rule`)
        await page.getByRole('button', { name: 'Add device rule' }).click()
        await page.getByLabel('Device 2', { exact: true }).selectOption({ label: 'Any desktop' })
        await page.getByLabel('Device 2 destination').fill(`${landing.url}/desktop-rule`)

        // The preview says who goes where; the builder says the iPhone rule will not be used.
        expect(await page.getByLabel('iPhone and iPad preview').textContent()).toBe(`${landing.url}/ios-app?utm_source=poster`)
        expect(await page.getByLabel('Android preview').textContent()).toBe(`${landing.url}/android-app?utm_source=poster`)
        expect(await page.getByTestId('destination-preview').textContent()).toBe(`${landing.url}/spring?utm_source=poster`)
        expect(await page.getByRole('note').textContent()).toBe('Device rule 1 (iPhone) is not used: those visitors go to the iOS app link above.')

        for (const size of WIDTHS) {
          await page.setViewportSize(size)
          await screenshot(page, name, 'link-options-app-links')
          expect(await page.evaluate('document.documentElement.scrollWidth'), `the builder at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(size.width)
        }
        await page.setViewportSize(WIDTHS[0]!)

        // The client refuses what the server would, beside the field.
        await page.getByLabel('iOS app link (optional)').fill('apps.apple.com/app')
        await page.getByRole('button', { name: 'Create link' }).click()
        await page.getByText('Enter a full http:// or https:// address.').waitFor()
        await page.getByLabel('iOS app link (optional)').fill(`${landing.url}/ios-app`)

        await page.getByRole('button', { name: 'Create link' }).click()
        await page.getByRole('status').filter({ hasText: 'Your short link is ready' }).waitFor()
        const shortUrl = `${d.publicUrl}/app-e2e`

        const expected = [
          // iOS: the app link, not the iPhone device rule (app links come before every rule).
          { agent: IPHONE_AGENT, url: `${landing.url}/ios-app?utm_source=poster` },
          { agent: ANDROID_AGENT, url: `${landing.url}/android-app?utm_source=poster` },
          // Neither platform: the rules as before, the desktop rule here.
          { agent: VISITOR_AGENT, url: `${landing.url}/desktop-rule?utm_source=poster` },
        ]
        for (const { agent, url } of expected) {
          const visitor = await (await d.newContext({ userAgent: agent })).newPage()
          await visitor.goto(shortUrl)
          await visitor.getByRole('heading', { name: 'Spring sale' }).waitFor()
          expect(visitor.url(), agent).toBe(url)
        }

        const list = await d.api<ListedLinks>('GET', '/api/urls')
        const id = list.body.data.urls.find((entry) => entry.alias === 'app-e2e')!.id
        const details = await d.api<{ details: Record<string, unknown> }>('GET', `/api/url/${id}`)
        expect(details.body.details).toMatchObject({ ios: `${landing.url}/ios-app`, android: `${landing.url}/android-app` })
      })
    } finally {
      await landing.close()
    }
  })

  it.each(databases)('marks a link broken once its destination answers 500 and sends visitors to its fallback meanwhile ($name)', async ({ name, create }) => {
    const site = await startLandingSite('Spring sale')
    const shop = await startLandingSite('Our shop')
    const database = await create()
    try {
      await withDashboard(browser(), database, async (d) => {
        const page = await d.signedInPage()
        await page.goto(`${d.publicUrl}/app/links/new`)
        await page.getByRole('heading', { name: 'Create link' }).waitFor()
        await page.getByLabel('Destination URL').fill(`${site.url}/poster-offer`)
        await page.getByLabel('Alias (optional)').fill('poster')
        await page.getByLabel('While the destination is broken, send visitors to (optional)').fill(`${shop.url}/home`)
        await page.getByRole('button', { name: 'Create link' }).click()
        await page.getByRole('status').filter({ hasText: 'Your short link is ready' }).waitFor()
        await d.client.POST('/api/url/add', { body: { url: `${shop.url}/home`, custom: 'healthy' } })

        // While the destination works, visitors go there.
        const visitor = await (await d.newContext({ userAgent: VISITOR_AGENT })).newPage()
        await visitor.goto(`${d.publicUrl}/poster`)
        await visitor.getByRole('heading', { name: 'Spring sale' }).waitFor()
        expect(visitor.url()).toBe(`${site.url}/poster-offer`)

        // The site goes down; at the link's next look the checker finds it broken.
        site.answerWith(500)
        await dueForALook(database.url, 'poster')
        const healthOf = async (alias: string) => (await d.api<ListedLinks>('GET', '/api/urls')).body.data.urls.find((entry) => entry.alias === alias)!.health
        await expect.poll(() => healthOf('poster'), CHECKER_POLL).toEqual(expect.objectContaining({ state: 'broken', status: 500 }))
        const broken = await d.api<ListedLinks>('GET', '/api/urls?health=broken')
        expect(broken.body.data.urls.map((entry) => entry.alias)).toEqual(['poster'])

        // Visitors (a printed QR code's) go to the fallback while it is broken.
        await expect.poll(async () => {
          await visitor.goto(`${d.publicUrl}/poster`)
          return visitor.url()
        }).toBe(`${shop.url}/home`)
        await visitor.getByRole('heading', { name: 'Our shop' }).waitFor()

        // The list marks it; the filter shows only broken links.
        const row = (alias: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: new RegExp(`/${alias}$`) }) })
        await screenshotAtEveryWidth(page, name, 'links-broken', `${d.publicUrl}/app/links`, async () => {
          await row('poster').getByText('Broken', { exact: true }).waitFor()
        })
        await row('poster').getByText(/^The destination answered with an error \(500\) when checked /).waitFor()
        await expect.poll(() => row('healthy').count()).toBe(1)
        expect(await row('healthy').getByText('Broken', { exact: true }).count()).toBe(0)
        await page.getByLabel('Destination').selectOption({ label: 'Broken links' })
        await expect.poll(() => new URL(page.url()).search).toBe('?health=broken')
        await expect.poll(() => row('healthy').count()).toBe(0)
        expect(await row('poster').getByText('Broken', { exact: true }).count()).toBe(1)
        for (const size of WIDTHS) {
          await page.setViewportSize(size)
          await screenshot(page, name, 'links-broken-filter')
        }
        await page.setViewportSize(WIDTHS[0]!)

        // The site is back: at the next look the link recovers and visitors go to it again.
        site.answerWith(200)
        await dueForALook(database.url, 'poster')
        await expect.poll(() => healthOf('poster'), CHECKER_POLL).toEqual(expect.objectContaining({ state: 'ok', status: 200 }))
        await expect.poll(async () => {
          await visitor.goto(`${d.publicUrl}/poster`)
          return visitor.url()
        }).toBe(`${site.url}/poster-offer`)
      }, { LINK_CHECK: 'on', LINK_CHECK_ALLOW_PRIVATE: '1', LINK_CHECK_POLL_SECONDS: '1' })
    } finally {
      await site.close()
      await shop.close()
    }
  }, 300_000)
})
