// The public QR addresses: images decoded back to their payload, and the link redirect.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PUBLIC_URL, useTestApp } from '../helpers/test-app.js'
import { decodeQrImage, makeLogo, pixelAt } from '../modules/qr-codes/qr-test-support.js'
import { expectPage } from '../helpers/pages.js'

const LOGO_COLOR = { r: 200, g: 30, b: 30 }

describe('public QR image and tracking address', () => {
  let uploads: string

  // Registered before useTestApp: the app is built on the folder this makes.
  beforeAll(async () => {
    uploads = await mkdtemp(path.join(os.tmpdir(), 'lw-qr-image-'))
    await writeFile(path.join(uploads, 'logo.png'), await makeLogo({ color: LOGO_COLOR }))
  })
  afterAll(() => rm(uploads, { recursive: true, force: true }))
  const { context, api } = useTestApp(() => ({ env: { UPLOAD_DIR: uploads } }))

  /** Creates a QR code through the API and returns its alias. */
  async function createQr(body: Record<string, unknown>): Promise<{ id: number; alias: string }> {
    const created = await api('POST', '/api/qr/add', body)
    expect(created.statusCode).toBe(201)
    return { id: created.data.id, alias: (created.data.link as string).split('/').pop()! }
  }

  /** A visitor's request: no API key, no JSON content type. */
  function visit(url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') {
    return context.app.inject({ method, url, headers })
  }

  it('serves a PNG that decodes to the tracking address for a link code, which redirects to the URL', async () => {
    const { alias } = await createQr({ type: 'link', data: 'https://example.com/landing?utm=qr' })
    const image = await visit(`/qr/${alias}`)
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/png')
    const tracking = `${PUBLIC_URL}/qr/${alias}/scan`
    expect(await decodeQrImage(image.rawPayload)).toBe(tracking)
    expect((await sharp(image.rawPayload).metadata()).width).toBe(300)

    const scan = await visit(`/qr/${alias}/scan`)
    expect(scan.statusCode).toBe(302)
    expect(scan.headers.location).toBe('https://example.com/landing?utm=qr')
    const head = await visit(`/qr/${alias}/scan`, {}, 'HEAD')
    expect(head.statusCode).toBe(302)
    expect(head.headers.location).toBe('https://example.com/landing?utm=qr')
  })

  it('redirects to a URL with non-ASCII characters, percent-encoded', async () => {
    const { alias } = await createQr({ type: 'link', data: 'https://例え.jp/中文?q=é#frag' })
    const scan = await visit(`/qr/${alias}/scan`)
    expect(scan.statusCode).toBe(302)
    expect(scan.headers.location).toBe('https://xn--r8jz45g.jp/%E4%B8%AD%E6%96%87?q=%C3%A9#frag')
  })

  it.each([
    [{ type: 'wifi', data: { ssid: 'Home;Net', pass: 'pa:ss"word', encryption: 'WPA' } }, 'WIFI:T:WPA;S:Home\\;Net;P:pa\\:ss\\"word;;'],
    [{ type: 'wifi', data: { ssid: 'Cafe' } }, 'WIFI:T:nopass;S:Cafe;;'],
    [{ type: 'text', data: 'Plain text, with; punctuation' }, 'Plain text, with; punctuation'],
    [{ type: 'phone', data: '+1 555 0100' }, 'tel:+15550100'],
    [{ type: 'sms', data: { phone: '5550100', message: 'On my way' } }, 'SMSTO:5550100:On my way'],
    [{ type: 'email', data: { email: 'ada@example.com', subject: 'Hello there' } }, 'mailto:ada@example.com?subject=Hello%20there'],
    [{ type: 'vcard', data: { fname: 'Ada', lname: 'Lovelace', cell: '+44 7700 900' } }, 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nTEL;TYPE=CELL:+44 7700 900\r\nEND:VCARD\r\n'],
  ])('renders %j so that it decodes to its payload', async (body, payload) => {
    const { alias } = await createQr(body)
    const image = await visit(`/qr/${alias}`)
    expect(await decodeQrImage(image.rawPayload)).toBe(payload)
  })

  it('composites the logo in the centre and still decodes', async () => {
    for (const [body, payload] of [
      [{ type: 'wifi', data: { ssid: 'Office', pass: 'correct horse', encryption: 'WPA' } }, 'WIFI:T:WPA;S:Office;P:correct horse;;'],
      [{ type: 'text', data: 'hi' }, 'hi'],
    ] as const) {
      const { alias } = await createQr({ ...body, logo: 'logo.png' })
      for (const size of [150, 300, 1000]) {
        const image = await visit(`/qr/${alias}?size=${size}`)
        expect(await decodeQrImage(image.rawPayload)).toBe(payload)
        expect(await pixelAt(image.rawPayload, size / 2, size / 2)).toEqual([LOGO_COLOR.r, LOGO_COLOR.g, LOGO_COLOR.b])
      }
    }
    const { alias } = await createQr({ type: 'link', data: 'https://example.com', logo: 'logo.png' })
    expect(await decodeQrImage((await visit(`/qr/${alias}`)).rawPayload)).toBe(`${PUBLIC_URL}/qr/${alias}/scan`)
  })

  it('applies the colors: the image holds exactly the background and foreground', async () => {
    const { alias } = await createQr({ type: 'text', data: 'colors', background: 'rgb(255,255,0)', foreground: 'rgb(0,0,200)' })
    const image = await visit(`/qr/${alias}`)
    expect(await pixelAt(image.rawPayload, 0, 0)).toEqual([255, 255, 0])
    const { data } = await sharp(image.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    const colors = new Set<string>()
    for (let offset = 0; offset < data.length; offset += 3) colors.add(`${data[offset]},${data[offset + 1]},${data[offset + 2]}`)
    expect([...colors].sort()).toEqual(['0,0,200', '255,255,0'])
    expect(await decodeQrImage(image.rawPayload)).toBe('colors')
  })

  it('sizes the PNG with ?size= within 100-1000 pixels, drawn at the nearest step', async () => {
    const { alias } = await createQr({ type: 'text', data: 'sized' })
    for (const [size, drawn] of [[100, 100], [257, 250], [1000, 1000], [960, 1000], [349, 300], [350, 400], [101, 100]] as const) {
      const image = await visit(`/qr/${alias}?size=${size}`)
      expect(image.statusCode).toBe(200)
      const metadata = await sharp(image.rawPayload).metadata()
      expect([metadata.width, metadata.height]).toEqual([drawn, drawn])
      expect(await decodeQrImage(image.rawPayload)).toBe('sized')
    }
    // An empty value is no value (ADR 013): the default size.
    const blank = await visit(`/qr/${alias}?size=&format=`)
    expect(blank.statusCode).toBe(200)
    expect((await sharp(blank.rawPayload).metadata()).width).toBe(300)
  })

  it('draws an image once: asked again, at a size of the same step, or with an ETag, it comes from the cache', async () => {
    const { id, alias } = await createQr({ type: 'text', data: 'drawn once' })
    const cache = context.services.qrImages.imageCache
    const drawings = () => cache.misses
    const before = drawings()
    const first = await visit(`/qr/${alias}?size=1000`)
    expect(first.statusCode).toBe(200)
    expect(drawings()).toBe(before + 1)
    for (const size of [1000, 990, 901]) {
      const again = await visit(`/qr/${alias}?size=${size}`)
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true)
      expect(again.headers.etag).toBe(first.headers.etag)
    }
    // Visitors asking at once share one drawing.
    await Promise.all([visit(`/qr/${alias}?size=800`), visit(`/qr/${alias}?size=800`), visit(`/qr/${alias}?size=790`)])
    expect(drawings()).toBe(before + 2)
    expect((await visit(`/qr/${alias}?size=1000`, { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304)
    expect(drawings()).toBe(before + 2)
    // Another format is another image; a changed code is drawn anew.
    await visit(`/qr/${alias}?size=1000&format=svg`)
    expect(drawings()).toBe(before + 3)
    expect((await api('PUT', `/api/qr/${id}/update`, { data: 'drawn twice' })).statusCode).toBe(200)
    const changed = await visit(`/qr/${alias}?size=1000`)
    expect(drawings()).toBe(before + 4)
    expect(await decodeQrImage(changed.rawPayload)).toBe('drawn twice')
  })

  it('refuses repeated query parameters with a 400', async () => {
    const { alias } = await createQr({ type: 'text', data: 'x' })
    expect((await visit(`/qr/${alias}?size=200&size=300`)).statusCode).toBe(400)
    expect((await visit(`/qr/${alias}?format=svg&format=png`)).statusCode).toBe(400)
  })

  it.each(['99', '1001', '0', '-300', 'abc', '1.5', '300px', ' 1', '1e3', '99999999999999999999'])('refuses ?size=%s with a 400 page naming the rule', async (size) => {
    const { alias } = await createQr({ type: 'text', data: 'x' })
    const response = await visit(`/qr/${alias}?size=${size}`)
    expectPage(response, 400, 'The query parameter &quot;size&quot; must be a whole number from 100 to 1000.')
  })

  it('serves SVG with ?format=svg, with the logo embedded as a data URI, and refuses other formats', async () => {
    const plain = await createQr({ type: 'text', data: 'vector', foreground: 'rgb(0,0,200)' })
    const svg = await visit(`/qr/${plain.alias}?format=svg&size=400`)
    expect(svg.statusCode).toBe(200)
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(svg.payload).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="400" height="400" viewBox="0 0 \d+ \d+"/)
    expect(svg.payload).toContain('stroke="#0000c8"')
    expect(svg.payload).not.toContain('<image')
    expect(await decodeQrImage(await sharp(Buffer.from(svg.payload)).png().toBuffer())).toBe('vector')

    const withLogo = await createQr({ type: 'text', data: 'vector logo', logo: 'logo.png' })
    const logoSvg = await visit(`/qr/${withLogo.alias}?format=svg`)
    expect(logoSvg.payload).toMatch(/<rect [^>]*fill="rgb\(255,255,255\)"\/><image [^>]*href="data:image\/png;base64,[A-Za-z0-9+/=]+"\/><\/svg>/)
    expect(await decodeQrImage(await sharp(Buffer.from(logoSvg.payload)).png().toBuffer())).toBe('vector logo')

    const gif = await visit(`/qr/${plain.alias}?format=gif`)
    expectPage(gif, 400, 'The query parameter &quot;format&quot; must be png or svg.')
  })

  it('caches for 5 minutes with an ETag that answers 304 and changes with the code, size and format', async () => {
    const { id, alias } = await createQr({ type: 'text', data: 'cached' })
    const first = await visit(`/qr/${alias}`)
    expect(first.headers['cache-control']).toBe('public, max-age=300')
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^"[\w-]+"$/)
    expect((await visit(`/qr/${alias}`)).headers.etag).toBe(etag)
    const notModified = await visit(`/qr/${alias}`, { 'if-none-match': etag })
    expect(notModified.statusCode).toBe(304)
    expect(notModified.payload).toBe('')
    expect((await visit(`/qr/${alias}`, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304)
    expect((await visit(`/qr/${alias}?size=301`)).headers.etag).toBe(etag)
    expect((await visit(`/qr/${alias}?size=400`)).headers.etag).not.toBe(etag)
    expect((await visit(`/qr/${alias}?format=svg`)).headers.etag).not.toBe(etag)

    await api('PUT', `/api/qr/${id}/update`, { data: 'changed' })
    const changed = await visit(`/qr/${alias}`, { 'if-none-match': etag })
    expect(changed.statusCode).toBe(200)
    expect(changed.headers.etag).not.toBe(etag)
    expect(await decodeQrImage(changed.rawPayload)).toBe('changed')
  })

  it('answers 404 pages for unknown aliases, and for the tracking address of codes that are not links', async () => {
    for (const url of ['/qr/zzzzzzzz', '/qr/zzzzzzzz?format=svg', '/qr/zzzzzzzz/scan', `/qr/${'a'.repeat(150)}`, '/qr/..%2F..%2Fetc']) {
      expectPage(await visit(url), 404, 'Not found')
    }
    // A NUL is no alias at all: the text rule refuses it with a 400 page, as the API would.
    expectPage(await visit('/qr/%00%2e%2e'), 400, 'Request not accepted')
    const text = await createQr({ type: 'text', data: 'static' })
    expectPage(await visit(`/qr/${text.alias}/scan`), 404, 'Not found')
  })

  it('stops serving a deleted code', async () => {
    const { id, alias } = await createQr({ type: 'link', data: 'https://example.com/gone' })
    await api('DELETE', `/api/qr/${id}/delete`)
    expect((await visit(`/qr/${alias}`)).statusCode).toBe(404)
    expect((await visit(`/qr/${alias}/scan`)).statusCode).toBe(404)
  })
})
