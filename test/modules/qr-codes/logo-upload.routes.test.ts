// POST /api/upload/logo: multipart, PNG or JPEG by content, at most 500 KB, a random name in the
// upload folder, and a path the QR `logo` field takes.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedInClient } from '../../helpers/dashboard-client.js'
import { createAccount, useTestApp, withJsonData } from '../../helpers/test-app.js'
import { decodeQrImage, makeLogo, pixelAt } from './qr-test-support.js'

const BOUNDARY = '----linkwell-test-boundary'

/** A multipart/form-data body with one file part (and optional text fields). */
function multipartBody(file: { field?: string; name?: string; type?: string; bytes: Buffer } | undefined, fields: Record<string, string> = {}): Buffer {
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  if (file) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name ?? 'logo.png'}"\r\nContent-Type: ${file.type ?? 'image/png'}\r\n\r\n`))
    parts.push(file.bytes, Buffer.from('\r\n'))
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return Buffer.concat(parts)
}

describe('logo uploads', () => {
  let uploads: string
  beforeAll(async () => {
    uploads = await mkdtemp(path.join(os.tmpdir(), 'lw-logo-uploads-'))
  })
  afterAll(() => rm(uploads, { recursive: true, force: true }))
  const { context, owner, api } = useTestApp(() => ({ env: { UPLOAD_DIR: uploads } }))

  async function upload(body: Buffer, headers: Record<string, string> = { authorization: `Bearer ${owner.apiKey}` }) {
    return withJsonData(await context.app.inject({
      method: 'POST',
      url: '/api/upload/logo',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
      payload: body,
    }))
  }

  it('stores a PNG under a random name and answers the path a QR code takes as its logo', async () => {
    const bytes = await makeLogo({ color: { r: 10, g: 120, b: 200 } })
    const response = await upload(multipartBody({ bytes, name: '../../evil name.png' }))
    expect(response.statusCode).toBe(201)
    expect(response.data).toEqual({ error: 0, path: expect.stringMatching(/^logos\/[0-9a-f]{32}\.png$/) })
    // The client's file name plays no part; the bytes are stored as sent.
    expect(await readFile(path.join(uploads, response.data.path))).toEqual(bytes)

    const created = await api('POST', '/api/qr/add', { type: 'text', data: 'With a logo', logo: response.data.path })
    expect(created.statusCode).toBe(201)
    const image = await context.app.inject({ method: 'GET', url: new URL(created.data.link).pathname })
    expect(await pixelAt(image.rawPayload, 150, 150)).toEqual([10, 120, 200])
    expect(await decodeQrImage(image.rawPayload)).toBe('With a logo')
  })

  it('takes a JPEG (by its content, whatever type the client names) and draws a new name each time', async () => {
    const bytes = await makeLogo({ format: 'jpeg' })
    const first = await upload(multipartBody({ bytes, type: 'application/octet-stream', name: 'photo' }))
    const second = await upload(multipartBody({ bytes }))
    expect(first.statusCode).toBe(201)
    expect(first.data.path).toMatch(/^logos\/[0-9a-f]{32}\.jpg$/)
    expect(second.data.path).not.toBe(first.data.path)
  })

  it('refuses a file that is not a PNG or JPEG, whatever its name and type say', async () => {
    const before = await readdir(path.join(uploads, 'logos')).catch(() => [])
    for (const bytes of [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), Buffer.from('GIF89a....'), Buffer.alloc(0)]) {
      const response = await upload(multipartBody({ bytes, name: 'logo.png', type: 'image/png' }))
      expect(response.statusCode).toBe(400)
      expect(response.data).toMatchObject({ error: 1, code: 'validation_failed', message: expect.stringMatching(/^The logo cannot be used: the file (is not a PNG or JPEG image|is empty)\.$/) })
    }
    // A PNG signature in front of garbage is not an image either.
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really')])
    const response = await upload(multipartBody({ bytes: fake }))
    expect(response.statusCode).toBe(400)
    expect(response.data.message).toBe('The logo cannot be used: the image could not be decoded.')
    expect(await readdir(path.join(uploads, 'logos')).catch(() => [])).toEqual(before)
  })

  it('refuses a file larger than 500 KB with 413 in the envelope, and more than one file', async () => {
    const large = Buffer.concat([await makeLogo(), Buffer.alloc(500 * 1024)])
    const response = await upload(multipartBody({ bytes: large }))
    expect(response.statusCode).toBe(413)
    expect(response.data).toMatchObject({ error: 1, message: 'The logo must be one file of at most 500 KB.' })

    const logo = await makeLogo()
    const two = Buffer.concat([
      multipartBody({ bytes: logo, field: 'a' }).subarray(0, -(BOUNDARY.length + 6)),
      multipartBody({ bytes: logo, field: 'b' }),
    ])
    const twice = await upload(two)
    expect(twice.statusCode).toBe(413)
    expect(twice.data).toMatchObject({ error: 1 })
  })

  it('answers 400 without a file, 415 for JSON, 400 for a broken body', async () => {
    const none = await upload(multipartBody(undefined, { note: 'no file' }))
    expect(none.statusCode).toBe(400)
    expect(none.data).toMatchObject({ error: 1, message: 'The field "file" is required: attach a PNG or JPEG image.' })

    const json = await api('POST', '/api/upload/logo', { file: 'logo.png' })
    expect(json.statusCode).toBe(415)
    expect(json.data).toMatchObject({ error: 1, message: 'Send the logo as multipart/form-data with one file field.' })

    const broken = await upload(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\n\r\nunterminated`))
    expect(broken.statusCode).toBeGreaterThanOrEqual(400)
    expect(broken.statusCode).toBeLessThan(500)
    expect(broken.data).toMatchObject({ error: 1 })
  })

  it('needs an API key, or a session with the dashboard\'s CSRF proof', async () => {
    const body = multipartBody({ bytes: await makeLogo() })
    const anonymous = await upload(body, {})
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.data).toMatchObject({ error: 1 })

    const account = await createAccount(context, { password: 'a long enough password' })
    const { cookie } = await signedInClient(context.app, account.username, 'a long enough password')
    const crossSite = await upload(body, { cookie })
    expect(crossSite.statusCode).toBe(403)
    const dashboard = await upload(body, { cookie, origin: context.config.publicUrl, 'x-linkwell-csrf': '1' })
    expect(dashboard.statusCode).toBe(201)
  })

  it('documents the form in the OpenAPI document', async () => {
    const document = (await context.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    const operation = document.paths['/api/upload/logo'].post
    expect(Object.keys(operation.requestBody.content)).toEqual(['multipart/form-data'])
    expect(operation.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({ type: 'string', format: 'binary' })
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '400', '413', '415']))
  })
})
