// The tracking API (issue 39, ADR 034): POST /api/track/lead and /api/track/sale, with a key of any
// scope that includes `track` (a publishable key: `scopes: ["track"]` may record and nothing else).
// From a browser: the preflight is answered for any origin (it reveals nothing and writes nothing);
// the request itself is refused unless its Origin is one the workspace lists, and only then does
// the answer carry Access-Control-Allow-Origin.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import { ErrorEnvelope, errorResponses } from '../../http/schemas.js'
import { Type } from 'typebox'
import type { StripeReceiver } from './stripe-receiver.js'
import { ForbiddenError } from '../../core/errors.js'
import { MessageResponse } from '../../core/schemas.js'
import type { ConversionService } from './conversion.service.js'
import { toLeadRecord, toListedConversion, toSaleRecord } from './conversion.mapper.js'
import { ConversionListQuery, LeadBody, LeadListResponse, LeadResponse, SaleBody, SaleListResponse, SaleResponse, TrackHeaders } from './conversion.schemas.js'
import type { ListEnvelope } from '../../http/list.js'
import { toPageRequest } from '../../core/paging.js'
import { roleAllows } from '../access/roles.js'

const tags = ['conversions']

/** What the routes use, handed over by app.ts. */
export interface ConversionRouteDependencies {
  conversions: ConversionService
  /** The list envelope (http/list.ts) and the base of short URLs. */
  listEnvelope: ListEnvelope
  publicUrl: string
  /** The origins the workspace lists for browser calls (accounts module). */
  trackingOriginsOf(accountId: number): Promise<readonly string[]>
  stripe: StripeReceiver
}

/** Stripe's deliveries: no key (the signature is the credential), the body kept as sent (http/auth.ts lets it through). */
export const STRIPE_WEBHOOK_PATH = '/api/integrations/stripe/webhook/:token'

export const TRACKING_PATHS = ['/api/track/lead', '/api/track/sale'] as const

const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id'

export async function registerConversionRoutes(app: App, { conversions, trackingOriginsOf, stripe, listEnvelope, publicUrl }: ConversionRouteDependencies): Promise<void> {
  app.get('/api/conversions/leads', {
    schema: {
      tags,
      summary: 'The workspace\'s latest leads, newest first (of one link with `link`, from and to a time with `from` and `to`), each with its link and customer',
      querystring: ConversionListQuery,
      response: { 200: LeadListResponse, ...errorResponses },
    },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const account = accountOf(request)
    const { rows, total } = await conversions.listLeads(account.id, page, request.query)
    return listEnvelope('leads', page, total, rows.map((row) => toListedConversion(row, publicUrl, roleAllows(account.role, 'admin'))))
  })

  app.get('/api/conversions/sales', {
    schema: {
      tags,
      summary: 'The workspace\'s latest sales and refunds (negative amounts), newest first (of one link with `link`, from and to a time with `from` and `to`), each with its link and customer',
      querystring: ConversionListQuery,
      response: { 200: SaleListResponse, ...errorResponses },
    },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const account = accountOf(request)
    const { rows, total } = await conversions.listSales(account.id, page, request.query)
    return listEnvelope('sales', page, total, rows.map((row) => toListedConversion(row, publicUrl, roleAllows(account.role, 'admin'))))
  })

  // The signature covers the bytes Stripe sent: this route alone takes its body unparsed.
  await app.register(async (scope: App) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
    scope.post(STRIPE_WEBHOOK_PATH, {
      schema: {
        tags,
        // No key: Stripe's signature is the credential (http/auth.ts lets the path through).
        security: [],
        summary: 'Stripe webhook receiver: checkout.session.completed and invoice.paid as sales, charge.refunded as a negative sale',
        description: 'Give this address (GET /api/account/settings `stripewebhookurl`) to Stripe and its signing secret to PUT /api/account/update `stripesigningsecret`. A bad signature is answered 400; a repeated event is recorded once.',
        params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Type.Object({ error: Type.Literal(0), type: Type.String(), recorded: Type.Boolean() }), 400: ErrorEnvelope, 404: ErrorEnvelope },
      },
    }, async (request) => {
      const payload = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const signature = request.headers['stripe-signature']
      const answer = await stripe.receive(request.params.token, payload, Array.isArray(signature) ? signature[0] : signature)
      return { error: 0 as const, ...answer }
    })
  })

  /** Refuses a browser's call from an origin the workspace does not list; allows the listed one to read the answer. */
  async function admitOrigin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const origin = request.headers.origin
    if (origin === undefined) return
    const listed = await trackingOriginsOf(accountOf(request).id)
    if (!listed.includes(origin)) throw new ForbiddenError(`The origin ${origin} may not call the tracking API: list it in the workspace's tracking origins.`)
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
  }

  for (const path of TRACKING_PATHS) {
    app.options(path, { schema: { hide: true } }, async (request, reply) => {
      const origin = request.headers.origin
      if (origin !== undefined) {
        reply.headers({
          'access-control-allow-origin': origin,
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': '600',
          vary: 'Origin',
        })
      }
      return reply.code(204).send()
    })
  }

  app.delete('/api/customer/:id/delete', {
    schema: {
      tags,
      summary: 'Delete a customer (your site\'s id): their name, e-mail and id, and their leads; their sales stay, anonymous. Audited.',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'the customer\'s id on your site' }) }),
      response: { 200: MessageResponse, ...errorResponses },
    },
  }, async (request) => {
    await conversions.deleteCustomer(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Customer has been deleted.' }
  })

  app.post('/api/track/lead', {
    schema: {
      tags,
      summary: 'Record a lead: your customer tied to the click that brought them (201; 200 with the existing lead for the same customer and event)',
      description: 'A key limited to `track` (a publishable key) may call this and nothing else. `clickid` must be a click of the workspace within its attribution window.',
      headers: TrackHeaders,
      body: LeadBody,
      response: { 200: LeadResponse, 201: LeadResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    await admitOrigin(request, reply)
    const answer = await conversions.recordLead(accountOf(request).id, request.body, request.headers['idempotency-key'], toLeadRecord)
    return reply.code(answer.status).send({ error: 0 as const, data: answer.body })
  })

  app.post('/api/track/sale', {
    schema: {
      tags,
      summary: 'Record a sale attributed to the customer\'s lead or a click id (201; 200 with the existing sale for the same invoiceid)',
      description: 'Give `customerid` (a customer of a lead) or `clickid`. `amount` is in minor units of `currency` (ISO 4217).',
      headers: TrackHeaders,
      body: SaleBody,
      response: { 200: SaleResponse, 201: SaleResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    await admitOrigin(request, reply)
    const answer = await conversions.recordSale(accountOf(request).id, request.body, request.headers['idempotency-key'], toSaleRecord)
    return reply.code(answer.status).send({ error: 0 as const, data: answer.body })
  })
}
