// The link builder's social card in a real browser (issue 23), on SQLite (and PostgreSQL when
// TEST_DATABASE_URL is set): upload a card image on a link's edit page, see it in the Slack, X and
// LinkedIn previews, check what a link-preview fetcher (a bot user agent) gets at the short link and
// that a person is still redirected; then the QR codes list's tag chips and filter. Screenshots at
// 1440 and 375 px.
import sharp from 'sharp'
import path from 'node:path'
import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { e2eDatabases, hasChromium, screenshot, useBrowser, WIDTHS, withDashboard } from './harness.js'

const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'

describe.skipIf(!hasChromium)('the link builder in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('uploads a social card, previews it, and serves its tags to preview fetchers ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      const created = await d.api<{ id: number; shorturl: string }>('POST', '/api/url/add', { url: 'https://example.com/spring', custom: 'card-e2e', metatitle: 'Spring sale', metadescription: 'Everything 20 % off this week.' })
      expect(created.status).toBe(201)
      const imagePath = path.join(folder(), 'card.png')
      await writeFile(imagePath, await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 36, g: 87, b: 214 } } }).png().toBuffer())

      const page = await d.signedInPage()
      await page.goto(`${d.publicUrl}/app/links/${created.body.id}/edit`)
      await page.getByRole('heading', { name: 'Edit link' }).waitFor()
      await page.getByLabel('Card image (optional)').setInputFiles(imagePath)
      await page.getByRole('button', { name: 'Remove card image' }).waitFor()
      for (const network of ['Slack', 'X', 'LinkedIn']) {
        const preview = page.getByRole('figure', { name: `${network} preview` })
        await preview.getByText('Spring sale').waitFor()
        await expect.poll(() => preview.locator('img').evaluate((image) => { const loaded = image as unknown as { complete: boolean; naturalWidth: number }; return loaded.complete && loaded.naturalWidth })).toBe(1200)
      }
      for (const size of WIDTHS) {
        await page.setViewportSize(size)
        await page.getByRole('figure', { name: 'Slack preview' }).scrollIntoViewIfNeeded()
        await screenshot(page, name, 'builder-social-card')
        expect(await page.evaluate('document.documentElement.scrollWidth'), `the builder at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(size.width)
      }

      // What a preview fetcher gets at the short link, and what a person gets.
      const details = await d.api<{ details: { card: string } }>('GET', `/api/url/${created.body.id}`)
      const card = details.body.details.card
      const bot = await fetch(`${d.publicUrl}/card-e2e`, { headers: { 'user-agent': SLACKBOT }, redirect: 'manual' })
      expect(bot.status).toBe(200)
      const tags = await bot.text()
      expect(tags).toContain(`<meta property="og:image" content="${card}">`)
      expect(tags).toContain('<meta property="og:title" content="Spring sale">')
      expect(tags).toContain('<meta name="twitter:card" content="summary_large_image">')
      const image = await fetch(card)
      expect(image.headers.get('content-type')).toBe('image/jpeg')
      expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ width: 1200, height: 630 })
      const person = await fetch(`${d.publicUrl}/card-e2e`, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0 Safari/537.36' }, redirect: 'manual' })
      expect(person.status).toBe(302)
      expect(person.headers.get('location')).toBe('https://example.com/spring')

      // The QR codes list: a code's tag narrows the list.
      expect((await d.api('POST', '/api/qr/add', { type: 'text', data: 'Poster', name: 'Poster', tags: ['print'] })).status).toBe(201)
      expect((await d.api('POST', '/api/qr/add', { type: 'text', data: 'Flyer', name: 'Flyer' })).status).toBe(201)
      await page.setViewportSize(WIDTHS[0]!)
      await page.goto(`${d.publicUrl}/app/qr`)
      await page.getByRole('button', { name: 'Show QR codes tagged print' }).click()
      await expect.poll(() => new URL(page.url()).searchParams.getAll('tag')).toEqual(['print'])
      await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBe(2)
      for (const size of WIDTHS) {
        await page.setViewportSize(size)
        await screenshot(page, name, 'qr-list-tags')
        expect(await page.evaluate('document.documentElement.scrollWidth'), `the QR list at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(size.width)
      }
    })
  })
})
