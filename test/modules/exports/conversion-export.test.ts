// GET /api/export/conversions (issue 39): the workspace's leads and sales in one time order, with the
// link, campaign and channel they are attributed to, as CSV and NDJSON; e-mail addresses only while
// the workspace keeps them; a deleted customer's sales anonymous; another workspace's never; read
// page after page without losing or repeating a row.
import { describe, expect, it } from 'vitest'
import { createCampaign, createChannel, createMember } from '../../helpers/factories.js'
import { parseCsv } from '../../helpers/csv.js'
import { apiClient, useTestApp, type ApiClient } from '../../helpers/test-app.js'
import { visit } from '../../public/redirect-test-support.js'
import { createExportRepository } from '../../../src/modules/exports/export.repository.js'
import { CONVERSION_EXPORT_COLUMNS, createExportService, toConversionExportRecord } from '../../../src/modules/exports/export.service.js'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'

interface Exported { type: string; id: number; date: string; event: string; amount: number | null; currency: string | null; invoiceid: string | null; customerid: string | null; customeremail: string | null; link: number | null; alias: string | null; campaign: number | null; campaignname: string | null; channel: string | null; clickid: string | null; metadata: unknown }

describe('the conversions export', () => {
  const { context, otherApi } = useTestApp()

  /** A workspace of its own per test (the app is shared by the file's tests): its id and client. */
  async function freshWorkspace(name: string) {
    const account = await context.services.accounts.createAccount({ email: `${name}@conversions.example`, username: name, password: 'long enough password' })
    return { owner: account, id: account.id, api: apiClient(context.app, account.apiKey) }
  }

  /** A click of a new tracked link (in `fields`' campaign/channel): its click id, the link's id and alias. */
  async function trackedClick(client: ApiClient, fields: Record<string, unknown> = {}): Promise<{ clickId: string; linkId: number; alias: string }> {
    const created = await client('POST', '/api/url/add', { url: 'https://shop.example/landing', trackconversions: true, ...fields })
    expect(created.statusCode, created.body).toBe(201)
    const alias = created.data.shorturl.split('/').pop() as string
    const response = await visit(context.app, `/${alias}`, { headers: { 'user-agent': BROWSER } })
    return { clickId: new URL(response.headers.location as string).searchParams.get('lw_id')!, linkId: created.data.id, alias }
  }

  const ndjson = async (client: ApiClient, query = ''): Promise<Exported[]> => {
    const answer = await client('GET', `/api/export/conversions?format=ndjson${query}`)
    expect(answer.statusCode, answer.body).toBe(200)
    return answer.body.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Exported)
  }

  it('answers leads and sales in time order with link, campaign, channel, amount and customer, as CSV and NDJSON', async () => {
    const { owner, api } = await freshWorkspace('convexport1')
    const campaign = await createCampaign(context, owner, { name: 'Spring, "big" sale' })
    const channel = await createChannel(context, owner, { name: 'Newsletter' })
    const { clickId, linkId, alias } = await trackedClick(api, { campaign, channel })
    const lead = await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_x', name: 'Ada, "L"', email: 'ada@example.com' }, metadata: { plan: 'pro' } })
    expect(lead.statusCode, lead.body).toBe(201)
    expect((await api('POST', '/api/track/sale', { customerid: 'cus_x', amount: 4900, currency: 'EUR', invoiceid: 'inv_x1' })).statusCode).toBe(201)
    expect((await api('POST', '/api/track/sale', { clickid: clickId, amount: 900, currency: 'USD', invoiceid: 'inv_x2' })).statusCode).toBe(201)
    // Another workspace's conversions never come along.
    const other = await trackedClick(otherApi)
    expect((await otherApi('POST', '/api/track/lead', { clickid: other.clickId, customer: { id: 'someone' } })).statusCode).toBe(201)

    const records = await ndjson(api)
    expect(records.map((record) => [record.type, record.invoiceid])).toEqual([['lead', null], ['sale', 'inv_x1'], ['sale', 'inv_x2']])
    expect(records[0]).toMatchObject({ event: 'lead', amount: null, currency: null, customerid: 'cus_x', customeremail: 'ada@example.com', clickid: clickId, link: linkId, alias, campaign, campaignname: 'Spring, "big" sale', channel: 'Newsletter', metadata: { plan: 'pro' } })
    expect(records[1]).toMatchObject({ event: 'purchase', amount: 4900, currency: 'EUR', customerid: 'cus_x', link: linkId, campaign, channel: 'Newsletter' })
    expect(records[2]).toMatchObject({ amount: 900, currency: 'USD', customerid: null, link: linkId })
    const dates = records.map((record) => record.date)
    expect(dates).toEqual([...dates].sort())
    expect(Object.keys(records[0]!).sort()).toEqual([...CONVERSION_EXPORT_COLUMNS].sort())
    expect(await ndjson(otherApi)).toHaveLength(1)

    const csv = await api('GET', '/api/export/conversions')
    expect(csv.statusCode).toBe(200)
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="linkwell-conversions-\d{4}-\d{2}-\d{2}\.csv"$/)
    const [header, ...lines] = parseCsv(csv.body)
    expect(header).toEqual([...CONVERSION_EXPORT_COLUMNS])
    const rows = lines.map((line) => Object.fromEntries(header!.map((column, index) => [column, line[index]])))
    expect(rows.map((row) => row.type)).toEqual(['lead', 'sale', 'sale'])
    expect(rows[0]).toMatchObject({ customername: 'Ada, "L"', campaignname: 'Spring, "big" sale', amount: '', link: String(linkId) })
    expect(JSON.parse(rows[0]!.metadata!)).toEqual({ plan: 'pro' })
    expect(rows[2]).toMatchObject({ amount: '900', currency: 'USD', customerid: '' })

    // A range: nothing before the conversions were recorded, all of them from then on.
    expect(await ndjson(api, '&to=2000-01-01')).toEqual([])
    expect(await ndjson(api, `&from=${dates[0]}`)).toHaveLength(3)
  })

  it('leaves e-mail addresses out once the workspace stops keeping them, and a deleted customer\'s sales anonymous', async () => {
    const { api } = await freshWorkspace('convexport2')
    const { clickId } = await trackedClick(api)
    await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_private', email: 'private@example.com' } })
    await api('POST', '/api/track/sale', { customerid: 'cus_private', amount: 100, currency: 'EUR', invoiceid: 'inv_private' })
    expect((await ndjson(api)).find((record) => record.type === 'lead')?.customeremail).toBe('private@example.com')

    expect((await api('PUT', '/api/account/update', { customeremails: false })).statusCode).toBe(200)
    const hidden = await ndjson(api)
    expect(hidden.map((record) => record.customeremail)).toEqual([null, null])
    expect(hidden.map((record) => record.customerid)).toEqual(['cus_private', 'cus_private'])

    expect((await api('DELETE', '/api/customer/cus_private/delete')).statusCode).toBe(200)
    const after = await ndjson(api)
    expect(after).toHaveLength(1)
    expect(after[0]).toMatchObject({ type: 'sale', amount: 100, customerid: null, customeremail: null, invoiceid: 'inv_private' })
  })

  it('keeps a deleted link\'s conversions with its id, without alias or campaign', async () => {
    const { owner, api } = await freshWorkspace('convexport3')
    const campaign = await createCampaign(context, owner, { name: 'Gone' })
    const { clickId, linkId } = await trackedClick(api, { campaign })
    await api('POST', '/api/track/sale', { clickid: clickId, amount: 700, currency: 'EUR', invoiceid: 'inv_gone' })
    expect((await api('DELETE', `/api/url/${linkId}/delete`)).statusCode).toBe(200)
    expect(await ndjson(api)).toEqual([expect.objectContaining({ type: 'sale', link: linkId, alias: null, campaign: null, campaignname: null, amount: 700 })])
  })

  it('merges leads and sales page after page in time order without losing or repeating one', async () => {
    const { id, api } = await freshWorkspace('convexport4')
    const owner = { id }
    const track = api
    for (let index = 0; index < 4; index += 1) {
      const { clickId } = await trackedClick(api)
      await track('POST', '/api/track/lead', { clickid: clickId, customer: { id: `cus_page_${index}` } })
      await track('POST', '/api/track/sale', { customerid: `cus_page_${index}`, amount: index + 1, currency: 'EUR', invoiceid: `inv_page_${index}` })
      await track('POST', '/api/track/sale', { clickid: clickId, amount: 10 + index, currency: 'EUR', invoiceid: `inv_page_b_${index}` })
    }
    const exports = createExportService({ rows: createExportRepository(context.database.db), publicUrl: context.config.publicUrl, pageSize: 3 })
    const lines: string[] = []
    for await (const line of exports.conversionLines(owner.id, exports.clickRange({}), 'ndjson')) lines.push(line)
    const records = lines.map((line) => JSON.parse(line) as Exported)
    expect(records.filter((record) => record.type === 'lead')).toHaveLength(4)
    expect(records.filter((record) => record.type === 'sale').map((record) => record.invoiceid).sort()).toEqual(['inv_page_0', 'inv_page_1', 'inv_page_2', 'inv_page_3', 'inv_page_b_0', 'inv_page_b_1', 'inv_page_b_2', 'inv_page_b_3'])
    const dates = records.map((record) => record.date)
    expect(dates).toEqual([...dates].sort())
    for (const type of ['lead', 'sale']) {
      const ids = records.filter((record) => record.type === type).map((record) => record.id)
      expect(new Set(ids).size).toBe(ids.length)
    }
    // The same as the whole export over HTTP.
    expect(lines.join('')).toBe((await api('GET', '/api/export/conversions?format=ndjson')).body)
  })

  it('is the workspace managers\' (customers\' names and addresses): an editor\'s and a viewer\'s keys are refused, an admin\'s answered', async () => {
    const { owner } = await freshWorkspace('convexport6')
    for (const role of ['viewer', 'editor'] as const) {
      const refused = await apiClient(context.app, (await createMember(context, owner, role)).apiKey)('GET', '/api/export/conversions')
      expect(refused.statusCode, role).toBe(403)
      expect(refused.data).toMatchObject({ error: 1, code: 'forbidden' })
    }
    expect((await apiClient(context.app, (await createMember(context, owner, 'admin')).apiKey)('GET', '/api/export/conversions')).statusCode).toBe(200)
  })

  it('lists every field of a record as a CSV column', async () => {
    const { id, api } = await freshWorkspace('convexport5')
    const owner = { id }
    const { clickId } = await trackedClick(api)
    await api('POST', '/api/track/sale', { clickid: clickId, amount: 1, currency: 'EUR', invoiceid: 'inv_columns' })
    const [row] = await createExportRepository(context.database.db).salesAfter(owner.id, { range: { from: '0000-01-01 00:00:00', to: '9999-12-31 23:59:59' }, after: undefined, limit: 1 })
    expect(Object.keys(toConversionExportRecord('sale', row!)).sort()).toEqual([...CONVERSION_EXPORT_COLUMNS].sort())
  })

  it.each([
    ['/api/export/conversions?format=json', 'format'],
    ['/api/export/conversions?from=2026-02-30', 'from'],
    ['/api/export/conversions?from=2026-03-02&to=2026-03-01', 'to'],
  ])('refuses %s naming %s, in the envelope', async (url, field) => {
    const api = otherApi
    const answer = await api('GET', url)
    expect(answer.statusCode).toBe(400)
    expect(answer.data).toMatchObject({ error: 1, code: 'validation_failed', field })
  })
})
