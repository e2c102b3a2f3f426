// A first visit and a server refusal in a real browser, on SQLite (and PostgreSQL when
// TEST_DATABASE_URL is set): a fresh browser (no cookie) opens the service's address and reaches
// the sign-in page without one console error (the shell's session probe answers 200); signed in,
// the link builder marks the field the server's envelope names (`field`: a taken alias), and its
// hints lead to the Domains and Pixels pages. The link form is screenshot at 1440 and 375 px.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { allowingConsoleErrors, e2eDatabases, hasChromium, screenshot, signIn, useBrowser, WIDTHS, withDashboard } from './harness.js'

/** The text of what a control points at (aria-describedby): its hint and its error. */
async function describedText(page: Page, label: string): Promise<string> {
  const ids = (await page.getByLabel(label).getAttribute('aria-describedby')) ?? ''
  const texts = await Promise.all(ids.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()))
  return texts.join(' ')
}

describe.skipIf(!hasChromium)('a first visit and the server\'s field errors in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('reaches the sign-in page with a clean console, and marks the field a refusal names ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      // A fresh browser: no cookie, nothing cached. Every console message of the visit is kept.
      const context = await d.newContext()
      const page = await context.newPage()
      const logged: string[] = []
      page.on('console', (message) => logged.push(`${message.type()}: ${message.text()}`))
      const probes: number[] = []
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === '/api/auth/session') probes.push(response.status())
      })
      await page.goto(`${d.publicUrl}/`)
      await expect.poll(() => new URL(page.url()).pathname).toBe('/app/signin')
      await page.getByRole('button', { name: 'Sign in' }).waitFor()
      await page.waitForLoadState('networkidle')
      expect(probes).toEqual([200])
      expect(logged.filter((line) => line.startsWith('error'))).toEqual([])
      expect(d.errors).toEqual([])

      // Signed in, the link builder: the alias is well formed, but another link has it.
      await signIn(page, d.publicUrl, d.credentials)
      expect((await d.api('POST', '/api/url/add', { url: 'https://example.com/first', custom: 'taken-e2e' })).status).toBe(201)
      await page.goto(`${d.publicUrl}/app/links/new`)
      await page.getByLabel('Destination URL').fill('https://example.com/second')
      await page.getByLabel('Alias (optional)').fill('taken-e2e')
      await allowingConsoleErrors(d.errors, /status of 400/, async () => {
        await page.getByRole('button', { name: 'Create link' }).click()
        await expect.poll(() => page.getByLabel('Alias (optional)').getAttribute('aria-invalid')).toBe('true')
      })
      expect(await describedText(page, 'Alias (optional)')).toContain('That alias is taken. Please choose another one.')
      // Only the field the envelope names is marked, and it has the focus.
      expect(await page.getByLabel('Destination URL').getAttribute('aria-invalid')).toBeNull()
      await expect.poll(() => page.getByLabel('Alias (optional)').evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true)
      expect(await page.getByRole('alert').textContent()).toContain('That alias is taken.')
      for (const size of WIDTHS) {
        await page.setViewportSize(size)
        await screenshot(page, name, 'create-link-alias-taken')
      }
      await page.setViewportSize(WIDTHS[0]!)

      // No domains and no pixels yet: the form leads to the pages that add them.
      await page.getByRole('link', { name: 'add a branded domain' }).click()
      await page.getByRole('heading', { name: 'Add domain' }).waitFor()
      await page.goBack()
      await page.getByRole('link', { name: 'Add a pixel' }).click()
      await page.getByRole('heading', { name: 'Pixels' }).waitFor()
    })
  }, 180_000)
})
