// The one rule for client text (issue 13): NUL, other C0/C1 control characters and lone
// surrogates are refused with a 400 naming the field, on SQLite and PostgreSQL alike (PostgreSQL
// would otherwise answer 500 where SQLite stores the NUL); multi-line fields keep tab and line breaks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiClient, createAccount, createTestApp, type ApiClient, type TestContext } from '../helpers/test-app.js'

describe('the text rule', () => {
  let context: TestContext
  let api: ApiClient

  beforeAll(async () => {
    context = await createTestApp()
    api = apiClient(context.app, (await createAccount(context)).apiKey)
  })
  afterAll(() => context.close())

  const refused = (field: string, rule = 'must not contain control characters') => ({
    error: 1,
    code: 'validation_failed',
    message: `The field "${field}" ${rule}.`,
    field,
  })

  it.each([
    ['/api/channel/add', { name: 'Chan\u0000nel' }, 'name'],
    ['/api/channel/add', { name: 'Channel', description: 'hidden\u0000' }, 'description'],
    ['/api/campaign/add', { name: 'Camp\u0000aign' }, 'name'],
    ['/api/campaign/add', { name: 'Campaign \u0085 C1' }, 'name'],
    ['/api/campaign/add', { name: 'Campaign \u001b[31m' }, 'name'],
    ['/api/url/add', { url: 'https://example.com', metatitle: 'a\u0000' }, 'metatitle'],
    ['/api/url/add', { url: 'https://example.com', geotarget: [{ location: 'DE', link: 'https://example.de/\u0000' }] }, 'geotarget.0.link'],
    ['/api/qr/add', { type: 'vcard', data: { fname: 'Ada\u0000' } }, 'data.fname'],
    ['/api/overlay/add', { type: 'message', name: 'Overlay', message: 'hi\u0007' }, 'message'],
  ])('POST %s refuses %j naming the field', async (url, body, field) => {
    const response = await api('POST', url, body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(refused(field))
  })

  it('refuses a NUL on update too, and leaves the record unchanged', async () => {
    const created = await api('POST', '/api/campaign/add', { name: 'Clean name' })
    const response = await api('PUT', `/api/campaign/${created.data.id}/update`, { name: 'Dirty\u0000name' })
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(refused('name'))
    const channel = await api('POST', '/api/channel/add', { name: 'Clean channel' })
    const update = await api('PUT', `/api/channel/${channel.data.id}/update`, { name: 'Clean channel', description: 'x\u0000' })
    expect(update.data).toEqual(refused('description'))
    const list = await api('GET', '/api/campaigns?limit=100')
    expect(list.data.data.campaigns.map((campaign: { name: string }) => campaign.name)).toContain('Clean name')
  })

  it('refuses line breaks and tabs in single-line fields, keeps them in multi-line ones', async () => {
    expect((await api('POST', '/api/channel/add', { name: 'Two\nlines' })).data).toEqual(refused('name', 'must not contain line breaks or tabs'))
    const multi = await api('POST', '/api/channel/add', { name: 'Multi-line', description: 'first\r\n\tsecond' })
    expect(multi.statusCode).toBe(201)
    expect(multi.data.description).toBe('first\r\n\tsecond')
    const qr = await api('POST', '/api/qr/add', { type: 'text', data: 'line one\nline two' })
    expect(qr.statusCode).toBe(201)
  })

  it('refuses a lone surrogate, keeps a paired one (an emoji)', async () => {
    const lone = await api('POST', '/api/channel/add', '{"name":"bad \\ud800 half"}')
    expect(lone.data).toEqual(refused('name', 'must be valid Unicode text'))
    const emoji = await api('POST', '/api/channel/add', { name: 'Rocket 🚀' })
    expect(emoji.statusCode).toBe(201)
    expect(emoji.data.name).toBe('Rocket 🚀')
  })

  it('refuses a control character in a field name, naming it escaped', async () => {
    const response = await api('POST', '/api/qr/add', { type: 'vcard', data: { 'f\u0000name': 'Ada' } })
    expect(response.statusCode).toBe(400)
    expect(response.data.message).toBe('The field "data.f\\u0000name" is not an acceptable field name: it must not contain control characters.')
  })

  it('holds query values to the rule', async () => {
    const response = await api('GET', `/api/urls?q=${encodeURIComponent('a\u0000b')}`)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual({ error: 1, code: 'validation_failed', message: 'The query parameter "q" must not contain control characters.', field: 'q' })
  })
})
