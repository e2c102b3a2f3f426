// The audit log page in a real browser against the built server, on SQLite and (with
// TEST_DATABASE_URL) PostgreSQL: a change made in the dashboard and one made with the API key both
// show with who made them; the filters narrow the list and live in the page's address; the links
// page downloads the links' export. Screenshots at 1440 and 375 px.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { e2eDatabases, hasChromium, screenshotAtEveryWidth, useBrowser, withDashboard } from './harness.js'

describe.skipIf(!hasChromium)('the audit log in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('shows who changed what, and filters by who and by kind of record ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      const page = await d.signedInPage()
      const app = `${d.publicUrl}/app`

      // One change with the API key, one in the dashboard.
      const created = await d.client.POST('/api/url/add', { body: { url: 'https://shop.example/spring', custom: 'audit-spring' } })
      await page.goto(`${app}/campaigns/new`)
      await page.getByLabel('Name (optional)').fill('Autumn launch')
      await page.getByRole('button', { name: 'Create campaign' }).click()
      await page.getByText('Campaign created. Now add its links.').waitFor()

      await page.getByRole('link', { name: 'Audit log' }).click()
      await page.getByRole('heading', { name: 'Audit log' }).waitFor()
      const table = page.getByRole('table', { name: 'Audit log' })
      const campaignRow = table.getByRole('row').filter({ hasText: 'Campaign #' })
      await campaignRow.getByText('Created').waitFor()
      await campaignRow.getByText('Dashboard').waitFor()
      const linkRow = table.getByRole('row').filter({ hasText: `Link #${created.id}` })
      await linkRow.getByText(/^Key “/).waitFor()
      await linkRow.getByText('url, custom').waitFor()

      // Who: the dashboard only; the filter is in the address.
      await page.getByLabel('Who').selectOption('dashboard')
      await page.waitForURL(/actor=dashboard/)
      await table.getByRole('row').filter({ hasText: 'Link #' }).waitFor({ state: 'detached' })
      await campaignRow.waitFor()
      // What: links, by the dashboard: none.
      await page.getByLabel('What').selectOption('link')
      await page.getByText('No changes match these filters').waitFor()
      await page.getByRole('button', { name: 'Clear filters' }).click()
      await linkRow.waitFor()

      // The links page hands the same records out as a file.
      await page.goto(`${app}/links`)
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export links (CSV)' }).click()])
      expect(download.suggestedFilename()).toMatch(/^linkwell-links-\d{4}-\d{2}-\d{2}\.csv$/)
      const file = fs.readFileSync((await download.path())!, 'utf8')
      expect(file.split('\r\n')[0]).toMatch(/^id,alias,shorturl,longurl,/)
      expect(file).toContain('audit-spring')
      await screenshotAtEveryWidth(page, name, 'links-export', `${app}/links`, (p) => p.getByRole('link', { name: 'Export links (CSV)' }).waitFor())

      await screenshotAtEveryWidth(page, name, 'audit-log', `${app}/audit`, (p) => p.getByRole('table', { name: 'Audit log' }).waitFor())
    })
  })
})
