// The QR codes pages in a real browser against the built server (SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set): design a link code and a Wi-Fi code with the server's live preview,
// download the PNGs and decode them to their content, change colors and see the preview follow,
// upload a logo through the form, scan the link code from another browser and see the scan in the
// list and the statistics, delete with confirmation. Screenshots at 1440 and 375 px.
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { decodeQrImage } from '../modules/qr-codes/qr-test-support.js'
import { e2eDatabases, hasChromium, screenshotAtEveryWidth, signIn, startLandingSite, useBrowser, withDashboard } from './harness.js'

/** The part of a page's canvas that previewBytes uses. */
interface PageCanvas {
  width: number
  height: number
  getContext(kind: '2d'): { drawImage(image: unknown, x: number, y: number): void }
  toDataURL(type: string): string
}

/** The bytes of the designer's preview image (a blob: URL the page fetched from the server). */
async function previewBytes(page: Page): Promise<Buffer> {
  const image = page.getByRole('img', { name: 'QR code preview' })
  await image.waitFor()
  // Redrawn on a canvas: the dashboard's policy lets it show blob: images, not fetch them.
  const dataUrl = await image.evaluate((element) => {
    // Typed by hand: the test's own types know no DOM.
    const img = element as unknown as { naturalWidth: number; naturalHeight: number }
    const scope = globalThis as unknown as { document: { createElement(tag: 'canvas'): PageCanvas } }
    const canvas = scope.document.createElement('canvas')
    canvas.width = img.naturalWidth
    canvas.height = img.naturalHeight
    canvas.getContext('2d').drawImage(element, 0, 0)
    return canvas.toDataURL('image/png')
  })
  const base64 = dataUrl.replace(/^data:image\/png;base64,/, '')
  return Buffer.from(base64, 'base64')
}

/** Waits until the preview shows a new image and is no longer updating. */
async function nextPreview(page: Page, previous: string | null): Promise<string> {
  const image = page.getByRole('img', { name: 'QR code preview' })
  await expect.poll(() => image.getAttribute('src'), { timeout: 10_000 }).not.toBe(previous)
  await page.getByText('This is the image your code serves.').waitFor()
  return (await image.getAttribute('src'))!
}

/** True when some pixel of the image has exactly this color. */
async function hasColor(image: Buffer, [r, g, b]: [number, number, number]): Promise<boolean> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  for (let offset = 0; offset < data.length; offset += info.channels) {
    if (data[offset] === r && data[offset + 1] === g && data[offset + 2] === b) return true
  }
  return false
}

/** Clicks a download link and answers the file's bytes. */
async function download(page: Page, name: string | RegExp): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()])
  return fs.readFile((await file.path())!)
}

describe.skipIf(!hasChromium)('QR codes in the dashboard', () => {
  const { browser, folder } = useBrowser()

  it.each(e2eDatabases(folder))('designs, downloads, decodes, edits, scans and deletes QR codes ($name)', async ({ name, create }) => {
    const landing = await startLandingSite()
    const uploads = path.join(folder(), `uploads-${name}`)
    await fs.mkdir(uploads, { recursive: true })
    try {
      await withDashboard(browser(), await create(), async (d) => {
        const page = await d.signedInPage()

        // Empty list, with its next step.
        await page.goto(`${d.publicUrl}/app/qr`)
        await page.getByText('No QR codes yet').waitFor()
        await page.getByRole('link', { name: '+ Create QR code' }).first().click()

        // A link code: the preview appears once the address is valid.
        await page.getByRole('heading', { name: 'Create QR code' }).waitFor()
        await page.getByRole('radio', { name: 'Link' }).check()
        await page.getByLabel('Destination URL').fill('not an address')
        await page.getByText('The preview updates once the fields are filled in correctly.').waitFor()
        await page.getByRole('button', { name: 'Create QR code' }).click()
        await page.getByText('Must be an http or https URL').waitFor()
        await page.getByLabel('Destination URL').fill(`${landing.url}/menu`)
        await nextPreview(page, null)
        await page.getByText('Scans go through your tracking address').waitFor()
        expect(await decodeQrImage(await previewBytes(page))).toMatch(new RegExp(`^${d.publicUrl}/qr/[a-z0-9]+/scan$`))
        await page.getByLabel('Name (optional)').fill('Menu card')
        await page.getByRole('button', { name: 'Create QR code' }).click()
        await page.getByText('QR code created.').waitFor()
        await page.getByRole('img', { name: 'QR code Menu card' }).waitFor()

        // A Wi-Fi code.
        await page.getByRole('link', { name: '+ Create QR code' }).click()
        await page.getByRole('radio', { name: 'Wi-Fi' }).check()
        await page.getByLabel('Network name (SSID)').fill('Cafe Guest')
        await page.getByLabel('Wi-Fi password').fill('latte;2024')
        const wifiPreview = await nextPreview(page, null)
        expect(wifiPreview).toMatch(/^blob:/)
        expect(await decodeQrImage(await previewBytes(page))).toBe('WIFI:T:WPA;S:Cafe Guest;P:latte\\;2024;;')
        await page.getByLabel('Name (optional)').fill('Guest Wi-Fi')
        await page.getByRole('button', { name: 'Create QR code' }).click()
        await page.getByText('QR code created.').waitFor()
        await page.getByText('2 QR codes').or(page.getByText(/^2 of \d+ QR codes$/)).waitFor()

        // Downloads decode to their content.
        const listed = await d.api<{ data: { qrs: Array<{ id: number; name: string; link: string }> } }>('GET', '/api/qr')
        const menu = listed.body.data.qrs.find((qr) => qr.name === 'Menu card')!
        const alias = new URL(menu.link).pathname.split('/')[2]
        const wifiPng = await download(page, 'PNG of Guest Wi-Fi')
        expect(await sharp(wifiPng).metadata()).toMatchObject({ format: 'png', width: 1000 })
        expect(await decodeQrImage(wifiPng)).toBe('WIFI:T:WPA;S:Cafe Guest;P:latte\\;2024;;')
        const menuPng = await download(page, 'PNG of Menu card')
        expect(await decodeQrImage(menuPng)).toBe(`${d.publicUrl}/qr/${alias}/scan`)
        const menuSvg = await download(page, 'SVG of Menu card')
        expect(menuSvg.toString('utf8')).toMatch(/^<svg/)
        await screenshotAtEveryWidth(page, name, 'qr-list', `${d.publicUrl}/app/qr`, (p) => p.getByRole('img', { name: 'QR code Menu card' }).waitFor())

        // Edit: new colors show in the preview, a logo is uploaded through the form.
        await page.getByRole('link', { name: 'Edit Menu card' }).click()
        await page.getByRole('heading', { name: 'Edit QR code' }).waitFor()
        const before = await nextPreview(page, null)
        expect(await hasColor(await previewBytes(page), [0, 0, 0])).toBe(true)
        await page.getByLabel('Foreground color', { exact: true }).fill('rgb(20, 60, 160)')
        await page.getByLabel('Background color', { exact: true }).fill('rgb(20, 60, 160)')
        await page.getByText('Must differ from the background color.').or(page.getByText('The preview updates once')).first().waitFor()
        await page.getByLabel('Background color', { exact: true }).fill('rgb(255,250,235)')
        const recolored = await nextPreview(page, before)
        const recoloredBytes = await previewBytes(page)
        expect(await hasColor(recoloredBytes, [20, 60, 160])).toBe(true)
        expect(await hasColor(recoloredBytes, [0, 0, 0])).toBe(false)

        const logoFile = path.join(folder(), `logo-${name}.png`)
        await sharp({ create: { width: 160, height: 160, channels: 3, background: { r: 230, g: 20, b: 120 } } }).png().toFile(logoFile)
        await page.getByRole('radio', { name: 'Upload an image' }).check()
        await page.getByLabel('Logo file').setInputFiles(logoFile)
        await page.getByText(`Using logo-${name}.png.`).waitFor()
        await nextPreview(page, recolored)
        const withLogo = await previewBytes(page)
        expect(await hasColor(withLogo, [230, 20, 120])).toBe(true)
        expect(await decodeQrImage(withLogo)).toBe(`${d.publicUrl}/qr/${alias}/scan`)
        await page.getByRole('button', { name: 'Save changes' }).click()
        await page.getByText('QR code saved.').waitFor()
        const saved = await d.api<{ details: { foreground: string; logo: string } }>('GET', `/api/qr/${menu.id}`)
        expect(saved.body.details).toMatchObject({ foreground: 'rgb(20,60,160)', logo: expect.stringMatching(/^logos\/[0-9a-f]{32}\.png$/) })
        // The served image is the previewed one: new colors, the logo, the same content.
        const served = await download(page, 'PNG of Menu card')
        expect(await hasColor(served, [230, 20, 120])).toBe(true)
        expect(await decodeQrImage(served)).toBe(`${d.publicUrl}/qr/${alias}/scan`)
        await screenshotAtEveryWidth(page, name, 'qr-edit', `${d.publicUrl}/app/qr/${menu.id}/edit`, async (p) => {
          await nextPreview(p, null)
          await p.getByText('Using the uploaded image.').waitFor()
        })

        // A scan from another browser reaches the destination and is counted.
        const visitor = await (await d.newContext()).newPage()
        await visitor.goto(`${d.publicUrl}/qr/${alias}/scan`)
        await visitor.getByRole('heading', { name: 'Spring sale' }).waitFor()
        expect(visitor.url()).toBe(`${landing.url}/menu`)
        await expect.poll(async () => {
          await page.goto(`${d.publicUrl}/app/qr`)
          return page.getByRole('link', { name: /scan.*statistics of Menu card/ }).getAttribute('aria-label')
        }, { timeout: 15_000 }).toBe('1 scan: statistics of Menu card')
        await page.getByRole('link', { name: '1 scan: statistics of Menu card' }).click()
        await page.getByRole('heading', { name: 'Menu card' }).waitFor()
        await expect.poll(() => page.getByTestId('range-clicks').textContent()).toBe('1')
        await page.getByRole('heading', { name: 'Scans per day' }).waitFor()
        await screenshotAtEveryWidth(page, name, 'qr-analytics', page.url(), (p) => p.getByTestId('range-clicks').waitFor())

        await screenshotAtEveryWidth(page, name, 'qr-designer', `${d.publicUrl}/app/qr/new`, async (p) => {
          await p.getByRole('radio', { name: 'Link' }).check()
          await p.getByLabel('Destination URL').fill('https://example.com/spring-menu')
          await nextPreview(p, null)
        })

        // Delete, after a confirmation that can be cancelled.
        await page.goto(`${d.publicUrl}/app/qr`)
        await page.getByRole('button', { name: 'Delete Guest Wi-Fi' }).click()
        await page.getByRole('alertdialog', { name: 'Delete this QR code?' }).waitFor()
        await page.getByRole('button', { name: 'Cancel' }).click()
        await expect.poll(() => page.getByRole('alertdialog').count()).toBe(0)
        await page.getByRole('button', { name: 'Delete Guest Wi-Fi' }).click()
        await page.getByRole('button', { name: 'Delete QR code' }).click()
        await expect.poll(() => page.getByRole('img', { name: 'QR code Guest Wi-Fi' }).count()).toBe(0)
        await page.getByRole('img', { name: 'QR code Menu card' }).waitFor()
        expect((await d.api('GET', `/api/qr/${menu.id}`)).status).toBe(200)
        expect((await d.api<{ data: { qrs: unknown[] } }>('GET', '/api/qr')).body.data.qrs).toHaveLength(1)
      }, { UPLOAD_DIR: uploads })
    } finally {
      await landing.close()
    }
  }, 240_000)

  it.each(e2eDatabases(folder))('never shows one account\'s QR codes to another ($name)', async ({ create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      const mine = await d.client.POST('/api/qr/add', { body: { type: 'text', data: 'Admin only', name: 'Admin secret' } })
      const password = 'another long password'
      expect((await d.api('POST', '/api/user/add', { email: 'other@example.com', username: 'other', password })).status).toBe(201)

      const other = await (await d.newContext()).newPage()
      await signIn(other, d.publicUrl, { username: 'other', password })
      await other.goto(`${d.publicUrl}/app/qr`)
      await other.getByText('No QR codes yet').waitFor()
      expect(await other.getByText('Admin secret').count()).toBe(0)
      for (const address of [`/app/qr/${mine.id}/edit`, `/app/qr/${mine.id}/analytics`]) {
        await other.goto(`${d.publicUrl}${address}`)
        await other.getByRole('alert').getByText('Not found', { exact: true }).first().waitFor()
        expect(await other.getByText('Admin only').count()).toBe(0)
        // Every request of the page (the statistics, the live counter, …) has answered its 404
        // before the next page: a late one would be logged under another address.
        await other.waitForLoadState('networkidle')
      }
      // The browser logs the API's expected 404s; those, and only those, are not failures here.
      const refused = d.errors.filter((error) => /\/app\/qr\/\d+\/(edit|analytics): Failed to load resource: .*404/.test(error))
      expect(refused.length).toBeGreaterThanOrEqual(2)
      d.errors.splice(0, d.errors.length, ...d.errors.filter((error) => !refused.includes(error)))
      // Its own code is its own; the admin's list is unchanged.
      await other.getByRole('link', { name: 'QR codes' }).first().click()
      await other.getByRole('link', { name: '+ Create QR code' }).first().click()
      await other.getByRole('radio', { name: 'Text' }).check()
      await other.getByLabel('Text to encode').fill('Other only')
      await other.getByLabel('Name (optional)').fill('Other secret')
      await other.getByRole('button', { name: 'Create QR code' }).click()
      await other.getByRole('img', { name: 'QR code Other secret' }).waitFor()
      const page = await d.signedInPage()
      await page.goto(`${d.publicUrl}/app/qr`)
      await page.getByRole('img', { name: 'QR code Admin secret' }).waitFor()
      expect(await page.getByText('Other secret').count()).toBe(0)
    })
  }, 120_000)
})
