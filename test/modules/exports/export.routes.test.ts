// GET /api/export/links and /api/export/clicks: every field out, in CSV (quoted as RFC 4180 says),
// JSON or NDJSON, read page after page; another account's rows never come along; bad formats and
// ranges answer 400 naming the parameter before anything is streamed.
import { describe, expect, it } from 'vitest'
import { recordClicks } from '../../cli/click-commands-support.js'
import { createCampaign, createChannel, createPixel } from '../../helpers/factories.js'
import { parseCsv } from '../../helpers/csv.js'
import { useTestApp } from '../../helpers/test-app.js'
import { createExportRepository } from '../../../src/modules/exports/export.repository.js'
import { createExportService, LINK_EXPORT_COLUMNS, toLinkExportRecord } from '../../../src/modules/exports/export.service.js'
import type { ClickEvent } from '../../../src/analytics/click-items.js'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

describe('exports', () => {
  const { context, owner, api, otherApi } = useTestApp()

  it('answers every link with every field its record has, as CSV and as JSON, awkward text intact', async () => {
    const campaign = await createCampaign(context, owner, { name: 'Spring, "big" sale' })
    const pixel = await createPixel(context, owner)
    const channel = await createChannel(context, owner, { name: 'News, "letter"' })
    const first = await api('POST', '/api/url/add', { url: 'https://export.example/a?x=1,2', custom: 'export-a', metatitle: 'Comma, "quotes"', metadescription: 'Two lines,\nthe second "quoted"', campaign, channel, pixels: [pixel], password: 'open sesame' })
    const second = await api('POST', '/api/url/add', { url: 'https://export.example/b', geotarget: [{ location: 'DE', link: 'https://export.example/de' }] })
    expect([first.statusCode, second.statusCode], first.body + second.body).toEqual([201, 201])
    await otherApi('POST', '/api/url/add', { url: 'https://someone-else.example/' })

    const csv = await api('GET', '/api/export/links')
    expect(csv.statusCode).toBe(200)
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="linkwell-links-\d{4}-\d{2}-\d{2}\.csv"$/)
    const [header, ...lines] = parseCsv(csv.body)
    expect(header).toEqual([...LINK_EXPORT_COLUMNS])
    expect(lines).toHaveLength(2)
    const a = Object.fromEntries(header!.map((column, index) => [column, lines[0]![index]]))
    expect(a).toMatchObject({ id: String(first.data.id), alias: 'export-a', longurl: 'https://export.example/a?x=1,2', title: 'Comma, "quotes"', description: 'Two lines,\nthe second "quoted"', campaign: String(campaign), campaignname: 'Spring, "big" sale', channel: 'News, "letter"', pixels: `[${pixel}]`, password: 'true', type: 'direct' })
    expect(a.shorturl).toBe(first.data.shorturl)
    const b = Object.fromEntries(header!.map((column, index) => [column, lines[1]![index]]))
    expect(JSON.parse(b.targeting!)).toMatchObject({ geo: [{ location: 'DE', link: 'https://export.example/de' }] })

    const json = await api('GET', '/api/export/links?format=json')
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8')
    const records = JSON.parse(json.body)
    expect(records.map((record: { alias: string }) => record.alias)).toEqual(['export-a', b.alias])
    // The same fields the API's read answers, plus the campaign's and the channel's names.
    const read = await api('GET', `/api/url/${first.data.id}`)
    // Every field of the link's record but its social card: an uploaded image, not a field an import could set.
    const { card: _card, ...fields } = read.data.details
    expect(records[0]).toEqual({ ...fields, campaignname: 'Spring, "big" sale', channel: 'News, "letter"' })
    expect(records[1]).toMatchObject({ campaignname: null, channel: null })
    // Link options come along (issue 23).
    const withOptions = await api('POST', '/api/url/add', { url: 'https://export.example/o', utm: { source: 'news' }, clicklimit: 100, variants: [{ url: 'https://export.example/x', weight: 2 }, { url: 'https://export.example/y', weight: 1 }] })
    const exported = JSON.parse((await api('GET', '/api/export/links?format=json')).body).find((record: { id: number }) => record.id === withOptions.data.id)
    expect(exported).toMatchObject({ utm: { source: 'news' }, clicklimit: 100, variants: [{ url: 'https://export.example/x', weight: 2 }, { url: 'https://export.example/y', weight: 1 }] })
  })

  it('answers an account without links with a header, or an empty array', async () => {
    const fresh = await context.services.accounts.createAccount({ email: 'empty@export.example', username: 'emptyexport', password: 'long enough password' })
    const { apiClient } = await import('../../helpers/test-app.js')
    const empty = apiClient(context.app, fresh.apiKey)
    expect((await empty('GET', '/api/export/links')).body).toBe(`${LINK_EXPORT_COLUMNS.join(',')}\r\n`)
    expect(JSON.parse((await empty('GET', '/api/export/links?format=json')).body)).toEqual([])
    expect((await empty('GET', '/api/export/clicks?format=ndjson')).body).toBe('')
  })

  it('answers raw clicks with their enriched fields in the range, as CSV and NDJSON', async () => {
    const link = await api('POST', '/api/url/add', { url: 'https://export.example/clicks' })
    const visit = (at: string, ip: string): ClickEvent => ({ accountId: owner.id, itemType: 'link', itemId: link.data.id, ip, userAgent: CHROME, referrer: 'https://t.co/x', acceptLanguage: 'de-DE', at: new Date(`${at.replace(' ', 'T')}Z`) })
    await recordClicks(context.database.db, [visit('2026-03-01 10:00:00', '81.2.69.160'), visit('2026-03-02 23:59:59', '8.8.8.8'), visit('2026-03-03 00:00:00', '8.8.8.8')])

    const csv = await api('GET', '/api/export/clicks?from=2026-03-01&to=2026-03-02')
    expect(csv.statusCode).toBe(200)
    const [header, ...rows] = parseCsv(csv.body)
    expect(header).toEqual(['id', 'date', 'item', 'itemid', 'country', 'referrer', 'browser', 'os', 'device', 'language', 'unique'])
    expect(rows.map((row) => row[1])).toEqual(['2026-03-01 10:00:00', '2026-03-02 23:59:59'])
    expect(rows[0]).toEqual([expect.any(String), '2026-03-01 10:00:00', 'link', String(link.data.id), 'GB', 't.co', 'Chrome', 'Windows', 'desktop', 'de', 'true'])

    const ndjson = await api('GET', '/api/export/clicks?format=ndjson&from=2026-03-02 12:00:00')
    expect(ndjson.headers['content-type']).toBe('application/x-ndjson; charset=utf-8')
    const records = ndjson.body.trim().split('\n').map((line) => JSON.parse(line))
    expect(records.map((record: { date: string }) => record.date)).toEqual(['2026-03-02 23:59:59', '2026-03-03 00:00:00'])
    expect(records[0]).toMatchObject({ item: 'link', itemid: link.data.id, country: 'US', browser: 'Chrome', unique: true })
    // Another account's export holds none of these clicks.
    expect((await otherApi('GET', '/api/export/clicks?format=ndjson')).body).toBe('')
  })

  it('reads page after page without losing or repeating a row', async () => {
    for (let index = 0; index < 7; index += 1) await api('POST', '/api/url/add', { url: `https://export.example/page/${index}` })
    const exports = createExportService({ rows: createExportRepository(context.database.db), publicUrl: context.config.publicUrl, pageSize: 3 })
    const aliases: string[] = []
    for await (const record of exports.linkRecords(owner.id)) aliases.push(record.alias)
    const all = await api('GET', '/api/urls?limit=100')
    expect(aliases).toEqual(all.data.data.urls.map((entry: { alias: string }) => entry.alias).reverse())
    expect(new Set(aliases).size).toBe(aliases.length)
  })

  it('reads clicks page after page in time order, ties by id, without losing or repeating one', async () => {
    const link = await api('POST', '/api/url/add', { url: 'https://export.example/click-pages' })
    const visit = (at: string): ClickEvent => ({ accountId: owner.id, itemType: 'link', itemId: link.data.id, ip: '8.8.8.8', userAgent: CHROME, referrer: undefined, acceptLanguage: undefined, at: new Date(`${at.replace(' ', 'T')}Z`) })
    // Written out of time order, four in one second: pages of 3 end inside a run of equal times.
    const times = ['2025-05-03 08:00:00', '2025-05-01 08:00:00', '2025-05-02 08:00:00', '2025-05-02 08:00:00', '2025-05-02 08:00:00', '2025-05-02 08:00:00', '2025-05-01 07:00:00']
    await recordClicks(context.database.db, times.map(visit))
    const exports = createExportService({ rows: createExportRepository(context.database.db), publicUrl: context.config.publicUrl, pageSize: 3 })
    const lines: string[] = []
    for await (const line of exports.clickLines(owner.id, exports.clickRange({ from: '2025-05-01', to: '2025-05-03' }), 'ndjson')) lines.push(line)
    const records = lines.map((line) => JSON.parse(line) as { id: number; date: string })
    expect(records.map((record) => record.date)).toEqual([...times].sort())
    expect(new Set(records.map((record) => record.id)).size).toBe(times.length)
    const tied = records.filter((record) => record.date === '2025-05-02 08:00:00').map((record) => record.id)
    expect(tied).toEqual([...tied].sort((a, b) => a - b))
  })

  it('lists every field of a link\'s record as a CSV column', async () => {
    const link = await api('POST', '/api/url/add', { url: 'https://export.example/columns' })
    const [row] = await createExportRepository(context.database.db).linksAfter(owner.id, link.data.id - 1, 1)
    expect(Object.keys(toLinkExportRecord(row!, context.config.publicUrl)).sort()).toEqual([...LINK_EXPORT_COLUMNS].sort())
  })

  it.each([
    ['/api/export/links?format=xml', 'format'],
    ['/api/export/clicks?format=json', 'format'],
    ['/api/export/clicks?from=2026-02-30', 'from'],
    ['/api/export/clicks?to=tomorrow', 'to'],
    ['/api/export/clicks?from=2026-03-02&to=2026-03-01', 'to'],
  ])('refuses %s naming %s, in the envelope', async (url, field) => {
    const answer = await api('GET', url)
    expect(answer.statusCode).toBe(400)
    expect(answer.headers['content-type']).toMatch(/^application\/json/)
    expect(answer.data).toMatchObject({ error: 1, code: 'validation_failed', field })
  })
})
