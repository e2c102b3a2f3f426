// The Import & export page in a real browser (issue 21), on SQLite (and PostgreSQL when
// TEST_DATABASE_URL is set): a file the server cannot import is refused in words beside the file
// field; a CSV with good rows and bad lines (a javascript: destination, a row without a URL) is
// uploaded (after one over the server's limit, refused), its progress followed until it is finished, its report read (the bad lines with their
// numbers and reasons), the imported links found on the Links page, the import in the past
// imports. Screenshots of the finished report at 1440 and 375 px.
import { describe, expect, it } from 'vitest'
import { allowingConsoleErrors, e2eDatabases, hasChromium, screenshot, screenshotAtEveryWidth, useBrowser, WIDTHS, withDashboard } from './harness.js'

const CSV = [
  'url,alias,title',
  'https://example.com/spring,spring-sale,Spring sale',
  'javascript:alert(1),evil-link,Evil',
  ',no-url,Missing',
  'https://example.com/summer,summer-sale,Summer sale',
  'https://example.com/autumn,,Autumn',
].join('\n')

describe.skipIf(!hasChromium)('the import page in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('uploads a CSV, follows its progress, reads the report and finds the links ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      const page = await d.signedInPage()
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import & export' }).click()
      await page.getByRole('heading', { name: 'Import & export', level: 1 }).waitFor()
      const form = page.getByRole('form', { name: 'Import a file' })

      // A file that cannot be an import (no destination column) is refused in words, beside the file.
      await form.getByLabel('CSV file').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from('name,email\nAda,ada@example.com\n') })
      await allowingConsoleErrors(d.errors, /status of 400/, async () => {
        await form.getByRole('button', { name: 'Upload and import' }).click()
        await form.getByText(/must have a destination column/i).waitFor()
      })

      // A file over the server's limit (IMPORT_MAX_BYTES, 4 KB here) is refused with what to do, naming no size the page cannot know.
      await form.getByLabel('CSV file').setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(`url\n${'https://example.com/a-long-path\n'.repeat(400)}`) })
      await allowingConsoleErrors(d.errors, /status of 413/, async () => {
        await form.getByRole('button', { name: 'Upload and import' }).click()
        await form.getByText('The file is larger than this server accepts. Split it into smaller files and import each.').waitFor()
      })
      expect(await form.getByText(/20 MB/).count()).toBe(0)
      // The refusal as it is shown, at each width (no reload: it lives in the form's state).
      for (const size of WIDTHS) {
        await page.setViewportSize(size)
        await screenshot(page, name, 'import-too-large')
      }
      await page.setViewportSize(WIDTHS[0]!)

      await form.getByLabel('CSV file').setInputFiles({ name: 'spring-links.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) })
      await form.getByLabel(/Skip that row/).check()
      await form.getByRole('button', { name: 'Upload and import' }).click()
      // The address names the import: the report survives a reload.
      await expect.poll(() => new URL(page.url()).searchParams.get('import')).toMatch(/^\d+$/)
      const id = Number(new URL(page.url()).searchParams.get('import'))
      const report = page.getByRole('region', { name: /CSV file: spring-links\.csv/ })
      await report.waitFor()
      // Its progress until it is finished (a small file may be done by the first answer).
      await expect.poll(async () => (await report.getByRole('progressbar').count()) > 0 || (await report.getByText('Finished', { exact: true }).count()) > 0).toBe(true)
      await report.getByText('Finished', { exact: true }).waitFor({ timeout: 30_000 })
      expect(await report.getByRole('progressbar').count()).toBe(0)

      const counts = report.getByLabel('Import counts')
      const count = async (label: string) => (await counts.getByText(label, { exact: true }).locator('xpath=following-sibling::dd').textContent())?.trim()
      expect(await count('Links created')).toBe('3')
      expect(await count('Not imported')).toBe('2')
      expect(await count('Already in your account')).toBe('0')
      const problems = report.getByRole('table', { name: 'Rows to look at' })
      const rows = await problems.getByRole('row').filter({ has: page.getByRole('cell') }).all()
      const cells = await Promise.all(rows.map((row) => row.getByRole('cell').allTextContents()))
      // Line, alias in the source, alias here (none: not imported), result, reason.
      expect(cells.map((row) => row.slice(0, 4))).toEqual([['3', 'evil-link', '—', 'Not imported'], ['4', 'no-url', '—', 'Not imported']])
      expect(cells[0]![4]).toMatch(/url/i)
      expect(cells[1]![4]).toBe('No destination URL.')
      // The whole report downloads as CSV with the page's own session.
      const download = report.getByRole('link', { name: 'Download the whole report (CSV)' })
      const csv = await page.request.get(new URL((await download.getAttribute('href'))!, d.publicUrl).toString())
      expect(csv.status()).toBe(200)
      expect(csv.headers()['content-type']).toMatch(/^text\/csv/)
      const csvLines = (await csv.text()).trim().split(/\r?\n/)
      expect(csvLines).toHaveLength(3)
      expect(csvLines[1]).toContain('evil-link')
      expect(csvLines[2]).toContain('no-url')
      // The API tells the same.
      const answer = await d.api<{ import: { state: string; created: number; skipped: number; problems: Array<{ line: number }> } }>('GET', `/api/import/${id}`)
      expect([answer.body.import.state, answer.body.import.created, answer.body.import.skipped, answer.body.import.problems.map((problem) => problem.line)]).toEqual(['done', 3, 2, [3, 4]])

      // The import is among the past ones, finished.
      const past = page.getByRole('table', { name: 'Past imports' })
      await past.getByRole('row').filter({ hasText: 'spring-links.csv' }).getByText('Finished').waitFor()

      await screenshotAtEveryWidth(page, name, 'import-report', `${d.publicUrl}/app/import?import=${id}`, (shown) => shown.getByRole('region', { name: /CSV file: spring-links\.csv/ }).getByText('Finished', { exact: true }).waitFor())

      // The imported links are on the Links page; the refused ones are not.
      await page.getByRole('link', { name: 'See your links' }).click()
      await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor()
      const table = page.getByRole('table')
      await table.getByText('spring-sale').first().waitFor()
      await table.getByText('summer-sale').first().waitFor()
      await table.getByText(/example\.com\/autumn/).first().waitFor()
      expect(await table.getByText('evil-link').count()).toBe(0)
      expect(await table.getByText('no-url').count()).toBe(0)
    }, { IMPORT_MAX_BYTES: '4096' })
  }, 240_000)
})
