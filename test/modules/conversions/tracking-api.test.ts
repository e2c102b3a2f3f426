// The tracking API (issue 39, ADR 034): leads and sales through publishable keys (`track`), their
// idempotency (per customer and event, per invoice id, per Idempotency-Key), the attribution
// window, field-named 400s, CORS for the workspace's origins, on both databases.
import { describe, expect, it } from 'vitest'
import { apiClient, useTestApp } from '../../helpers/test-app.js'
import { visit } from '../../public/redirect-test-support.js'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'

describe('the tracking API', () => {
  const { context, api, otherApi } = useTestApp()

  /** A click of a new tracked link: its click id and the link's id. */
  async function trackedClick(client = api): Promise<{ clickId: string; linkId: number }> {
    const created = await client('POST', '/api/url/add', { url: 'https://shop.example/landing', trackconversions: true })
    const response = await visit(context.app, `/${created.data.shorturl.split('/').pop()}`, { headers: { 'user-agent': BROWSER } })
    return { clickId: new URL(response.headers.location as string).searchParams.get('lw_id')!, linkId: created.data.id }
  }

  async function publishableKey(client = api): Promise<string> {
    const created = await client('POST', '/api/key/add', { name: 'site', scopes: ['track'] })
    expect(created.statusCode).toBe(201)
    return created.data.key
  }

  it('records a lead for a click id not yet written (201), then answers the same lead for a repeat (200)', async () => {
    const { clickId, linkId } = await trackedClick()
    const track = apiClient(context.app, await publishableKey())
    // The click is still queued: the lead finds it all the same.
    const lead = await track('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_1', name: 'Ada', email: 'Ada@Example.com' }, metadata: { plan: 'pro' } })
    expect(lead.statusCode).toBe(201)
    expect(lead.data.data).toMatchObject({ event: 'lead', clickid: clickId, link: linkId, customer: { id: 'cus_1', name: 'Ada', email: 'ada@example.com' }, metadata: { plan: 'pro' } })
    const repeat = await track('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_1' } })
    expect(repeat.statusCode).toBe(200)
    expect(repeat.data.data.id).toBe(lead.data.data.id)
    // Another event of the same customer is a lead of its own.
    const trial = await track('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_1' }, event: 'trial' })
    expect(trial.statusCode).toBe(201)
    const rows = await context.database.db.selectFrom('leads').select('event').where('link_id', '=', linkId).orderBy('id').execute()
    expect(rows.map((row) => row.event)).toEqual(['lead', 'trial'])
  })

  it('records a sale attributed to the customer\'s lead, once per invoice id', async () => {
    const { clickId, linkId } = await trackedClick()
    const track = apiClient(context.app, await publishableKey())
    await track('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_sale' } })
    const sale = await track('POST', '/api/track/sale', { customerid: 'cus_sale', amount: 4900, currency: 'eur', invoiceid: 'inv_1' })
    expect(sale.statusCode).toBe(201)
    expect(sale.data.data).toMatchObject({ amount: 4900, currency: 'EUR', invoiceid: 'inv_1', customerid: 'cus_sale', clickid: clickId, link: linkId, event: 'purchase', source: 'api' })
    const again = await track('POST', '/api/track/sale', { customerid: 'cus_sale', amount: 9999, currency: 'EUR', invoiceid: 'inv_1' })
    expect(again.statusCode).toBe(200)
    expect(again.data.data).toMatchObject({ id: sale.data.data.id, amount: 4900 })
    // By click id alone, without a customer.
    const byClick = await track('POST', '/api/track/sale', { clickid: clickId, amount: 100, currency: 'USD', invoiceid: 'inv_2' })
    expect(byClick.statusCode).toBe(201)
    expect(byClick.data.data).toMatchObject({ customerid: null, link: linkId })
    const count = await context.database.db.selectFrom('sales').select((eb) => eb.fn.countAll<number>().as('n')).where('invoice_id', 'in', ['inv_1', 'inv_2']).executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(2)
  })

  it('answers a repeated Idempotency-Key with the first answer, and refuses it on the other endpoint', async () => {
    const { clickId } = await trackedClick()
    const headers = { 'idempotency-key': 'req-1' }
    const first = await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_idem' } }, headers)
    expect(first.statusCode).toBe(201)
    const second = await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_idem' } }, headers)
    expect(second.statusCode).toBe(201)
    expect(second.data).toEqual(first.data)
    const sale = await api('POST', '/api/track/sale', { customerid: 'cus_idem', amount: 1, currency: 'EUR', invoiceid: 'x' }, headers)
    expect(sale.statusCode).toBe(400)
    expect(sale.data).toMatchObject({ error: 1, field: 'Idempotency-Key' })
  })

  it.each([
    ['an unknown click id', { clickid: 'ffffffffffffffffffffffffffffffff', customer: { id: 'c' } }, 'clickid'],
    ['a click id of no shape', { clickid: 'nope', customer: { id: 'c' } }, 'clickid'],
    ['no customer id', { clickid: 'ffffffffffffffffffffffffffffffff', customer: {} }, 'customer.id'],
    ['a bad e-mail', { clickid: 'ffffffffffffffffffffffffffffffff', customer: { id: 'c', email: 'no' } }, 'customer.email'],
    ['metadata that is no object', { clickid: 'ffffffffffffffffffffffffffffffff', customer: { id: 'c' }, metadata: [1] }, 'metadata'],
  ])('refuses a lead with %s: 400 naming the field, nothing written', async (_case, body, field) => {
    const before = await context.database.db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const response = await api('POST', '/api/track/lead', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, field })
    const after = await context.database.db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  it.each([
    ['a negative amount', { amount: -5 }, 'amount'],
    ['a fractional amount', { amount: 4.5 }, 'amount'],
    ['an unknown currency', { currency: 'XYZ' }, 'currency'],
    ['no invoice id', { invoiceid: '' }, 'invoiceid'],
    ['an unknown customer', { customerid: 'nobody' }, 'customerid'],
    ['neither customer nor click', { customerid: undefined }, 'customerid'],
  ])('refuses a sale with %s: 400 naming the field, nothing written', async (_case, change, field) => {
    const body = { customerid: 'nobody', amount: 100, currency: 'EUR', invoiceid: `bad-${field}`, ...change }
    const response = await api('POST', '/api/track/sale', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, field })
    expect(await context.database.db.selectFrom('sales').select('id').where('invoice_id', '=', body.invoiceid ?? '').executeTakeFirst()).toBeUndefined()
  })

  it('refuses a click older than the attribution window, and another workspace\'s click', async () => {
    const { clickId } = await trackedClick()
    await context.clicks.flush()
    await context.database.db.updateTable('clicks').set({ created_at: '2020-01-01 00:00:00' }).where('click_id', '=', clickId).execute()
    const old = await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'late' } })
    expect(old.statusCode).toBe(400)
    expect(old.data).toMatchObject({ field: 'clickid', message: expect.stringContaining('attribution window (90 days)') })
    const theirs = await trackedClick(otherApi)
    const foreign = await api('POST', '/api/track/lead', { clickid: theirs.clickId, customer: { id: 'x' } })
    expect(foreign.statusCode).toBe(400)
    expect(foreign.data).toMatchObject({ field: 'clickid' })
  })

  it('a publishable key records and reaches nothing else; a read-only key cannot record', async () => {
    const track = apiClient(context.app, await publishableKey())
    expect((await track('GET', '/api/urls')).statusCode).toBe(403)
    expect((await track('POST', '/api/url/add', { url: 'https://x.example' })).statusCode).toBe(403)
    const readOnly = await api('POST', '/api/key/add', { name: 'ro', scopes: ['track'], readonly: true })
    expect(readOnly.statusCode).toBe(201)
    const refused = await apiClient(context.app, readOnly.data.key)('POST', '/api/track/sale', { clickid: 'ffffffffffffffffffffffffffffffff', amount: 1, currency: 'EUR', invoiceid: 'ro' })
    expect(refused.statusCode).toBe(403)
  })

  it('answers browsers of the origins the workspace lists, and refuses others', async () => {
    const preflight = await context.app.inject({ method: 'OPTIONS', url: '/api/track/lead', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.example')
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('Idempotency-Key')
    const { clickId } = await trackedClick()
    const fromShop = { origin: 'https://shop.example' }
    const refused = await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'web' } }, fromShop)
    expect(refused.statusCode).toBe(403)
    expect(refused.headers['access-control-allow-origin']).toBeUndefined()
    expect((await api('PUT', '/api/account/update', { trackingorigins: ['https://shop.example'] })).statusCode).toBe(200)
    const allowed = await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'web' } }, fromShop)
    expect(allowed.statusCode).toBe(201)
    expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example')
    const bad = await api('PUT', '/api/account/update', { trackingorigins: ['https://shop.example/path'] })
    expect(bad.statusCode).toBe(400)
    expect(bad.data).toMatchObject({ field: 'trackingorigins.0' })
  })

  it('leaves e-mail addresses out when the workspace says so', async () => {
    const { clickId } = await trackedClick(otherApi)
    await otherApi('PUT', '/api/account/update', { customeremails: false })
    const lead = await otherApi('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'private', email: 'p@example.com' } })
    expect(lead.statusCode).toBe(201)
    expect(lead.data.data.customer.email).toBeNull()
    const row = await context.database.db.selectFrom('customers').select('email').where('external_id', '=', 'private').executeTakeFirstOrThrow()
    expect(row.email).toBeNull()
  })

  it('writes lead.created and sale.created to the outbox in the same transaction, for the webhooks that subscribe', async () => {
    const hook = await otherApi('POST', '/api/webhook/add', { url: 'https://hooks.example.com/conversions', events: ['lead.created', 'sale.created'] })
    expect(hook.statusCode).toBe(201)
    const { clickId, linkId } = await trackedClick(otherApi)
    const lead = await otherApi('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'evented' } })
    const sale = await otherApi('POST', '/api/track/sale', { customerid: 'evented', amount: 2500, currency: 'EUR', invoiceid: 'evented-1' })
    // A repeat writes no event.
    await otherApi('POST', '/api/track/sale', { customerid: 'evented', amount: 2500, currency: 'EUR', invoiceid: 'evented-1' })
    const events = await context.database.db.selectFrom('outbox_events').select(['type', 'payload']).where('account_id', '=', lead.data.data.customer && (await otherApi('GET', '/api/account')).data.data.id).where('type', 'in', ['lead.created', 'sale.created']).orderBy('id').execute()
    expect(events.map((event) => event.type)).toEqual(['lead.created', 'sale.created'])
    expect(JSON.parse(events[0]!.payload).data).toMatchObject({ id: lead.data.data.id, link: linkId, customer: { id: 'evented' } })
    expect(JSON.parse(events[1]!.payload).data).toMatchObject({ id: sale.data.data.id, amount: 2500, currency: 'EUR', link: linkId })
  })

  it('deletes a customer\'s personal fields and leads, keeps their sales anonymous, and audits it', async () => {
    const { clickId } = await trackedClick()
    await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'forget-me', name: 'Grace', email: 'g@example.com' } })
    const sale = await api('POST', '/api/track/sale', { customerid: 'forget-me', amount: 700, currency: 'EUR', invoiceid: 'forget-1' })
    expect((await otherApi('DELETE', '/api/customer/forget-me/delete')).statusCode).toBe(404)
    const deleted = await api('DELETE', '/api/customer/forget-me/delete')
    expect(deleted.statusCode).toBe(200)
    expect(await context.database.db.selectFrom('customers').select('id').where('external_id', '=', 'forget-me').executeTakeFirst()).toBeUndefined()
    const kept = await context.database.db.selectFrom('sales').select(['amount', 'customer_id']).where('id', '=', sale.data.data.id).executeTakeFirstOrThrow()
    expect(kept).toEqual({ amount: 700, customer_id: null })
    const audit = await api('GET', '/api/audit')
    expect(JSON.stringify(audit.data)).toContain('customer.deleted')
    expect((await api('DELETE', '/api/customer/forget-me/delete')).statusCode).toBe(404)
  })
})
