// POST /api/qr/preview and /api/qr/{id}/preview: the image a creation or an update would serve,
// drawn by the public image's renderer, with nothing stored.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'
import { decodeQrImage, makeLogo, pixelAt } from './qr-test-support.js'

describe('QR code previews', () => {
  let uploads: string
  beforeAll(async () => {
    uploads = await mkdtemp(path.join(os.tmpdir(), 'lw-qr-preview-'))
    await writeFile(path.join(uploads, 'logo.png'), await makeLogo())
  })
  afterAll(() => rm(uploads, { recursive: true, force: true }))
  const { context, owner, api, otherApi } = useTestApp(() => ({ env: { UPLOAD_DIR: uploads } }))

  async function countCodes(): Promise<number> {
    const row = await context.database.db.selectFrom('qr_codes').select((eb) => eb.fn.countAll<number>().as('count')).where('account_id', '=', owner.id).executeTakeFirstOrThrow()
    return Number(row.count)
  }

  it('draws a Wi-Fi code as a PNG that decodes to its content, and stores nothing', async () => {
    const before = await countCodes()
    const response = await api('POST', '/api/qr/preview', { type: 'wifi', data: { ssid: 'Cafe', pass: 'latte-2024' } })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('image/png')
    expect(response.headers['cache-control']).toBe('no-store')
    const image = response.rawPayload
    expect(await sharp(image).metadata()).toMatchObject({ format: 'png', width: 300, height: 300 })
    expect(await decodeQrImage(image)).toBe('WIFI:T:WPA;S:Cafe;P:latte-2024;;')
    expect(await countCodes()).toBe(before)
  })

  it('encodes a placeholder tracking address of the saved length for link codes', async () => {
    const response = await api('POST', '/api/qr/preview', { type: 'link', data: 'https://example.com/spring' })
    const encoded = await decodeQrImage(response.rawPayload)
    expect(encoded).toMatch(new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/qr/[a-z0-9]+/scan$`))
    const created = await api('POST', '/api/qr/add', { type: 'link', data: 'https://example.com/spring' })
    const saved = await context.app.inject({ method: 'GET', url: `${new URL(created.data.link).pathname}` })
    // Never shorter than the real address: the preview is at least as dense as the saved symbol.
    expect(encoded!.length).toBeGreaterThanOrEqual((await decodeQrImage(saved.rawPayload))!.length)
  })

  it('draws the colors, the size and the format asked for, with a logo from the upload folder', async () => {
    const body = { type: 'text', data: 'Colors', foreground: 'rgb(20, 40, 160)', background: 'rgb(250,240,200)', logo: 'logo.png' }
    const png = await api('POST', '/api/qr/preview?size=500', body)
    expect(png.statusCode).toBe(200)
    expect(await sharp(png.rawPayload).metadata()).toMatchObject({ width: 500, height: 500 })
    expect(await pixelAt(png.rawPayload, 2, 2)).toEqual([250, 240, 200])
    // The logo (red) sits in the middle.
    expect(await pixelAt(png.rawPayload, 250, 250)).toEqual([200, 30, 30])
    expect(await decodeQrImage(png.rawPayload)).toBe('Colors')

    const svg = await api('POST', '/api/qr/preview?format=svg', body)
    expect(svg.statusCode).toBe(200)
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(svg.body).toMatch(/^<svg[^>]+width="300"/)
    expect(svg.body).toContain('data:image/png;base64,')
  })

  it.each([
    [{ type: 'wifi', data: { ssid: '' } }, '', 'data.ssid'],
    [{ type: 'phone', data: 'call me' }, '', 'must be a phone number'],
    [{ type: 'text', data: 'x', foreground: 'rgb(1,1,1)', background: 'rgb(1,1,1)' }, '', 'The field "foreground" must differ from the background color.'],
    [{ type: 'text', data: 'x', foreground: '#000000' }, '', 'The field "foreground" must be a color written rgb(r,g,b)'],
    [{ type: 'text', data: 'x', logo: '../../etc/passwd' }, '', 'The logo could not be read: the path is outside the upload folder.'],
    [{ type: 'text', data: 'x', logo: 'missing.png' }, '', 'The logo could not be read'],
    [{ type: 'text', data: 'x' }, '?size=5000', 'The query parameter "size" must be a whole number from 100 to 1000'],
    [{ type: 'text', data: 'x' }, '?format=gif', 'The query parameter "format" must be png or svg'],
    [{ type: 'text', data: 'x'.repeat(2000), logo: 'logo.png' }, '', 'is too long to fit in a QR code with a logo'],
  ])('refuses bad input #%# with 400 in the envelope: %s %s', async (body, query, message) => {
    const response = await api('POST', `/api/qr/preview${query}`, body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, code: 'validation_failed' })
    expect(response.data.message).toContain(message)
  })

  it('previews an update with the stored type, alias and logo, changing nothing', async () => {
    const created = await api('POST', '/api/qr/add', { type: 'link', data: 'https://example.com/a', logo: 'logo.png' })
    const id = created.data.id
    const alias = new URL(created.data.link).pathname.split('/')[2]
    // The stored logo is used while `logo` is absent, even once the file is gone.
    await rm(path.join(uploads, 'logo.png'))
    try {
      const preview = await api('POST', `/api/qr/${id}/preview`, { data: 'https://example.com/b', foreground: 'rgb(0,90,0)' })
      expect(preview.statusCode).toBe(200)
      expect(await decodeQrImage(preview.rawPayload)).toBe(`${PUBLIC_URL}/qr/${alias}/scan`)
      expect(await pixelAt(preview.rawPayload, 150, 150)).toEqual([200, 30, 30])
      // An empty logo previews the code without one.
      const plain = await api('POST', `/api/qr/${id}/preview`, { data: 'https://example.com/b', logo: '' })
      expect(await pixelAt(plain.rawPayload, 150, 150)).not.toEqual([200, 30, 30])
    } finally {
      await writeFile(path.join(uploads, 'logo.png'), await makeLogo())
    }
    const read = await api('GET', `/api/qr/${id}`)
    expect(read.data.details).toMatchObject({ data: 'https://example.com/a', foreground: 'rgb(0,0,0)', logo: 'logo.png' })
  })

  it('checks an update preview against the stored type', async () => {
    const created = await api('POST', '/api/qr/add', { type: 'wifi', data: { ssid: 'Home', pass: 'secret123' } })
    const response = await api('POST', `/api/qr/${created.data.id}/preview`, { data: 'just text' })
    expect(response.statusCode).toBe(400)
    expect(response.data.message).toContain('data')
  })

  it('never previews another account’s code, nor an unknown one', async () => {
    const created = await api('POST', '/api/qr/add', { type: 'text', data: 'mine' })
    for (const response of [await otherApi('POST', `/api/qr/${created.data.id}/preview`, { data: 'theirs' }), await api('POST', '/api/qr/999999/preview', { data: 'x' })]) {
      expect(response.statusCode).toBe(404)
      expect(response.data).toMatchObject({ error: 1, code: 'not_found' })
    }
  })

  it('needs an API key or a session', async () => {
    const response = await context.app.inject({ method: 'POST', url: '/api/qr/preview', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ type: 'text', data: 'x' }) })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toMatchObject({ error: 1 })
  })
})
