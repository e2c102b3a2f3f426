import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fieldError, quotedFieldOf } from '../../helpers/envelope.js'
import { apiClient, createAccount, createTestApp, PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'
import { makeLogo } from './qr-test-support.js'
import { EMPTY_STATISTICS } from '../../helpers/statistics.js'

const ALIAS_LINK = new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/qr/[23456789abcdefghjkmnpqrstuvwxyz]{8}$`)
describe('QR code endpoints', () => {
  let uploads: string

  // Registered before useTestApp: the app is built on the folder this makes.
  beforeAll(async () => {
    uploads = await mkdtemp(path.join(os.tmpdir(), 'lw-qr-uploads-'))
    await writeFile(path.join(uploads, 'logo.png'), await makeLogo())
  })
  afterAll(() => rm(uploads, { recursive: true, force: true }))
  const { context, owner, api, otherApi } = useTestApp(() => ({ env: { UPLOAD_DIR: uploads } }))

  it('creates a QR code and reads it back with the statistics object', async () => {
    const created = await api('POST', '/api/qr/add', { type: 'text', data: 'Hello, world' })
    expect(created.statusCode).toBe(201)
    expect(created.data).toEqual({ error: 0, id: expect.any(Number), link: expect.stringMatching(ALIAS_LINK) })
    const id = created.data.id
    const read = await api('GET', `/api/qr/${id}`)
    expect(read.statusCode).toBe(200)
    expect(read.data).toEqual({
      error: 0,
      details: {
        id,
        link: created.data.link,
        scans: 0,
        name: `Text QR ${id}`,
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        type: 'text',
        data: 'Hello, world',
        background: 'rgb(255,255,255)',
        foreground: 'rgb(0,0,0)',
        logo: null,
        tags: [],
      },
      data: EMPTY_STATISTICS,
    })
  })

  it('shows the scans counter in the record and reads the statistics from the click aggregates', async () => {
    const created = await api('POST', '/api/qr/add', { type: 'phone', data: '+123456' })
    const item = { item_type: 'qr', item_id: created.data.id }
    await context.database.db.updateTable('qr_codes').set({ scans: 7 }).where('id', '=', created.data.id).execute()
    await context.database.db.insertInto('click_totals').values([
      { ...item, dimension: 'clicks', value: '', clicks: 7 },
      { ...item, dimension: 'unique', value: '', clicks: 4 },
      { ...item, dimension: 'country', value: 'DE', clicks: 5 },
      { ...item, dimension: 'country', value: '', clicks: 2 },
      { ...item, dimension: 'referrer', value: 't.co', clicks: 3 },
      { ...item, dimension: 'social', value: 'twitter', clicks: 3 },
      // Another item's counters are not this one's.
      { item_type: 'link', item_id: created.data.id, dimension: 'clicks', value: '', clicks: 99 },
    ]).execute()
    const read = await api('GET', `/api/qr/${created.data.id}`)
    expect(read.data.details.scans).toBe(7)
    expect(read.data.data).toEqual({
      ...EMPTY_STATISTICS,
      clicks: 7,
      uniqueClicks: 4,
      topCountries: { Germany: '5', Unknown: '2' },
      topReferrers: { 't.co': '3' },
      socialCount: { facebook: 0, twitter: 3, instagram: 0, linkedin: 0 },
    })
  })

  it.each([
    ['text', 'Any text', 'Any text', 'Text'],
    ['link', 'https://example.com/landing?x=1', 'https://example.com/landing?x=1', 'Link'],
    ['email', 'ada@example.com', 'ada@example.com', 'E-mail'],
    ['email', { email: 'ada@example.com', subject: 'Hi', body: 'There' }, { email: 'ada@example.com', subject: 'Hi', body: 'There' }, 'E-mail'],
    ['phone', '+44 20 7946-0000', '+442079460000', 'Phone'],
    ['sms', { phone: '+15550100', message: 'Hello' }, { phone: '+15550100', message: 'Hello' }, 'SMS'],
    ['wifi', { ssid: 'Home', pass: 'secret123', encryption: 'WPA' }, { ssid: 'Home', pass: 'secret123', encryption: 'WPA' }, 'Wi-Fi'],
    ['wifi', { ssid: 'Cafe', encryption: 'nopass' }, { ssid: 'Cafe', encryption: 'nopass' }, 'Wi-Fi'],
    ['vcard', { fname: 'Ada', lname: 'Lovelace', org: 'Engines', site: 'https://ada.example', unknown: 'x' }, { fname: 'Ada', lname: 'Lovelace', org: 'Engines', site: 'https://ada.example' }, 'vCard'],
  ])('creates a %s QR code and stores its data normalised', async (type, data, stored, label) => {
    const created = await api('POST', '/api/qr/add', { type, data })
    expect(created.statusCode).toBe(201)
    const read = await api('GET', `/api/qr/${created.data.id}`)
    expect(read.data.details).toMatchObject({ type, data: stored, name: `${label} QR ${created.data.id}` })
  })

  it('takes a name, colors (canonicalised) and a logo from the upload folder', async () => {
    const created = await api('POST', '/api/qr/add', {
      type: 'link',
      data: 'https://example.com',
      name: '  Shop window  ',
      background: 'rgb( 255, 250 ,240 )',
      foreground: 'rgb(10,20,30)',
      logo: 'logo.png',
    })
    expect(created.statusCode).toBe(201)
    const read = await api('GET', `/api/qr/${created.data.id}`)
    expect(read.data.details).toMatchObject({ name: 'Shop window', background: 'rgb(255,250,240)', foreground: 'rgb(10,20,30)', logo: 'logo.png' })
    const row = await context.database.db.selectFrom('qr_codes').select(['logo', 'logo_source']).where('id', '=', created.data.id).executeTakeFirstOrThrow()
    expect((await sharp(row.logo!).metadata()).format).toBe('png')
  })

  it('ignores unknown body fields', async () => {
    const created = await api('POST', '/api/qr/add', { type: 'text', data: 'x', evil: { a: 1 }, scans: 999, alias: 'mine' })
    expect(created.statusCode).toBe(201)
    expect(Object.keys(created.data).sort()).toEqual(['error', 'id', 'link'])
    const read = await api('GET', `/api/qr/${created.data.id}`)
    expect(read.data.details.scans).toBe(0)
    expect(read.data.details.link).not.toContain('mine')
  })

  it('shows the data each type takes in the OpenAPI document, one body shape per type', async () => {
    const document = (await context.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    const body = document.paths['/api/qr/add'].post.requestBody.content['application/json'].schema
    // OpenAPI 3.0 has no `const`: the document names each shape's type as a one-value enum.
    const shapes = new Map(body.anyOf.map((shape: { properties: { type: { enum: string[] }; data: unknown } }) => [shape.properties.type.enum[0], shape.properties.data]))
    expect([...shapes.keys()].sort()).toEqual(['email', 'link', 'phone', 'sms', 'text', 'vcard', 'wifi'])
    expect(shapes.get('wifi')).toMatchObject({ type: 'object', required: ['ssid'], properties: { ssid: { type: 'string' }, encryption: { anyOf: expect.any(Array) } } })
    expect(shapes.get('sms')).toMatchObject({ type: 'object', required: ['phone'] })
    expect(shapes.get('text')).toMatchObject({ type: 'string', maxLength: 2000 })
  })

  it.each([
    [{ data: 'x' }, 'The field "type" is required.'],
    [{ type: 'pdf', data: 'x' }, 'The field "type" must be one of text, vcard, link, email, phone, sms, wifi.'],
    [{ type: 'text' }, 'The field "data" is required.'],
    [{ type: 'text', data: 42 }, 'The field "data" must be text of 1 to 2000 characters.'],
    [{ type: 'wifi', data: 'not an object' }, 'The field "data" must be an object {ssid, pass, encryption}.'],
    [{ type: 'text', data: 'y'.repeat(2001) }, 'The field "data" must be text of 1 to 2000 characters.'],
    [{ type: 'link', data: 'javascript:alert(1)' }, 'The field "data" must be an http or https URL.'],
    [{ type: 'email', data: 'nope' }, 'The field "data" must be an e-mail address, or an object {email, subject, body}.'],
    [{ type: 'phone', data: 'call me' }, 'The field "data" must be a phone number: digits with an optional leading +.'],
    [{ type: 'sms', data: { message: 'x' } }, 'The field "data.phone" is required.'],
    [{ type: 'wifi', data: { ssid: 'Home', encryption: 'WPA' } }, 'The field "data.pass" is required for WPA and WEP networks.'],
    [{ type: 'wifi', data: { ssid: 'Home', pass: 'x', encryption: 'OPEN' } }, 'The field "data.encryption" must be WPA, WEP or nopass.'],
    [{ type: 'vcard', data: { org: 'No name' } }, 'The field "data" must contain a name (fname or lname).'],
    [{ type: 'text', data: 'x', background: '#ffffff' }, 'The field "background" must be a color written rgb(r,g,b) with each value from 0 to 255.'],
    [{ type: 'text', data: 'x', background: 'rgb(256,0,0)' }, 'The field "background" must be a color written rgb(r,g,b) with each value from 0 to 255.'],
    [{ type: 'text', data: 'x', foreground: 'rgb(1,2)' }, 'The field "foreground" must be a color written rgb(r,g,b) with each value from 0 to 255.'],
    [{ type: 'text', data: 'x', foreground: 'rgb(-1,0,0)' }, 'The field "foreground" must be a color written rgb(r,g,b) with each value from 0 to 255.'],
    [{ type: 'text', data: 'x', background: 'rgb(9,9,9)', foreground: 'rgb( 9,9,9)' }, 'The field "foreground" must differ from the background color.'],
    [{ type: 'text', data: 'x', foreground: 'rgb(255,255,255)' }, 'The field "foreground" must differ from the background color.'],
    [{ type: 'text', data: 'x', name: 'n'.repeat(101) }, 'The field "name" must be 1 to 100 characters.'],
    [{ type: 'text', data: 'x', name: 7 }, 'The field "name" must be 1 to 100 characters.'],
    [{ type: 'text', data: 'x', logo: [] }, 'The field "logo" must be an http(s) URL or a path in the upload folder.'],
    [{ type: 'text', data: 'x', logo: 5 }, 'The field "logo" must be an http(s) URL or a path in the upload folder.'],
    [{ type: 'text', data: 'x', logo: '../../etc/passwd' }, 'The logo could not be read: the path is outside the upload folder.'],
    [{ type: 'text', data: 'x', logo: '/etc/passwd' }, 'The logo could not be read: the path is outside the upload folder.'],
    [{ type: 'text', data: 'x', logo: 'missing.png' }, 'The logo could not be read: there is no such file in the upload folder.'],
    [{ type: 'text', data: 'x', logo: 'http://127.0.0.1/logo.png' }, 'The logo could not be fetched: the host 127.0.0.1 resolves to a private, local or reserved address.'],
    [{ type: 'text', data: 'x', logo: 'http://169.254.169.254/latest/meta-data' }, 'The logo could not be fetched: the host 169.254.169.254 resolves to a private, local or reserved address.'],
    [{ type: 'text', data: 'x', logo: 'file:///etc/passwd' }, 'The logo could not be fetched: only http and https addresses are allowed.'],
    [{ type: 'text', data: 'é'.repeat(2000) }, 'The field "data" is too long to fit in a QR code.'],
    [{ type: 'text', data: 'z'.repeat(1500), logo: 'logo.png' }, 'The field "data" is too long to fit in a QR code with a logo.'],
  ])('refuses %j with a 400', async (body, message) => {
    const response = await api('POST', '/api/qr/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message, 'validation_failed', quotedFieldOf(message) ?? 'logo'))
  })

  it('refuses a body that is not an object and malformed JSON', async () => {
    expect((await api('POST', '/api/qr/add', [1, 2])).data.message).toBe('The request body must be a JSON object.')
    expect((await api('POST', '/api/qr/add', '{"type":')).statusCode).toBe(400)
  })

  it('updates data, colors, name and logo, keeping the type', async () => {
    const created = await api('POST', '/api/qr/add', { type: 'wifi', data: { ssid: 'Old', pass: 'password1' } })
    const id = created.data.id
    const updated = await api('PUT', `/api/qr/${id}/update`, {
      type: 'text',
      data: { ssid: 'New', encryption: 'nopass' },
      background: 'rgb(0,0,64)',
      foreground: 'rgb(255,255,0)',
      name: 'Guest network',
      logo: 'logo.png',
    })
    expect(updated.statusCode).toBe(200)
    expect(updated.data).toEqual({ error: 0, message: 'QR has been updated successfully.' })
    const read = await api('GET', `/api/qr/${id}`)
    expect(read.data.details).toMatchObject({
      type: 'wifi',
      data: { ssid: 'New', encryption: 'nopass' },
      background: 'rgb(0,0,64)',
      foreground: 'rgb(255,255,0)',
      name: 'Guest network',
      logo: 'logo.png',
      link: created.data.link,
    })

    // Only data given: everything else stays.
    await api('PUT', `/api/qr/${id}/update`, { data: { ssid: 'Newer', encryption: 'nopass' } })
    expect((await api('GET', `/api/qr/${id}`)).data.details).toMatchObject({ data: { ssid: 'Newer', encryption: 'nopass' }, name: 'Guest network', logo: 'logo.png', background: 'rgb(0,0,64)' })

    // An empty logo removes it.
    await api('PUT', `/api/qr/${id}/update`, { data: { ssid: 'Newer', encryption: 'nopass' }, logo: '' })
    expect((await api('GET', `/api/qr/${id}`)).data.details.logo).toBeNull()
    const row = await context.database.db.selectFrom('qr_codes').select('logo').where('id', '=', id).executeTakeFirstOrThrow()
    expect(row.logo).toBeNull()
  })

  it.each([
    [{}, 'The field "data" is required.'],
    [{ data: 'a text, but this is a wifi code' }, 'The field "data" must be an object {ssid, pass, encryption}.'],
    [{ data: { ssid: 'x' }, foreground: 'rgb(255,255,255)' }, 'The field "foreground" must differ from the background color.'],
    [{ data: { ssid: 'x' }, background: 'blue' }, 'The field "background" must be a color written rgb(r,g,b) with each value from 0 to 255.'],
    [{ data: { ssid: 'x' }, name: '' }, 'The field "name" must be 1 to 100 characters.'],
    [{ data: { ssid: 'x' }, logo: 7 }, 'The field "logo" must be an http(s) URL, a path in the upload folder, or empty.'],
    [{ data: { ssid: 'x' }, logo: '../outside.png' }, 'The logo could not be read: the path is outside the upload folder.'],
    [{ data: { ssid: 'x' }, logo: 'http://10.0.0.1/logo.png' }, 'The logo could not be fetched: the host 10.0.0.1 resolves to a private, local or reserved address.'],
  ])('refuses the update %j with a 400', async (body, message) => {
    const created = await api('POST', '/api/qr/add', { type: 'wifi', data: { ssid: 'Net' } })
    const response = await api('PUT', `/api/qr/${created.data.id}/update`, body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message, 'validation_failed', quotedFieldOf(message) ?? 'logo'))
  })

  it('checks on update that the data still fits once a logo is kept or added', async () => {
    const created = await api('POST', '/api/qr/add', { type: 'text', data: 'short', logo: 'logo.png' })
    const tooLong = await api('PUT', `/api/qr/${created.data.id}/update`, { data: 'z'.repeat(1500) })
    expect(tooLong.data.message).toBe('The field "data" is too long to fit in a QR code with a logo.')
    const withoutLogo = await api('PUT', `/api/qr/${created.data.id}/update`, { data: 'z'.repeat(1500), logo: '' })
    expect(withoutLogo.statusCode).toBe(200)
  })

  it('lists with the envelope, newest first, paged', async () => {
    const context2 = await createTestApp()
    try {
      const account = await createAccount(context2)
      const client = apiClient(context2.app, account.apiKey)
      const ids: number[] = []
      for (const name of ['one', 'two', 'three', 'four']) ids.push((await client('POST', '/api/qr/add', { type: 'text', data: name, name })).data.id)
      const first = await client('GET', '/api/qr?limit=3')
      expect(first.statusCode).toBe(200)
      expect(first.data.error).toBe('0')
      expect(first.data.data).toMatchObject({ result: 4, perpage: 3, currentpage: 1, nextpage: 2, maxpage: 2 })
      expect(first.data.data.qrs.map((qr: { name: string }) => qr.name)).toEqual(['four', 'three', 'two'])
      expect(first.data.data.qrs[0]).toEqual({ id: ids[3], link: expect.stringMatching(ALIAS_LINK), scans: 0, name: 'four', date: expect.any(String), tags: [] })
      const second = await client('GET', '/api/qr?limit=3&page=2')
      expect(second.data.data).toMatchObject({ result: 4, currentpage: 2, nextpage: null, maxpage: 2 })
      expect(second.data.data.qrs.map((qr: { id: number }) => qr.id)).toEqual([ids[0]])
      const past = await client('GET', '/api/qr?limit=3&page=9')
      expect(past.data.data.qrs).toEqual([])
      const empty = await apiClient(context2.app, (await createAccount(context2)).apiKey)('GET', '/api/qr')
      expect(empty.data.data).toEqual({ result: 0, perpage: 15, currentpage: 1, nextpage: null, maxpage: 0, qrs: [] })
      expect((await client('GET', '/api/qr?limit=0')).statusCode).toBe(400)
      expect((await client('GET', '/api/qr?page=x')).statusCode).toBe(400)
    } finally {
      await context2.close()
    }
  })

  it('deletes a QR code and takes it out of every channel; a second delete is a 404', async () => {
    const db = context.database.db
    const created = await api('POST', '/api/qr/add', { type: 'text', data: 'doomed' })
    const id = created.data.id
    const now = '2026-01-01 00:00:00'
    const channel = await db.insertInto('channels').values({ account_id: owner.id, name: 'Holder', description: '', color: '#fff', starred: 0, created_at: now }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('channel_items').values([
      { account_id: owner.id, channel_id: channel.id, item_type: 'qr', item_id: id, created_at: now },
      // Same id, other type: not this QR code.
      { account_id: owner.id, channel_id: channel.id, item_type: 'links', item_id: id, created_at: now },
    ]).execute()

    const deleted = await api('DELETE', `/api/qr/${id}/delete`)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.data).toEqual({ error: 0, message: 'QR Code has been deleted successfully.' })
    const items = await db.selectFrom('channel_items').select('item_type').where('channel_id', '=', channel.id).execute()
    expect(items).toEqual([{ item_type: 'links' }])
    expect((await api('GET', `/api/qr/${id}`)).statusCode).toBe(404)
    const again = await api('DELETE', `/api/qr/${id}/delete`)
    expect(again.statusCode).toBe(404)
    expect(again.data).toEqual({ error: 1, message: 'QR code not found. Please try again.', code: 'not_found' })
  })

  it('answers 404 for unknown ids on every endpoint', async () => {
    expect((await api('GET', '/api/qr/999999')).data.message).toBe('QR code not found. Please try again.')
    expect((await api('PUT', '/api/qr/999999/update', { data: 'x' })).statusCode).toBe(404)
    expect((await api('DELETE', '/api/qr/999999/delete')).statusCode).toBe(404)
  })

  it('never shows or touches another account’s QR code', async () => {
    const mine = await api('POST', '/api/qr/add', { type: 'text', data: 'private', name: 'Private to owner' })
    const id = mine.data.id
    expect((await otherApi('GET', `/api/qr/${id}`)).statusCode).toBe(404)
    expect((await otherApi('PUT', `/api/qr/${id}/update`, { data: 'hijack' })).statusCode).toBe(404)
    expect((await otherApi('DELETE', `/api/qr/${id}/delete`)).statusCode).toBe(404)
    const list = await otherApi('GET', '/api/qr?limit=100')
    expect(list.data.data.qrs.map((qr: { id: number }) => qr.id)).not.toContain(id)
    const read = await api('GET', `/api/qr/${id}`)
    expect(read.data.details).toMatchObject({ data: 'private', name: 'Private to owner' })
  })

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('refuses the path id %s with a 400', async (id) => {
    for (const [method, url, body] of [['GET', `/api/qr/${id}`], ['PUT', `/api/qr/${id}/update`, { data: 'x' }], ['DELETE', `/api/qr/${id}/delete`]] as const) {
      const response = await api(method, url, body)
      expect(response.statusCode).toBe(400)
      expect(response.data.code).toBe('validation_failed')
    }
  })

  it('needs an API key', async () => {
    const response = await apiClient(context.app, null)('GET', '/api/qr')
    expect(response.statusCode).toBe(401)
  })

  it('enforces the plan limit on QR codes', async () => {
    const db = context.database.db
    const plan = await db.insertInto('plans').values({ name: 'Tiny QR', code: 'tinyqr', apirate: null, limits: '{"qrcodes":1}', is_default: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()
    const limited = apiClient(context.app, (await createAccount(context, { plan: plan.id })).apiKey)
    expect((await limited('POST', '/api/qr/add', { type: 'text', data: 'first' })).statusCode).toBe(201)
    const second = await limited('POST', '/api/qr/add', { type: 'text', data: 'second' })
    expect(second.statusCode).toBe(403)
    expect(second.data.code).toBe('plan_limit_reached')
  })
})
