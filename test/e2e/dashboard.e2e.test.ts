// The dashboard in a real browser (Debian's Chromium driven by playwright-core) against the built
// server (`node dist/linkwell.mjs`) on a fresh SQLite database, and on a fresh PostgreSQL database
// when TEST_DATABASE_URL is set: sign in with the first-start credentials, create a link with
// options, visit it from another browser, see the click in its analytics, bulk create from a CSV,
// create an API key and use it from outside the browser, sign out. Every page is screenshot at
// 1440 and 375 px into test-results/screenshots/ for a person to look at.
import fs from 'node:fs'
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { freePort, startServer } from '../helpers/server-process.js'
import { allowingConsoleErrors, e2eDatabases, firstStartCredentials, hasChromium, screenshot, screenshotAtEveryWidth, startLandingSite, useBrowser, VISITOR_AGENT, watchConsole, WIDTHS } from './harness.js'

describe.skipIf(!hasChromium)('the dashboard in a browser', () => {
  const { browser: browserOf, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('signs in, creates and visits a link, sees its click, bulk creates, makes a working API key and signs out ($name)', async ({ name, create }) => {
    const database = await create()
    const browser = browserOf()
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}`
    // Screenshots reload every page twice within a minute: more than a person's pace.
    const server = await startServer({ PORT: String(port), PUBLIC_URL: publicUrl, DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: '600' })
    const landing = await startLandingSite()
    const destination = `${landing.url}/spring?utm_source=e2e`
    const errors: string[] = []
    const contexts: BrowserContext[] = []
    try {
      const credentials = await firstStartCredentials(server)
      const owner = await browser.newContext({ viewport: WIDTHS[0], userAgent: VISITOR_AGENT, acceptDownloads: true })
      const visitor = await browser.newContext({ userAgent: VISITOR_AGENT, locale: 'fr-FR' })
      contexts.push(owner, visitor)
      const page = await owner.newPage()
      watchConsole(page, errors)

      // The bare address leads to the dashboard, which asks for a sign-in.
      await page.goto(`${publicUrl}/`)
      await expect.poll(() => new URL(page.url()).pathname).toBe('/app/signin')
      // Nothing was refused on the way: the shell's probe answers "nobody" with a 200.
      expect(errors).toEqual([])
      await page.getByLabel('E-mail or username').fill(credentials.username)
      await page.getByLabel('Password').fill('not the password')
      await allowingConsoleErrors(errors, /status of 401/, async () => {
        await page.getByRole('button', { name: 'Sign in' }).click()
        await page.getByRole('alert').waitFor()
      })
      await page.getByLabel('Password').fill(credentials.password)
      await page.getByLabel('Password').press('Enter')
      await page.getByRole('heading', { name: 'Overview' }).waitFor()
      // The keyboard's first stop skips the navigation.
      await page.keyboard.press('Tab')
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content')
      await page.getByText('Welcome to Linkwell').waitFor()
      await screenshot(page, name, 'overview-empty')

      // A link with options.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create link' }).click()
      await page.getByRole('heading', { name: 'Create link' }).waitFor()
      await page.getByLabel('Destination URL').fill(destination)
      await page.getByLabel('Alias (optional)').fill('spring-e2e')
      const nextYear = new Date().getFullYear() + 1
      await page.getByLabel('Expires (optional)').fill(`${nextYear}-06-30T18:00`)
      await page.getByLabel('Meta title (optional)').fill('Spring sale')
      await page.getByLabel('Meta description (optional)').fill('Everything 20% off until June.')
      await page.getByRole('button', { name: 'Add country rule' }).click()
      await page.getByLabel('Country 1', { exact: true }).selectOption('DE')
      await page.getByLabel('Country 1 destination').fill('https://example.de/fruehling')
      await page.getByRole('button', { name: 'Add device rule' }).click()
      await page.getByLabel('Device 1', { exact: true }).selectOption('ipad')
      await page.getByLabel('Device 1 destination').fill('https://apps.example.com/ipad')
      // The client refuses what the server would, beside the field.
      await page.getByLabel('Alias (optional)').fill('no spaces')
      await page.getByRole('button', { name: 'Create link' }).click()
      await page.getByText('Use 3 to 64 letters, digits, _ or -.').waitFor()
      await page.getByLabel('Alias (optional)').fill('spring-e2e')
      await page.getByRole('button', { name: 'Create link' }).click()
      const created = page.getByRole('status').filter({ hasText: 'Your short link is ready' })
      await created.waitFor()
      const shortUrl = await created.getByRole('link', { name: /spring-e2e/ }).getAttribute('href')
      expect(shortUrl).toBe(`${publicUrl}/spring-e2e`)
      await screenshot(page, name, 'create-link')

      // Another browser follows the short link to its destination.
      const visit = await visitor.newPage()
      watchConsole(visit, errors)
      await visit.goto(shortUrl!)
      expect(visit.url()).toBe(destination)
      await visit.getByRole('heading', { name: 'Spring sale' }).waitFor()

      // The click shows up in the link's analytics within seconds.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links' }).click()
      const row = page.getByRole('row').filter({ hasText: 'spring-e2e' })
      await row.getByRole('link', { name: /^Analytics of/ }).click()
      await page.getByRole('heading', { name: 'Spring sale' }).waitFor()
      await page.getByTestId('range-clicks').filter({ hasText: /^1$/ }).waitFor({ timeout: 30_000 })
      await page.getByRole('img', { name: 'Map of clicks by country' }).waitFor()
      const analyticsAddress = page.url()
      const [export_] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
      const exported = fs.readFileSync((await export_.path())!, 'utf8')
      expect(exported).toMatch(/^section,label,clicks,unique clicks\r\n/)
      expect(exported).toMatch(/\r\ntotal,\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2},1,1\r\n/)

      // Its options were kept.
      await page.getByRole('link', { name: 'Edit link' }).click()
      await expect.poll(() => page.getByLabel('Alias (optional)').inputValue()).toBe('spring-e2e')
      expect(await page.getByLabel('Country 1', { exact: true }).inputValue()).toBe('DE')
      expect(await page.getByLabel('Device 1', { exact: true }).inputValue()).toBe('ipad')
      expect(await page.getByLabel('Meta title (optional)').inputValue()).toBe('Spring sale')
      const editAddress = page.url()

      // Bulk creation from a CSV file, with a downloadable result.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bulk create' }).click()
      await page.getByLabel('CSV file').setInputFiles({
        name: 'links.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('url,alias,title\nhttps://example.com/a,bulk-e2e-a,First\nhttps://example.com/b,bulk-e2e-b,"Second, with a comma"\nhttps://example.com/c,,\n'),
      })
      await page.getByRole('button', { name: 'Create 3 links' }).click()
      await page.getByText('All 3 links created.').waitFor({ timeout: 60_000 })
      expect(await page.getByRole('progressbar').getAttribute('value')).toBe('3')
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download results CSV' }).click()])
      const results = fs.readFileSync((await download.path())!, 'utf8').trim().split(/\r\n/)
      expect(results).toHaveLength(4)
      expect(results[1]).toBe(`https://example.com/a,bulk-e2e-a,First,created,${publicUrl}/bulk-e2e-a,`)
      await screenshot(page, name, 'bulk-create')

      // The links table: search and sort.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links' }).click()
      await expect.poll(() => page.getByRole('row').count()).toBe(5)
      await page.getByLabel('Search').fill('bulk-e2e')
      await expect.poll(() => page.getByRole('row').count()).toBe(3)
      await page.getByLabel('Search').fill('')
      await page.getByLabel('Sort by').selectOption('clicks')
      await expect.poll(() => page.getByRole('row').nth(1).textContent()).toContain('spring-e2e')

      // An API key, shown once, works from outside the browser.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click()
      await page.getByLabel('Key name').fill('e2e script')
      await page.getByRole('button', { name: 'Create key' }).click()
      const apiKey = (await page.getByLabel('New API key').textContent())!.trim()
      expect(apiKey.length).toBeGreaterThanOrEqual(32)
      await page.getByRole('row').filter({ hasText: 'e2e script' }).waitFor()
      const listed = await fetch(`${publicUrl}/api/urls?order=clicks`, { headers: { authorization: `Bearer ${apiKey}` } })
      expect(listed.status).toBe(200)
      const body = (await listed.json()) as { data: { result: number; urls: Array<{ alias: string; clicks: number }> } }
      expect(body.data.result).toBe(4)
      expect(body.data.urls[0]).toMatchObject({ alias: 'spring-e2e', clicks: 1 })
      await screenshot(page, name, 'account')

      // Every page at both widths.
      const pages: Array<[string, string, (page: Page) => Promise<unknown>]> = [
        ['overview', `${publicUrl}/app/`, (p) => p.getByRole('heading', { name: 'Top links' }).waitFor()],
        ['links', `${publicUrl}/app/links`, (p) => p.getByRole('link', { name: /bulk-e2e-a/ }).first().waitFor()],
        ['create-link', `${publicUrl}/app/links/new`, (p) => p.getByLabel('Destination URL').waitFor()],
        ['edit-link', editAddress, (p) => p.getByLabel('Country 1', { exact: true }).waitFor()],
        ['analytics', analyticsAddress, (p) => p.getByRole('img', { name: 'Map of clicks by country' }).waitFor()],
        ['bulk-create', `${publicUrl}/app/bulk`, (p) => p.getByLabel('CSV file').waitFor()],
        ['account', `${publicUrl}/app/account`, (p) => p.getByRole('heading', { name: 'Sessions' }).waitFor()],
      ]
      for (const [pageName, address, ready] of pages) await screenshotAtEveryWidth(page, name, pageName, address, ready)
      const signInPage = await visitor.newPage()
      watchConsole(signInPage, errors)
      await screenshotAtEveryWidth(signInPage, name, 'sign-in', `${publicUrl}/app/signin`, (p) => p.getByRole('button', { name: 'Sign in' }).waitFor())

      // Deleting asks first.
      await page.goto(`${publicUrl}/app/links`)
      await page.getByRole('button', { name: /^Delete .*bulk-e2e-b$/ }).click()
      const dialog = page.getByRole('alertdialog', { name: 'Delete this link?' })
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await page.getByRole('button', { name: /^Delete .*bulk-e2e-b$/ }).click()
      await dialog.getByRole('button', { name: 'Delete link' }).click()
      await dialog.waitFor({ state: 'detached' })
      await page.getByRole('row').filter({ hasText: 'bulk-e2e-b' }).waitFor({ state: 'detached' })
      expect((await fetch(`${publicUrl}/api/urls`, { headers: { authorization: `Bearer ${apiKey}` } }).then((response) => response.json()) as { data: { result: number } }).data.result).toBe(3)

      // A second browser signs in; the first sees its session and signs it out.
      await signInPage.getByLabel('E-mail or username').fill(credentials.username)
      await signInPage.getByLabel('Password').fill(credentials.password)
      await signInPage.getByLabel('Password').press('Enter')
      await signInPage.getByRole('heading', { name: 'Overview' }).waitFor()
      await page.goto(`${publicUrl}/app/account`)
      await page.getByRole('button', { name: /^Revoke Chrome on Windows/ }).click()
      await page.getByRole('alertdialog', { name: 'Revoke this session?' }).getByRole('button', { name: 'Revoke session' }).click()
      // The revoked browser, on the overview, learns it from the live counter's next poll (a 401)
      // and is sent to the sign-in page.
      await allowingConsoleErrors(errors, /status of 401/, async () => {
        await page.getByRole('alertdialog').waitFor({ state: 'detached' })
        await signInPage.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 20_000 })
      })
      expect((await visitor.request.get(`${publicUrl}/api/account`)).status()).toBe(401)
      expect((await owner.request.get(`${publicUrl}/api/account`)).status()).toBe(200)

      // The phone layout's menu opens and leads somewhere.
      await page.setViewportSize(WIDTHS[1]!)
      await page.getByRole('button', { name: 'Menu' }).click()
      await screenshot(page, name, 'menu')
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links' }).click()
      await page.getByRole('heading', { name: 'Links' }).waitFor()
      await page.setViewportSize(WIDTHS[0]!)

      // Signing out ends the session: the dashboard asks for a sign-in again.
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByText('You have signed out.').waitFor()
      await page.goto(`${publicUrl}/app/links`)
      await page.getByRole('heading', { name: 'Sign in' }).waitFor()
      expect((await owner.request.get(`${publicUrl}/api/account`)).status()).toBe(401)

      expect(errors).toEqual([])
    } finally {
      for (const context of contexts) await context.close()
      const code = await server.stop()
      await landing.close()
      await database.drop()
      expect(code).toBe(0)
    }
  }, 300_000)
})
