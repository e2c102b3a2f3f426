// Stripe's webhook receiver (issue 39): payloads signed with stripe.webhooks.generateTestHeaderString
// are recorded as sales (checkout, invoice, refund), a bad signature is a 400 in the envelope, and
// a repeated event id is recorded once, on both databases.
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { visit } from '../../public/redirect-test-support.js'

const SECRET = 'whsec_test_0123456789abcdef'
const stripe = new Stripe('sk_test_unused')
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'

describe('the Stripe webhook receiver', () => {
  const { context, api } = useTestApp()

  async function webhookPath(): Promise<string> {
    expect((await api('PUT', '/api/account/update', { stripesigningsecret: SECRET })).statusCode).toBe(200)
    const settings = (await api('GET', '/api/account/settings')).data.data
    expect(settings.stripesigningsecretset).toBe(true)
    return new URL(settings.stripewebhookurl).pathname
  }

  function deliver(path: string, event: object, secret = SECRET) {
    const payload = JSON.stringify(event)
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret })
    return context.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload })
  }

  it('records a checkout as a sale attributed to the customer\'s lead, once per event id and invoice', async () => {
    const path = await webhookPath()
    const link = await api('POST', '/api/url/add', { url: 'https://shop.example/', trackconversions: true })
    const clicked = await visit(context.app, `/${link.data.shorturl.split('/').pop()}`, { headers: { 'user-agent': BROWSER } })
    const clickId = new URL(clicked.headers.location as string).searchParams.get('lw_id')
    expect((await api('POST', '/api/track/lead', { clickid: clickId, customer: { id: 'cus_stripe' } })).statusCode).toBe(201)
    const event = { id: 'evt_1', type: 'checkout.session.completed', data: { object: { id: 'cs_1', client_reference_id: 'cus_stripe', amount_total: 4900, currency: 'eur', payment_status: 'paid', invoice: 'in_1' } } }
    const first = await deliver(path, event)
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ error: 0, type: 'checkout.session.completed', recorded: true })
    expect((await deliver(path, event)).json()).toMatchObject({ recorded: false })
    // The same invoice's invoice.paid is the same sale.
    const paid = await deliver(path, { id: 'evt_2', type: 'invoice.paid', data: { object: { id: 'in_1', amount_paid: 4900, currency: 'eur', metadata: { lw_customer: 'cus_stripe' } } } })
    expect(paid.json()).toMatchObject({ recorded: false })
    const refund = await deliver(path, { id: 'evt_3', type: 'charge.refunded', data: { object: { id: 'ch_1', amount_refunded: 900, currency: 'eur', metadata: { lw_customer: 'cus_stripe' } } } })
    expect(refund.json()).toMatchObject({ recorded: true })
    const sales = await context.database.db.selectFrom('sales').select(['amount', 'currency', 'link_id', 'source', 'invoice_id']).where('source', '=', 'stripe').orderBy('id').execute()
    expect(sales).toEqual([
      { amount: 4900, currency: 'EUR', link_id: link.data.id, source: 'stripe', invoice_id: 'in_1' },
      { amount: -900, currency: 'EUR', link_id: link.data.id, source: 'stripe', invoice_id: 'refund:evt_3' },
    ])
  })

  it('refuses a bad or missing signature with a 400 in the envelope, and an unknown address with a 404', async () => {
    const path = await webhookPath()
    const event = { id: 'evt_bad', type: 'invoice.paid', data: { object: { id: 'in_bad', amount_paid: 1, currency: 'eur' } } }
    const forged = await deliver(path, event, 'whsec_someone_else_000000')
    expect(forged.statusCode).toBe(400)
    expect(forged.json()).toMatchObject({ error: 1, field: 'Stripe-Signature' })
    const unsigned = await context.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(event) })
    expect(unsigned.statusCode).toBe(400)
    expect(unsigned.json()).toMatchObject({ error: 1, field: 'Stripe-Signature' })
    const unknown = await deliver('/api/integrations/stripe/webhook/nope', event)
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ error: 1 })
    expect(await context.database.db.selectFrom('sales').select('id').where('invoice_id', '=', 'in_bad').executeTakeFirst()).toBeUndefined()
  })

  it('answers other events without recording, and takes a body that is no JSON as a bad signature', async () => {
    const path = await webhookPath()
    expect((await deliver(path, { id: 'evt_other', type: 'customer.created', data: { object: { id: 'cus_x' } } })).json()).toMatchObject({ recorded: false })
    const garbage = await context.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'text/plain', 'stripe-signature': 't=1,v1=00' }, payload: 'not json' })
    expect(garbage.statusCode).toBe(400)
  })

  it('gives the address before the secret (Stripe shows its secret only once it has the address), and refuses events until the secret is set', async () => {
    // (The file's tests share one workspace: a first test may have made the address already.)
    expect((await api('PUT', '/api/account/update', { stripesigningsecret: '' })).statusCode).toBe(200)
    const before = (await api('GET', '/api/account/settings')).data.data
    expect(before.stripesigningsecretset).toBe(false)
    const path = new URL(before.stripewebhookurl).pathname
    const event = { id: 'evt_early', type: 'invoice.paid', data: { object: { id: 'in_early', amount_paid: 100, currency: 'eur' } } }
    expect((await deliver(path, event)).statusCode).toBe(404)
    // The secret Stripe then shows keeps the same address.
    expect(await webhookPath()).toBe(path)
    expect((await deliver(path, event)).statusCode).toBe(200)
  })

  it('refuses a signing secret of the wrong shape', async () => {
    const response = await api('PUT', '/api/account/update', { stripesigningsecret: 'sk_live_oops' })
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ field: 'stripesigningsecret' })
  })
})
