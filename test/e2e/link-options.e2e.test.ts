// Link options in a real browser (issue 23), on SQLite (and PostgreSQL when TEST_DATABASE_URL is
// set): in the link builder, apply a UTM template, change a parameter, see the destination visitors
// will get in the preview, save the parameters as a new template, create the link, and follow it
// from another browser to the destination with its UTM query; then cap its clicks with a fallback
// address and see the visitor sent there once the cap is reached; start a split test, see a visitor
// keep their variant, and end the test with a winner. Screenshots at 1440 and 375 px.
import { describe, expect, it } from 'vitest'
import { e2eDatabases, hasChromium, screenshot, startLandingSite, useBrowser, VISITOR_AGENT, WIDTHS, withDashboard } from './harness.js'

describe.skipIf(!hasChromium)('link options in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('builds a link with UTM parameters from a template and sends a visitor to the destination with them ($name)', async ({ name, create }) => {
    const landing = await startLandingSite()
    try {
      await withDashboard(browser(), await create(), async (d) => {
        await d.client.POST('/api/utm-template/add', { body: { name: 'Newsletter', utm: { source: 'newsletter', medium: 'email' } } })
        const page = await d.signedInPage()
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create link' }).click()
        await page.getByRole('heading', { name: 'Create link' }).waitFor()

        await page.getByLabel('Destination URL').fill(`${landing.url}/spring?utm_source=old&ref=home#offers`)
        await page.getByLabel('Alias (optional)').fill('utm-e2e')
        await page.getByLabel('UTM template (optional)').selectOption({ label: 'Newsletter' })
        expect(await page.getByLabel('UTM source (optional)').inputValue()).toBe('newsletter')
        expect(await page.getByLabel('UTM medium (optional)').inputValue()).toBe('email')
        await page.getByLabel('UTM campaign (optional)').fill('spring sale')
        const expected = `${landing.url}/spring?utm_source=newsletter&ref=home&utm_medium=email&utm_campaign=spring%20sale#offers`
        await expect.poll(() => page.getByTestId('destination-preview').textContent()).toBe(expected)

        // The parameters saved as a template of their own.
        await page.getByLabel('Template name (optional)').fill('Spring mailing')
        await page.getByRole('button', { name: 'Save as template' }).click()
        await page.getByText('Saved as “Spring mailing”.').waitFor()
        const templates = await d.api<{ data: { templates: Array<{ name: string; utm: Record<string, string> }> } }>('GET', '/api/utm-templates')
        expect(templates.body.data.templates.map((entry) => [entry.name, entry.utm])).toEqual([
          ['Spring mailing', { source: 'newsletter', medium: 'email', campaign: 'spring sale' }],
          ['Newsletter', { source: 'newsletter', medium: 'email' }],
        ])
        await page.getByLabel('UTM template (optional)').locator('option', { hasText: 'Spring mailing' }).waitFor({ state: 'attached' })

        for (const size of WIDTHS) {
          await page.setViewportSize(size)
          await screenshot(page, name, 'link-options-utm')
          expect(await page.evaluate('document.documentElement.scrollWidth'), `the builder at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(size.width)
        }
        await page.setViewportSize(WIDTHS[0]!)

        // The client refuses what the server would, beside the field.
        await page.getByLabel('UTM term (optional)').fill('x'.repeat(201))
        await page.getByRole('button', { name: 'Create link' }).click()
        await page.getByText('Use at most 200 characters.').waitFor()
        await page.getByLabel('UTM term (optional)').fill('')

        await page.getByRole('button', { name: 'Create link' }).click()
        const created = page.getByRole('status').filter({ hasText: 'Your short link is ready' })
        await created.waitFor()
        const shortUrl = await created.getByRole('link', { name: /utm-e2e/ }).getAttribute('href')
        expect(shortUrl).toBe(`${d.publicUrl}/utm-e2e`)

        // A visitor follows it to the destination with the parameters.
        const visitor = await (await d.newContext({ userAgent: VISITOR_AGENT })).newPage()
        await visitor.goto(shortUrl!)
        await visitor.getByRole('heading', { name: 'Spring sale' }).waitFor()
        expect(visitor.url()).toBe(expected)

        // The builder shows them again when the link is edited.
        const list = await d.api<{ data: { urls: Array<{ id: number; alias: string }> } }>('GET', '/api/urls')
        const id = list.body.data.urls.find((entry) => entry.alias === 'utm-e2e')!.id
        await page.goto(`${d.publicUrl}/app/links/${id}/edit`)
        await page.getByRole('heading', { name: 'Edit link' }).waitFor()
        expect(await page.getByLabel('UTM campaign (optional)').inputValue()).toBe('spring sale')
        await expect.poll(() => page.getByTestId('destination-preview').textContent()).toBe(expected)

        // A cap of two clicks (one is used already) and where visitors go after it.
        await page.getByLabel('Click limit (optional)').fill('2')
        await page.getByLabel('Once expired, send visitors to (optional)').fill(`${landing.url}/sold-out`)
        for (const size of WIDTHS) {
          await page.setViewportSize(size)
          await screenshot(page, name, 'link-options-cap')
        }
        await page.setViewportSize(WIDTHS[0]!)
        await page.getByLabel('Click limit (optional)').fill('0')
        await page.getByRole('button', { name: 'Save changes' }).click()
        await page.getByText('Enter a whole number from 1 to 1,000,000,000.').waitFor()
        await page.getByLabel('Click limit (optional)').fill('2')
        await page.getByRole('button', { name: 'Save changes' }).click()
        await page.getByText('Link saved.').waitFor()
        await visitor.goto(shortUrl!)
        await visitor.getByRole('heading', { name: 'Spring sale' }).waitFor()
        expect(visitor.url()).toBe(expected)
        await visitor.goto(shortUrl!)
        await expect.poll(() => visitor.url()).toBe(`${landing.url}/sold-out`)
        const details = await d.api<{ details: { clicklimit: number; expiredurl: string } }>('GET', `/api/url/${id}`)
        expect(details.body.details).toMatchObject({ clicklimit: 2, expiredurl: `${landing.url}/sold-out` })

        // A split test: a visitor keeps their variant; a winner ends the test.
        await page.goto(`${d.publicUrl}/app/links/new`)
        await page.getByRole('heading', { name: 'Create link' }).waitFor()
        await page.getByLabel('Destination URL').fill(`${landing.url}/spring`)
        await page.getByLabel('Alias (optional)').fill('split-e2e')
        await page.getByRole('button', { name: 'Start a split test' }).click()
        await page.getByLabel('Variant 1 URL').fill(`${landing.url}/a`)
        await page.getByLabel('Variant 2 URL').fill(`${landing.url}/b`)
        await page.getByLabel('Variant 2 weight').fill('0')
        await page.getByRole('button', { name: 'Create link' }).click()
        await page.getByText('Enter a whole number from 1 to 1,000,000.').waitFor()
        await page.getByLabel('Variant 2 weight').fill('2')
        await page.getByRole('button', { name: 'Create link' }).click()
        await page.getByRole('status').filter({ hasText: 'Your short link is ready' }).waitFor()
        await visitor.goto(`${d.publicUrl}/split-e2e`)
        await visitor.getByRole('heading', { name: 'Spring sale' }).waitFor()
        const variantUrl = visitor.url()
        expect([`${landing.url}/a`, `${landing.url}/b`]).toContain(variantUrl)
        await visitor.goto(`${d.publicUrl}/split-e2e`)
        await expect.poll(() => visitor.url()).toBe(variantUrl)

        const splitList = await d.api<{ data: { urls: Array<{ id: number; alias: string }> } }>('GET', '/api/urls')
        const splitId = splitList.body.data.urls.find((entry) => entry.alias === 'split-e2e')!.id
        const chosen = variantUrl.endsWith('/a') ? 0 : 1
        await expect.poll(async () => (await d.api<{ details: { variants: Array<{ clicks: number }> } }>('GET', `/api/url/${splitId}`)).body.details.variants[chosen]!.clicks).toBe(2)
        await page.goto(`${d.publicUrl}/app/links/${splitId}/edit`)
        await page.getByRole('heading', { name: 'Edit link' }).waitFor()
        await page.getByText('2 clicks (100 %)').waitFor()
        for (const size of WIDTHS) {
          await page.setViewportSize(size)
          await screenshot(page, name, 'link-options-split')
        }
        await page.setViewportSize(WIDTHS[0]!)
        const other = 1 - chosen
        await page.getByRole('button', { name: `Make variant ${other + 1} the only destination` }).click()
        await page.getByText(`Variant ${other + 1} is now the link's destination.`).waitFor()
        await visitor.goto(`${d.publicUrl}/split-e2e`)
        await expect.poll(() => visitor.url()).toBe(`${landing.url}/${other === 0 ? 'a' : 'b'}`)
      })
    } finally {
      await landing.close()
    }
  })
})
