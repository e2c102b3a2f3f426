// POST /api/upload/logo: multipart, PNG or JPEG by content, at most 500 KB, kept in the database
// with the workspace that sent it under a random path the QR `logo` field takes (issue 36, item 9):
// usable by that workspace only, counted against its plan's `logos`, collected once no code has
// taken it for a week, with the old files an earlier version left in the upload folder.
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
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

  it('keeps a PNG under a random path, in the database, and answers the path a QR code takes as its logo', async () => {
    const bytes = await makeLogo({ color: { r: 10, g: 120, b: 200 } })
    const response = await upload(multipartBody({ bytes, name: '../../evil name.png' }))
    expect(response.statusCode).toBe(201)
    expect(response.data).toEqual({ error: 0, path: expect.stringMatching(/^logos\/[0-9a-f]{32}\.png$/) })
    // The client's file name plays no part; nothing is written to the upload folder.
    expect(await readdir(path.join(uploads, 'logos')).catch(() => [])).toEqual([])
    const kept = await context.database.db.selectFrom('logo_uploads').select(['account_id', 'path']).where('path', '=', response.data.path).execute()
    expect(kept).toEqual([{ account_id: owner.id, path: response.data.path }])

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
    // Kept as the other QR logos are: a PNG.
    expect(first.data.path).toMatch(/^logos\/[0-9a-f]{32}\.png$/)
    expect(second.data.path).not.toBe(first.data.path)
  })

  it('lets only the workspace that uploaded a logo use it', async () => {
    const sent = await upload(multipartBody({ bytes: await makeLogo() }))
    const other = await createAccount(context)
    const theirs = await context.app.inject({ method: 'POST', url: '/api/qr/add', headers: { authorization: `Bearer ${other.apiKey}` }, payload: { type: 'text', data: 'Not mine', logo: sent.data.path } })
    expect(theirs.statusCode).toBe(400)
    expect(theirs.json()).toMatchObject({ error: 1, code: 'validation_failed', message: 'The logo could not be read: there is no such file in the upload folder.' })
    expect((await api('POST', '/api/qr/add', { type: 'text', data: 'Mine', logo: sent.data.path })).statusCode).toBe(201)
  })

  it('counts the logos a workspace keeps against its plan, in the usage and in a 403 past the limit', async () => {
    const { db } = context.database
    const plan = await db.insertInto('plans').values({ name: 'Two logos', code: 'twologos', apirate: null, limits: '{"logos":2}', is_default: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()
    const account = await createAccount(context)
    await db.updateTable('accounts').set({ plan_id: plan.id }).where('id', '=', account.id).execute()
    const headers = { authorization: `Bearer ${account.apiKey}` }
    for (let index = 0; index < 2; index += 1) expect((await upload(multipartBody({ bytes: await makeLogo() }), headers)).statusCode).toBe(201)
    const third = await upload(multipartBody({ bytes: await makeLogo() }), headers)
    expect(third.statusCode).toBe(403)
    expect(third.data).toMatchObject({ error: 1, code: 'plan_limit_reached', message: expect.stringContaining('at most 2 uploaded logos') })
    const usage = await context.app.inject({ method: 'GET', url: '/api/account/limits', headers })
    expect(usage.json().data.resources).toContainEqual({ resource: 'logos', used: 2, limit: 2 })
  })

  it('collects uploads no code has taken for a week, and old upload files, keeping what codes use', async () => {
    const { db } = context.database
    const weekAgo = '2020-01-01 00:00:00'
    const unused = (await upload(multipartBody({ bytes: await makeLogo() }))).data.path as string
    const used = (await upload(multipartBody({ bytes: await makeLogo({ color: { r: 200, g: 20, b: 20 } }) }))).data.path as string
    await db.updateTable('logo_uploads').set({ created_at: weekAgo, used_at: weekAgo }).where('path', 'in', [unused, used]).execute()
    // A code takes `used` now: its week starts again.
    const code = await api('POST', '/api/qr/add', { type: 'text', data: 'Kept', logo: used })
    expect(code.statusCode).toBe(201)
    // Files an earlier version wrote: one old, one recent, and a file of the operator's own (never touched).
    const folder = path.join(uploads, 'logos')
    await mkdir(folder, { recursive: true })
    const oldFile = `${'a'.repeat(32)}.jpg`
    const recentFile = `${'b'.repeat(32)}.png`
    for (const name of [oldFile, recentFile, 'brand.png']) await writeFile(path.join(folder, name), await makeLogo())
    await utimes(path.join(folder, oldFile), new Date('2020-01-01'), new Date('2020-01-01'))
    await utimes(path.join(folder, 'brand.png'), new Date('2020-01-01'), new Date('2020-01-01'))

    const collected = await context.services.logoUploads.collect()
    expect(collected).toEqual({ uploads: 1, files: 1 })
    expect((await readdir(folder)).sort()).toEqual(['brand.png', recentFile].sort())
    const left = await db.selectFrom('logo_uploads').select('path').where('path', 'in', [unused, used]).execute()
    expect(left).toEqual([{ path: used }])
    // The collected upload is gone for new codes; the code made from the kept one still shows it.
    const late = await api('POST', '/api/qr/add', { type: 'text', data: 'Too late', logo: unused })
    expect(late.statusCode).toBe(400)
    const image = await context.app.inject({ method: 'GET', url: new URL(code.data.link).pathname })
    expect(await pixelAt(image.rawPayload, 150, 150)).toEqual([200, 20, 20])
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
