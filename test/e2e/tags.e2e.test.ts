// Tags in a real browser (issue 23), on SQLite (and PostgreSQL when TEST_DATABASE_URL is set): add
// tags to a link in the builder (one new, one the workspace has, in another case), see them as chips
// in the links list, narrow the list by a tag (kept in the address), then rename and colour a tag
// on the Tags page and delete it. Screenshots at 1440 and 375 px.
import { describe, expect, it } from 'vitest'
import { allowingConsoleErrors, e2eDatabases, hasChromium, screenshot, useBrowser, WIDTHS, withDashboard } from './harness.js'

describe.skipIf(!hasChromium)('tags in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('tags a link in the builder, filters the list by tag, renames, colours and deletes a tag ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      // A link the workspace tagged before: its tag is suggested, and not made twice.
      expect((await d.api('POST', '/api/url/add', { url: 'https://example.com/older', custom: 'older-link', tags: ['Print'] })).status).toBe(201)
      expect((await d.api('POST', '/api/url/add', { url: 'https://example.com/other', custom: 'untagged-link' })).status).toBe(201)

      const page = await d.signedInPage()
      await page.goto(`${d.publicUrl}/app/links/new`)
      await page.getByRole('heading', { name: 'Create link' }).waitFor()
      await page.getByLabel('Destination URL').fill('https://example.com/spring')
      await page.getByLabel('Alias (optional)').fill('tagged-e2e')
      const tagInput = page.getByLabel('Tags (optional)')
      await tagInput.fill('spring')
      await tagInput.press('Enter')
      await tagInput.fill('print,')
      const chips = page.getByRole('list', { name: 'Tags of this item' })
      await expect.poll(() => chips.getByRole('listitem').allTextContents()).toEqual(['spring×', 'print×'])
      // A name given twice (any case) stays once.
      await tagInput.fill('SPRING')
      await tagInput.press('Enter')
      expect(await chips.getByRole('listitem').count()).toBe(2)
      for (const size of WIDTHS) {
        await page.setViewportSize(size)
        await screenshot(page, name, 'tags-builder')
        expect(await page.evaluate('document.documentElement.scrollWidth'), `the builder at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(size.width)
      }
      await page.setViewportSize(WIDTHS[0]!)
      await page.getByRole('button', { name: 'Create link' }).click()
      await page.getByRole('status').filter({ hasText: 'Your short link is ready' }).waitFor()

      const list = await d.api<{ data: { urls: Array<{ alias: string; tags: string[] }> } }>('GET', '/api/urls')
      expect(list.body.data.urls.find((entry) => entry.alias === 'tagged-e2e')!.tags).toEqual(['Print', 'spring'])

      // The list shows the chips; a chip narrows the list, and the address keeps it.
      await page.goto(`${d.publicUrl}/app/links`)
      const table = page.getByRole('table')
      await table.getByRole('button', { name: 'Show links tagged Print' }).first().waitFor()
      await table.getByRole('row').filter({ hasText: 'tagged-e2e' }).getByRole('button', { name: 'Show links tagged spring' }).click()
      await expect.poll(() => new URL(page.url()).searchParams.getAll('tag')).toEqual(['spring'])
      await expect.poll(() => table.getByRole('row').count()).toBe(2)
      await page.getByLabel('Tag', { exact: true }).selectOption('Print')
      await expect.poll(() => new URL(page.url()).searchParams.getAll('tag')).toEqual(['spring', 'Print'])
      await page.reload()
      await page.getByRole('list', { name: 'Tags the list is narrowed to' }).waitFor()
      await expect.poll(() => table.getByRole('row').count()).toBe(2)
      expect(await page.getByText('untagged-link').count()).toBe(0)
      for (const size of WIDTHS) {
        await page.setViewportSize(size)
        await screenshot(page, name, 'tags-links-filtered')
        expect(await page.evaluate('document.documentElement.scrollWidth'), `the list at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(size.width)
      }
      await page.setViewportSize(WIDTHS[0]!)
      await page.getByRole('button', { name: 'Stop filtering by tag spring' }).click()
      await expect.poll(() => new URL(page.url()).searchParams.getAll('tag')).toEqual(['Print'])
      await expect.poll(() => table.getByRole('row').count()).toBe(3)

      // The Tags page: rename and colour, then delete.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags', exact: true }).click()
      await page.getByRole('heading', { name: 'Tags', exact: true }).waitFor()
      const tags = page.getByRole('list', { name: 'Tags', exact: true })
      await tags.getByRole('listitem').filter({ hasText: 'spring' }).getByText('1 link').waitFor()
      await tags.getByRole('listitem').filter({ hasText: 'Print' }).getByText('2 links').waitFor()
      await page.getByRole('button', { name: 'Edit tag spring' }).click()
      const editor = page.getByRole('form', { name: 'Edit tag spring' })
      await editor.getByLabel('Name').fill('Spring 2027')
      await editor.getByLabel('Color').fill('#e11d48')
      await editor.getByRole('button', { name: 'Save tag' }).click()
      await tags.getByRole('listitem').filter({ hasText: 'Spring 2027' }).waitFor()
      const renamed = await d.api<{ data: { tags: Array<{ name: string; color: string | null }> } }>('GET', '/api/tags')
      expect(renamed.body.data.tags.map((tag) => [tag.name, tag.color])).toEqual([['Print', null], ['Spring 2027', '#e11d48']])
      // A name another tag has is refused beside the field.
      await page.getByRole('button', { name: 'Edit tag Print' }).click()
      const printEditor = page.getByRole('form', { name: 'Edit tag Print' })
      await printEditor.getByLabel('Name').fill('spring 2027')
      await allowingConsoleErrors(d.errors, /status of 400/, async () => {
        await printEditor.getByRole('button', { name: 'Save tag' }).click()
        await printEditor.getByText(/already exists/).waitFor()
      })
      for (const size of WIDTHS) {
        await page.setViewportSize(size)
        await screenshot(page, name, 'tags-page')
        expect(await page.evaluate('document.documentElement.scrollWidth'), `the Tags page at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(size.width)
      }
      await page.setViewportSize(WIDTHS[0]!)
      await printEditor.getByRole('button', { name: 'Cancel' }).click()

      await page.getByRole('button', { name: 'Delete tag Print' }).click()
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete tag' }).click()
      await expect.poll(() => tags.getByRole('listitem').count()).toBe(1)
      const after = await d.api<{ data: { urls: Array<{ alias: string; tags: string[] }> } }>('GET', '/api/urls')
      expect(after.body.data.urls.find((entry) => entry.alias === 'tagged-e2e')!.tags).toEqual(['Spring 2027'])
      expect(after.body.data.urls.find((entry) => entry.alias === 'older-link')!.tags).toEqual([])
    })
  }, 240_000)
})
