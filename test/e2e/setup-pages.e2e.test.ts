// The setup pages in a real browser against the built server, on SQLite and (with
// TEST_DATABASE_URL) PostgreSQL: add a branded domain (SERVER_IPS unset, so the DNS check is
// skipped and the page says so) and edit its redirects; create a splash page and see the server's
// preview of it; create a contact overlay, put it on a link, send its form from another browser,
// and find the message in the overlay's contacts and in their CSV export. Every page is
// screenshot at 1440 and 375 px.
import fs from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { e2eDatabases, hasChromium, screenshotAtEveryWidth, startLandingSite, useBrowser, withDashboard } from './harness.js'

/** The preview frame has rendered the visitor's page with `text` in it. */
async function previewShows(page: Page, frameTitle: string, text: string | RegExp): Promise<void> {
  await page.frameLocator(`iframe[title="${frameTitle}"]`).getByText(text).first().waitFor()
}

/**
 * As previewShows, then scrolled to: Chromium paints no sandboxed frame that is off screen, not
 * even in a full-page screenshot (scrolling back up blanks it again), so on a phone the picture
 * shows the page scrolled to the preview, with the sticky header where the scroll left it.
 */
async function previewReady(page: Page, frameTitle: string, text: string | RegExp): Promise<void> {
  await previewShows(page, frameTitle, text)
  await page.locator(`iframe[title="${frameTitle}"]`).scrollIntoViewIfNeeded()
}

describe.skipIf(!hasChromium)('the setup pages in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('adds a domain and edits its redirects, previews a splash page, collects and exports an overlay\'s contacts ($name)', async ({ name, create }) => {
    const landing = await startLandingSite()
    try {
      await withDashboard(browser(), await create(), async (d) => {
        const page = await d.signedInPage()
        const app = `${d.publicUrl}/app`

        // --- Branded domains ---------------------------------------------------------------
        await page.goto(`${app}/domains`)
        await page.getByText('No branded domains yet').waitFor()
        await page.getByRole('link', { name: '+ Add domain' }).first().click()
        await page.getByRole('heading', { name: 'Add domain' }).waitFor()
        // No SERVER_IPS / SERVER_CNAME: the instructions say the check is skipped.
        await page.getByText(/so the DNS check is\s+skipped/).waitFor()
        // The client refuses what the server would, beside the field.
        await page.getByLabel('Domain', { exact: true }).fill('go.brand.example')
        await page.getByRole('button', { name: 'Add domain' }).click()
        await page.getByText('Must start with http:// or https://.').waitFor()
        await page.getByLabel('Domain', { exact: true }).fill('https://go.brand.example')
        // The DNS check answers (an .example name has no records) and says it decides nothing here.
        await page.getByRole('button', { name: 'Check DNS' }).click()
        await page.getByText('this is for your information only', { exact: false }).waitFor()
        await page.getByLabel('Root redirect (optional)').fill('https://www.brand.example/')
        await screenshotAtEveryWidth(page, name, 'domain-form', `${app}/domains/new`, (p) => p.getByText(/so the DNS check is\s+skipped/).waitFor())
        await page.getByLabel('Domain', { exact: true }).fill('https://go.brand.example')
        await page.getByLabel('Root redirect (optional)').fill('https://www.brand.example/')
        await page.getByRole('button', { name: 'Add domain' }).click()
        // The domain's own page comes next, with the record that proves it is ours (test/e2e/domains.e2e.test.ts walks it).
        await page.getByText('go.brand.example has been added. Next: create its TXT record.').waitFor()
        await page.getByRole('link', { name: '← All branded domains' }).click()
        const row = page.getByRole('row').filter({ hasText: 'go.brand.example' })
        await row.getByRole('link', { name: 'www.brand.example' }).waitFor()
        await expect.poll(async () => page.getByTestId('usage-domains').textContent()).toMatch(/^1 /)

        // Edit: the 404 redirect is set, the root redirect cleared.
        await row.getByRole('link', { name: 'Edit go.brand.example' }).click()
        await page.getByRole('heading', { name: 'Edit domain' }).waitFor()
        await expect.poll(() => page.getByLabel('Root redirect (optional)').inputValue()).toBe('https://www.brand.example/')
        await page.getByLabel('404 redirect (optional)').fill('javascript:alert(1)')
        await page.getByRole('button', { name: 'Save redirects' }).click()
        await page.getByText('Must be an http or https URL, or empty for none.').waitFor()
        await page.getByLabel('404 redirect (optional)').fill('https://www.brand.example/missing')
        await page.getByLabel('Root redirect (optional)').fill('')
        await page.getByRole('button', { name: 'Save redirects' }).click()
        await page.getByText('Redirects saved.').waitFor()
        const domains = await d.api<{ data: { domains: Array<{ domain: string; redirectroot: string | null; redirect404: string | null }> } }>('GET', '/api/domains')
        expect(domains.body.data.domains).toMatchObject([{ id: expect.any(Number), domain: 'https://go.brand.example', redirectroot: null, redirect404: 'https://www.brand.example/missing', status: 'pending' }])
        await screenshotAtEveryWidth(page, name, 'domains', `${app}/domains`, (p) => p.getByRole('row').filter({ hasText: 'go.brand.example' }).waitFor())

        // --- Splash pages ------------------------------------------------------------------
        await page.goto(`${app}/splash`)
        await page.getByText('No splash pages yet').waitFor()
        await page.getByRole('link', { name: '+ Create splash page' }).first().click()
        await page.getByLabel('Name', { exact: true }).fill('Spring launch')
        await page.getByLabel('Title', { exact: true }).fill('Our spring collection is here')
        await page.getByLabel('Description (optional)').fill('Twenty new designs, in stores now.')
        await page.getByLabel('Offer link (optional)').fill('https://shop.brand.example/spring')
        await page.getByLabel('Seconds before going on').fill('8')
        // The preview is the server's rendering of the visitor's page, in a sandboxed frame.
        await previewShows(page, 'Preview of the splash page', 'Our spring collection is here')
        await previewShows(page, 'Preview of the splash page', 'in 8 seconds')
        const frame = page.locator('iframe[title="Preview of the splash page"]')
        expect(await frame.getAttribute('sandbox')).toBe('')
        await page.getByRole('button', { name: 'Create splash page' }).click()
        await page.getByText('Splash page “Spring launch” created.', { exact: false }).waitFor()
        const splashRow = page.getByRole('row').filter({ hasText: 'Spring launch' })
        await splashRow.getByRole('link', { name: 'Edit Spring launch' }).click()
        await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Our spring collection is here')
        const splashEditor = page.url()
        await screenshotAtEveryWidth(page, name, 'splash-editor', splashEditor, (p) => previewReady(p, 'Preview of the splash page', 'in 8 seconds'))
        await screenshotAtEveryWidth(page, name, 'splash-pages', `${app}/splash`, (p) => p.getByRole('row').filter({ hasText: 'Spring launch' }).waitFor())

        // --- CTA overlays and their contacts ------------------------------------------------
        await page.goto(`${app}/overlays`)
        await page.getByText('No overlays yet').waitFor()
        await page.getByRole('link', { name: '+ Create overlay' }).first().click()
        await page.getByLabel('Type', { exact: true }).selectOption('contact')
        await page.getByLabel('Name', { exact: true }).fill('Spring leads')
        await page.getByLabel('Title (optional)').fill('Questions about spring?')
        await page.getByLabel('Button text (optional)').fill('Send it')
        await page.getByLabel('Your e-mail').fill('sales@brand.example')
        await previewShows(page, 'Preview of the overlay', 'Questions about spring?')
        await page.getByRole('button', { name: 'Create overlay' }).click()
        await page.getByText('Overlay “Spring leads” created.', { exact: false }).waitFor()
        const overlays = await d.client.GET('/api/overlay')
        const overlay = overlays.data.cta.find((entry) => entry.name === 'Spring leads')!
        expect(overlay.type).toBe('contact')

        const overlayRow = page.getByRole('row').filter({ hasText: 'Spring leads' })
        await overlayRow.getByRole('link', { name: 'Contacts of Spring leads' }).click()
        await page.getByText('No contacts yet').waitFor()
        expect(await page.getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(true)

        // A link showing the overlay, visited from another browser that sends the form.
        const link = await d.client.POST('/api/url/add', { body: { url: `${landing.url}/spring`, type: `overlay-${overlay.id}` } })
        const visitor = await (await d.newContext()).newPage()
        await visitor.goto(link.shorturl)
        await visitor.getByText('Questions about spring?').waitFor()
        await visitor.getByLabel('Name', { exact: true }).fill('Ada Lovelace')
        await visitor.getByLabel('E-mail', { exact: true }).fill('ada@example.com')
        await visitor.getByLabel('Message', { exact: true }).fill('Do you ship, to London?\nThanks!')
        await visitor.getByRole('button', { name: 'Send it' }).click()
        await visitor.getByText('Your message has been sent.').waitFor()

        await page.reload()
        const contactRow = page.getByRole('row').filter({ hasText: 'ada@example.com' })
        await contactRow.getByText('Ada Lovelace').waitFor()
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
        expect(download.suggestedFilename()).toBe('contacts-spring-leads.csv')
        const csv = fs.readFileSync((await download.path())!, 'utf8')
        // One header, one row; the browser sends the textarea's line break as CRLF, kept inside the quotes.
        expect(csv).toMatch(/^Date \(UTC\),Name,E-mail,Message\r\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,Ada Lovelace,ada@example\.com,"Do you ship, to London\?\r?\nThanks!"\r\n$/)
        const contactsPage = page.url()
        await screenshotAtEveryWidth(page, name, 'overlay-contacts', contactsPage, (p) => p.getByRole('row').filter({ hasText: 'ada@example.com' }).waitFor())

        await screenshotAtEveryWidth(page, name, 'overlay-editor', `${app}/overlays/${overlay.id}/edit`, (p) => previewReady(p, 'Preview of the overlay', 'Questions about spring?'))
        await screenshotAtEveryWidth(page, name, 'overlays', `${app}/overlays`, (p) => p.getByRole('row').filter({ hasText: 'Spring leads' }).waitFor())

        // Delete behind a confirmation: the splash page goes, the usage note follows.
        await page.goto(`${app}/splash`)
        await page.getByRole('row').filter({ hasText: 'Spring launch' }).getByRole('button', { name: 'Delete Spring launch' }).click()
        await page.getByRole('alertdialog').getByRole('button', { name: 'Delete splash page' }).click()
        await page.getByText('No splash pages yet').waitFor()
      }, { SERVER_IPS: '', SERVER_CNAME: '' })
    } finally {
      await landing.close()
    }
  }, 240_000)
})
