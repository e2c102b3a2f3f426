// Statistics with conversions (issue 39, ADR 034): a seeded workspace of clicks with click ids,
// leads, sales in two currencies, a refund and a sale of no click, read through GET /api/stats (plain,
// filtered, time zone, hourly, compare=previous, topby), an item's statistics, the funnel (its
// medians), the top reports, the recent lists' pages, and the refusals (bad parameters, a
// publishable key), with exact figures, on both databases.
import { beforeAll, describe, expect, it } from 'vitest'
import { writeEnrichedClicks, type EnrichedClick } from '../../../src/analytics/click-writer.js'
import { apiClient, useTestApp } from '../../helpers/test-app.js'
import { createMember } from '../../helpers/factories.js'

const AGENT = { browser: 'Chrome', os: 'Windows', device: 'desktop' }

describe('statistics with conversions', () => {
  const { context, api, owner } = useTestApp()
  let accountId: number
  let linkA: number
  let linkB: number
  let qrId: number
  let campaignId: number

  beforeAll(async () => {
    const db = context.database.db
    accountId = owner.id
    campaignId = (await api('POST', '/api/campaign/add', { name: 'Spring' })).data.id
    linkA = (await api('POST', '/api/url/add', { url: 'https://shop.example/a', custom: 'conv-a', campaign: campaignId, tags: ['Promo'], trackconversions: true })).data.id
    linkB = (await api('POST', '/api/url/add', { url: 'https://shop.example/b', custom: 'conv-b', trackconversions: true })).data.id
    qrId = (await api('POST', '/api/qr/add', { type: 'link', data: 'https://shop.example/qr' })).data.id
    const click = (itemId: number, createdAt: string, country: string, clickId: string): EnrichedClick => ({
      accountId, itemType: 'link', itemId, createdAt, referrerHost: null, language: 'en', visitorHash: `v-${clickId}`, country, agent: AGENT, isUnique: true, clickId,
    })
    await db.transaction().execute((trx) => writeEnrichedClicks(trx, [
      click(linkA, '2026-01-10 08:00:00', 'DE', 'c1'),
      click(linkA, '2026-01-10 09:00:00', 'FR', 'c2'),
      click(linkA, '2026-01-11 22:30:00', 'DE', 'c3'),
      click(linkB, '2026-01-10 10:00:00', 'US', 'c4'),
    ]))
    const customer = async (id: string) => (await db.insertInto('customers').values({ account_id: accountId, external_id: id, name: `Name ${id}`, email: `${id}@example.com`, created_at: '2026-01-10 00:00:00' }).returning('id').executeTakeFirstOrThrow()).id
    const [cus1, cus2, cus3] = [await customer('cus1'), await customer('cus2'), await customer('cus3')]
    const lead = (customerId: number, clickId: string, linkId: number, clickedAt: string, createdAt: string) => ({ account_id: accountId, customer_id: customerId, click_id: clickId, link_id: linkId, event: 'lead', metadata: null, clicked_at: clickedAt, created_at: createdAt })
    await db.insertInto('leads').values([
      lead(cus1, 'c1', linkA, '2026-01-10 08:00:00', '2026-01-10 08:10:00'),
      lead(cus2, 'c2', linkA, '2026-01-10 09:00:00', '2026-01-10 10:00:00'),
      lead(cus3, 'c4', linkB, '2026-01-10 10:00:00', '2026-01-11 23:30:00'),
    ]).execute()
    const sale = (customerId: number | null, clickId: string | null, linkId: number | null, clickedAt: string | null, amount: number, currency: string, invoice: string, createdAt: string) => ({
      account_id: accountId, customer_id: customerId, click_id: clickId, link_id: linkId, amount, currency, invoice_id: invoice, event: amount < 0 ? 'refund' : 'purchase', metadata: null, source: 'api', clicked_at: clickedAt, created_at: createdAt,
    })
    await db.insertInto('sales').values([
      sale(cus1, 'c1', linkA, '2026-01-10 08:00:00', 4900, 'EUR', 'inv1', '2026-01-10 12:00:00'),
      sale(cus2, 'c2', linkA, '2026-01-10 09:00:00', 1000, 'USD', 'inv2', '2026-01-11 09:00:00'),
      sale(cus1, 'c1', linkA, '2026-01-10 08:00:00', -900, 'EUR', 'refund1', '2026-01-11 10:00:00'),
      sale(cus3, 'c4', linkB, '2026-01-10 10:00:00', 5000, 'EUR', 'inv4', '2026-01-11 12:00:00'),
      // A Stripe customer without a lead: no link, so in no statistics (it is in the lists).
      sale(null, null, null, null, 500, 'EUR', 'inv5', '2026-01-10 13:00:00'),
    ]).execute()
  })

  const get = async (path: string) => {
    const response = await api('GET', path)
    expect(response.statusCode, `${path}: ${JSON.stringify(response.data)}`).toBe(200)
    return response.data.data
  }
  const RANGE = 'from=2026-01-10&to=2026-01-11'

  it('adds leads, sales, revenue and rates to the workspace\'s plain answer, its days and its top links', async () => {
    const data = await get(`/api/stats?${RANGE}`)
    expect(data).toMatchObject({ clicks: 4, leads: 3, sales: 3, revenue: { EUR: 9000, USD: 1000 }, conversionRates: { leads: 0.75, sales: 0.75 } })
    expect(data.days).toEqual([
      { date: '2026-01-10', clicks: 3, uniqueClicks: 3, leads: 2, sales: 1, revenue: { EUR: 4900 } },
      { date: '2026-01-11', clicks: 1, uniqueClicks: 1, leads: 1, sales: 2, revenue: { USD: 1000, EUR: 4100 } },
    ])
    expect(data.topLinks.map((link: { id: number; clicks: number; leads: number; sales: number; revenue: object }) => [link.id, link.clicks, link.leads, link.sales, link.revenue])).toEqual([
      [linkA, 3, 2, 2, { EUR: 4000, USD: 1000 }],
      [linkB, 1, 1, 1, { EUR: 5000 }],
    ])
  })

  it('orders top links by topby: revenue in the main currency, leads, sales', async () => {
    const ids = async (topby: string) => (await get(`/api/stats?${RANGE}&topby=${topby}`)).topLinks.map((link: { id: number }) => link.id)
    expect(await ids('revenue')).toEqual([linkB, linkA])
    expect(await ids('leads')).toEqual([linkA, linkB])
    expect(await ids('clicks')).toEqual([linkA, linkB])
    // The raw answer of topby=clicks is the plain one's (in UTC).
    const raw = await get(`/api/stats?${RANGE}&topby=revenue&tz=UTC`)
    expect(raw).toMatchObject({ clicks: 4, leads: 3, sales: 3, revenue: { EUR: 9000, USD: 1000 } })
  })

  it('applies dimension filters to the attributed click, link filters to the link', async () => {
    expect(await get(`/api/stats?${RANGE}&country=DE`)).toMatchObject({ clicks: 2, leads: 1, sales: 1, revenue: { EUR: 4000 }, conversionRates: { leads: 0.5, sales: 0.5 } })
    expect(await get(`/api/stats?${RANGE}&campaign=${campaignId}`)).toMatchObject({ clicks: 3, leads: 2, sales: 2, revenue: { EUR: 4000, USD: 1000 } })
    expect(await get(`/api/stats?${RANGE}&tag=promo&country=US`)).toMatchObject({ clicks: 0, leads: 0, sales: 0, revenue: {}, conversionRates: { leads: 0, sales: 0 } })
  })

  it('counts a conversion at its own time in the zone asked, by the hour, and in the previous period', async () => {
    // Berlin's 11 January ends at 23:00 UTC: the lead of 23:30 UTC is the 12th's.
    const berlin = await get(`/api/stats?${RANGE}&tz=Europe/Berlin`)
    expect(berlin).toMatchObject({ clicks: 4, leads: 2, sales: 3, timeZone: 'Europe/Berlin' })
    const hourly = await get('/api/stats?from=2026-01-10&to=2026-01-10&granularity=hour&tz=UTC')
    expect(hourly.series).toHaveLength(24)
    expect(hourly.series[8]).toEqual({ date: '2026-01-10 08:00', start: '2026-01-10 08:00:00', clicks: 1, uniqueClicks: 1, leads: 1, sales: 0, revenue: {} })
    expect(hourly.series[12]).toEqual({ date: '2026-01-10 12:00', start: '2026-01-10 12:00:00', clicks: 0, uniqueClicks: 0, leads: 0, sales: 1, revenue: { EUR: 4900 } })
    const compared = await get('/api/stats?from=2026-01-11&to=2026-01-11&compare=previous&tz=UTC')
    expect(compared).toMatchObject({ clicks: 1, leads: 1, sales: 2, revenue: { USD: 1000, EUR: 4100 }, conversionRates: { leads: 1, sales: 2 } })
    expect(compared.previous).toMatchObject({ from: '2026-01-10', to: '2026-01-10', clicks: 3, leads: 2, sales: 1, revenue: { EUR: 4900 } })
    expect(compared.previous.series[0]).toMatchObject({ leads: 2, sales: 1, revenue: { EUR: 4900 } })
    expect(compared.topLinks.map((link: { id: number }) => link.id)).toEqual([linkA])
    expect(compared.previous.topLinks[0]).toMatchObject({ id: linkA, clicks: 2, leads: 2, sales: 1, revenue: { EUR: 4900 } })
  })

  it('gives a link its conversions and a QR code zeros', async () => {
    expect(await get(`/api/url/${linkA}/stats?${RANGE}`)).toMatchObject({ clicks: 3, leads: 2, sales: 2, revenue: { EUR: 4000, USD: 1000 } })
    expect(await get(`/api/url/${linkA}/stats?${RANGE}&country=FR&granularity=day`)).toMatchObject({ clicks: 1, leads: 1, sales: 1, revenue: { USD: 1000 } })
    expect(await get(`/api/qr/${qrId}/stats?${RANGE}`)).toMatchObject({ leads: 0, sales: 0, revenue: {}, conversionRates: { leads: 0, sales: 0 } })
  })

  it('answers the funnel with the medians and 90th percentiles from click to lead and to first sale', async () => {
    expect(await get(`/api/conversions/funnel?${RANGE}`)).toEqual({
      from: '2026-01-10', to: '2026-01-11', filters: {}, clicks: 4, leads: 3, sales: 3, revenue: { EUR: 9000, USD: 1000 }, conversionRates: { leads: 0.75, sales: 0.75 },
      // Leads 600 s, 3,600 s, 135,000 s after their clicks; first sales 14,400 s, 86,400 s, 93,600 s.
      timeToLead: { median: 3600, p90: 135000 },
      timeToSale: { median: 86400, p90: 93600 },
    })
    expect(await get(`/api/conversions/funnel?${RANGE}&link=${linkB}`)).toMatchObject({ clicks: 1, leads: 1, sales: 1, revenue: { EUR: 5000 }, timeToLead: { median: 135000, p90: 135000 } })
    const none = await get('/api/conversions/funnel?from=2026-02-01&to=2026-02-02&compare=previous')
    expect(none).toMatchObject({ clicks: 0, leads: 0, sales: 0, revenue: {}, timeToLead: null, timeToSale: null, previous: { from: '2026-01-30', to: '2026-01-31', clicks: 0 } })
  })

  it('ranks links, campaigns and tags by revenue, sales, leads or clicks', async () => {
    const top = await get(`/api/conversions/top?${RANGE}&by=link&sort=revenue`)
    expect(top.rows).toEqual([
      { id: linkB, name: 'conv-b', shorturl: 'https://lw.test/conv-b', clicks: 1, leads: 1, sales: 1, revenue: { EUR: 5000 } },
      { id: linkA, name: 'conv-a', shorturl: 'https://lw.test/conv-a', clicks: 3, leads: 2, sales: 2, revenue: { EUR: 4000, USD: 1000 } },
    ])
    expect((await get(`/api/conversions/top?${RANGE}&sort=clicks&limit=1`)).rows.map((row: { id: number }) => row.id)).toEqual([linkA])
    expect((await get(`/api/conversions/top?${RANGE}&by=campaign`)).rows).toEqual([{ id: campaignId, name: 'Spring', clicks: 3, leads: 2, sales: 2, revenue: { EUR: 4000, USD: 1000 } }])
    expect((await get(`/api/conversions/top?${RANGE}&by=tag&sort=leads`)).rows).toEqual([{ id: expect.any(Number), name: 'Promo', clicks: 3, leads: 2, sales: 2, revenue: { EUR: 4000, USD: 1000 } }])
  })

  it('pages the latest sales and leads, newest first, with their links and customers', async () => {
    const first = await api('GET', '/api/conversions/sales?limit=2')
    expect(first.statusCode).toBe(200)
    expect(first.data.data).toMatchObject({ result: 5, perpage: 2, currentpage: 1, nextpage: 2, maxpage: 3 })
    expect(first.data.data.sales).toEqual([
      { id: expect.any(Number), event: 'purchase', date: '2026-01-11 12:00:00', clickid: 'c4', clickedat: '2026-01-10 10:00:00', link: { id: linkB, shorturl: 'https://lw.test/conv-b' }, customer: { id: 'cus3', name: 'Name cus3', email: 'cus3@example.com' }, amount: 5000, currency: 'EUR', invoiceid: 'inv4', source: 'api' },
      expect.objectContaining({ event: 'refund', amount: -900, currency: 'EUR', invoiceid: 'refund1', link: { id: linkA, shorturl: 'https://lw.test/conv-a' } }),
    ])
    const second = (await api('GET', '/api/conversions/sales?limit=2&page=2')).data.data
    expect(second.sales).toEqual([expect.objectContaining({ invoiceid: 'inv2', currency: 'USD' }), expect.objectContaining({ invoiceid: 'inv5', link: null, customer: null, clickid: null })])
    expect((await api('GET', '/api/conversions/sales?limit=2&page=3')).data.data).toMatchObject({ nextpage: null, sales: [{ invoiceid: 'inv1' }] })
    const leads = (await api('GET', `/api/conversions/leads?link=${linkA}`)).data.data
    expect(leads.leads.map((lead: { customer: { id: string } }) => lead.customer.id)).toEqual(['cus2', 'cus1'])
    expect(leads.leads[0]).not.toHaveProperty('amount')
    // An editor reads the figures and the customers' names, not their addresses (personal data, the admins' like the export).
    const editor = apiClient(context.app, (await createMember(context, owner, 'editor')).apiKey)
    const edited = (await editor('GET', '/api/conversions/sales?limit=1')).data.data.sales[0]
    expect(edited.customer).toEqual({ id: 'cus3', name: 'Name cus3' })
    const admin = apiClient(context.app, (await createMember(context, owner, 'admin')).apiKey)
    expect((await admin('GET', '/api/conversions/sales?limit=1')).data.data.sales[0].customer).toEqual({ id: 'cus3', name: 'Name cus3', email: 'cus3@example.com' })
    // Without e-mail addresses kept, none is shown.
    expect((await api('PUT', '/api/account/update', { customeremails: false })).statusCode).toBe(200)
    const hidden = (await api('GET', '/api/conversions/leads?limit=1')).data.data.leads[0]
    expect(hidden.customer).toEqual({ id: 'cus3', name: 'Name cus3' })
    await api('PUT', '/api/account/update', { customeremails: true })
  })

  it('narrows the latest sales and leads to a time range (UTC; a date alone is its whole day), with the link', async () => {
    const invoices = async (path: string) => ((await api('GET', path)).data.data.sales as Array<{ invoiceid: string }>).map((sale) => sale.invoiceid)
    expect(await invoices('/api/conversions/sales?from=2026-01-11&to=2026-01-11')).toEqual(['inv4', 'refund1', 'inv2'])
    expect(await invoices('/api/conversions/sales?to=2026-01-10')).toEqual(['inv5', 'inv1'])
    expect(await invoices('/api/conversions/sales?from=2026-01-10 12:30:00&to=2026-01-11 09:59:59')).toEqual(['inv2', 'inv5'])
    expect(await invoices(`/api/conversions/sales?from=2026-01-11&link=${linkA}`)).toEqual(['refund1', 'inv2'])
    const page = (await api('GET', '/api/conversions/sales?from=2026-01-11&limit=2')).data.data
    expect(page).toMatchObject({ result: 3, maxpage: 2, nextpage: 2 })
    expect((await api('GET', '/api/conversions/sales?from=2026-02-01')).data.data).toMatchObject({ result: 0, sales: [] })
    const leads = (await api('GET', '/api/conversions/leads?from=2026-01-11')).data.data.leads as Array<{ customer: { id: string } }>
    expect(leads.map((lead) => lead.customer.id)).toEqual(['cus3'])
  })

  it('refuses every bad parameter with a 400 naming it', async () => {
    const cases: Array<[string, string]> = [
      [`/api/stats?${RANGE}&topby=money`, 'topby'],
      [`/api/conversions/top?${RANGE}&by=domain`, 'by'],
      [`/api/conversions/top?${RANGE}&sort=profit`, 'sort'],
      [`/api/conversions/top?${RANGE}&limit=0`, 'limit'],
      [`/api/conversions/top?${RANGE}&limit=101`, 'limit'],
      [`/api/conversions/funnel?${RANGE}&link=abc`, 'link'],
      [`/api/conversions/funnel?${RANGE}&tz=Mars/Base`, 'tz'],
      ['/api/conversions/funnel?from=2026-13-01', 'from'],
      ['/api/conversions/funnel?from=2026-01-01&to=2026-03-01&granularity=hour', 'granularity'],
      [`/api/conversions/funnel?${RANGE}&topby=revenue`, 'topby'],
      [`/api/conversions/funnel?${RANGE}&compare=next`, 'compare'],
      ['/api/conversions/sales?page=0', 'page'],
      ['/api/conversions/leads?link=-1', 'link'],
      ['/api/conversions/sales?from=yesterday', 'from'],
      ['/api/conversions/sales?from=2026-02-30', 'from'],
      ['/api/conversions/leads?to=2026-13-01', 'to'],
      ['/api/conversions/sales?from=2026-01-11&to=2026-01-10', 'to'],
    ]
    for (const [path, field] of cases) {
      const response = await api('GET', path)
      expect(response.statusCode, path).toBe(400)
      expect(response.data, path).toMatchObject({ error: 1, code: 'validation_failed', field })
      expect(response.data.message, path).toContain(field)
    }
  })

  it('lets a read-only key read them and refuses a publishable (track) key', async () => {
    const reader = apiClient(context.app, (await api('POST', '/api/key/add', { name: 'reader', scopes: ['links'], readonly: true })).data.key)
    const publishable = apiClient(context.app, (await api('POST', '/api/key/add', { name: 'site', scopes: ['track'] })).data.key)
    for (const path of ['/api/conversions/funnel', '/api/conversions/top', '/api/conversions/sales', '/api/conversions/leads', '/api/stats', `/api/url/${linkA}/stats`, '/api/export/conversions']) {
      expect((await publishable('GET', path)).statusCode, path).toBe(403)
    }
    for (const path of ['/api/conversions/funnel', '/api/conversions/top', '/api/conversions/sales', '/api/conversions/leads']) {
      expect((await reader('GET', path)).statusCode, path).toBe(200)
    }
  })
})
