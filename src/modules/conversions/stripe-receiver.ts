// Stripe's events as sales (issue 39, ADR 034): the signature is checked with the workspace's
// signing secret by the official `stripe` package (loaded when the first event arrives: the
// redirect's process never pays for it), then checkout.session.completed and invoice.paid are
// recorded as sales and charge.refunded as a negative one. The customer is the session's
// `client_reference_id` or an object's `metadata.lw_customer`. Each event id is recorded once.
import { NotFoundError, ValidationError } from '../../core/errors.js'
import type { ConversionService } from './conversion.service.js'

export interface StripeReceiverOptions {
  conversions: Pick<ConversionService, 'recordProviderSale'>
  /** The workspace of a webhook address's token and its signing secret (accounts module). */
  receiverOf(token: string): Promise<{ accountId: number; secret: string } | undefined>
}

/** The fields of Stripe's objects read here (the rest of each event is not kept). */
interface StripeObject {
  id: string
  client_reference_id?: string | null
  metadata?: Record<string, string> | null
  amount_total?: number | null
  amount_paid?: number
  amount_refunded?: number
  currency?: string
  invoice?: string | { id: string } | null
  payment_status?: string
}

type StripeWebhooks = { constructEvent(payload: Buffer, header: string, secret: string): { id: string; type: string; data: { object: unknown } } }
let webhooks: Promise<StripeWebhooks> | undefined

/** The package's webhook helper, imported once when first needed. */
function stripeWebhooks(): Promise<StripeWebhooks> {
  webhooks ??= import('stripe').then(({ default: Stripe }) => new Stripe('sk_unused_for_signatures').webhooks as unknown as StripeWebhooks)
  return webhooks
}

const idOf = (value: string | { id: string } | null | undefined) => (value === null || value === undefined ? null : typeof value === 'string' ? value : value.id)

export function createStripeReceiver({ conversions, receiverOf }: StripeReceiverOptions) {
  return {
    /** Checks and records one delivery; answers whether a sale was written. */
    async receive(token: string, payload: Buffer, signature: string | undefined): Promise<{ type: string; recorded: boolean }> {
      const receiver = await receiverOf(token)
      if (!receiver) throw NotFoundError.of('Stripe webhook')
      if (!signature) throw ValidationError.field('Stripe-Signature', 'is missing: only Stripe\'s signed deliveries are taken')
      let event
      try {
        event = (await stripeWebhooks()).constructEvent(payload, signature, receiver.secret)
      } catch {
        throw ValidationError.field('Stripe-Signature', 'does not match the payload with the workspace\'s signing secret')
      }
      const object = event.data.object as StripeObject
      const customerId = object.client_reference_id || object.metadata?.lw_customer || null
      const metadata = { stripe_event: event.id, stripe_object: object.id }
      const record = (sale: { amount: number; invoiceId: string; event: string }) =>
        conversions.recordProviderSale(receiver.accountId, { customerId, currency: object.currency ?? '', metadata, ...sale }, `stripe:${event.id}`)
      switch (event.type) {
        case 'checkout.session.completed':
          // A subscription's first invoice also arrives as invoice.paid: the invoice id makes them one sale.
          if (object.payment_status === 'unpaid') return { type: event.type, recorded: false }
          return { type: event.type, recorded: await record({ amount: object.amount_total ?? 0, invoiceId: idOf(object.invoice) ?? object.id, event: 'purchase' }) }
        case 'invoice.paid':
          return { type: event.type, recorded: await record({ amount: object.amount_paid ?? 0, invoiceId: object.id, event: 'purchase' }) }
        case 'charge.refunded':
          return { type: event.type, recorded: await record({ amount: -(object.amount_refunded ?? 0), invoiceId: `refund:${event.id}`, event: 'refund' }) }
        default:
          return { type: event.type, recorded: false }
      }
    },
  }
}

export type StripeReceiver = ReturnType<typeof createStripeReceiver>
