// Request and response schemas of the tracking API (issue 39, ADR 034): POST /api/track/lead and /api/track/sale.
import { Type, type Static } from 'typebox'
import { DateTime, MAX_ID, PageQuery, TimeBound, listResponse } from '../../core/schemas.js'
import { MAX_AMOUNT } from './conversion-input.js'

const Event = Type.String({ minLength: 1, maxLength: 100, description: 'the kind of conversion (`signup`, `trial`, `purchase`)', errorMessage: 'must be text of 1 to 100 characters' })
const Metadata = Type.Record(Type.String(), Type.Unknown(), { description: 'anything of yours to keep with it (a JSON object of at most 4 kB)', errorMessage: 'must be a JSON object' })
const ClickIdField = Type.String({ minLength: 1, maxLength: 100, description: 'the click id the destination got (`lw_id`; `linkwell.clickId()` on the page)', errorMessage: 'must be a click id' })
const CustomerId = Type.String({ minLength: 1, maxLength: 200, description: 'the customer\'s id on your site', errorMessage: 'must be text of 1 to 200 characters' })

export const TrackHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'a key of yours: a request repeated with it gets the first one\'s answer, and is recorded once', errorMessage: 'must be text of 1 to 200 characters' })),
})

export const LeadBody = Type.Object({
  clickid: ClickIdField,
  customer: Type.Object({
    id: CustomerId,
    name: Type.Optional(Type.String({ maxLength: 200, errorMessage: 'must be text of at most 200 characters' })),
    email: Type.Optional(Type.String({ maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$', errorMessage: 'must be an e-mail address' })),
  }, { additionalProperties: false, errorMessage: 'must be an object with id, and name and email if you like' }),
  event: Type.Optional(Event),
  metadata: Type.Optional(Metadata),
}, { additionalProperties: false })
export type LeadBody = Static<typeof LeadBody>

export const SaleBody = Type.Object({
  customerid: Type.Optional(CustomerId),
  clickid: Type.Optional(ClickIdField),
  amount: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description: 'in minor units of the currency (cents: 4900 is 49.00 EUR)', errorMessage: `must be a whole number of minor units (cents) from 0 to ${MAX_AMOUNT}` }),
  currency: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217 code (`EUR`)', errorMessage: 'must be an ISO 4217 currency code such as EUR or USD' }),
  invoiceid: Type.String({ minLength: 1, maxLength: 200, description: 'your invoice\'s id: the same invoice is recorded once', errorMessage: 'must be text of 1 to 200 characters' }),
  event: Type.Optional(Event),
  metadata: Type.Optional(Metadata),
}, { additionalProperties: false })
export type SaleBody = Static<typeof SaleBody>

const Customer = Type.Object({
  id: Type.String({ description: 'the customer\'s id on your site' }),
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()], { description: 'null when not given or when the workspace keeps no e-mail addresses' }),
})

export const Lead = Type.Object({
  id: Type.Integer(),
  event: Type.String(),
  clickid: Type.String(),
  link: Type.Integer({ description: 'the id of the link clicked' }),
  customer: Customer,
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  clickedat: DateTime,
  date: DateTime,
})

export const Sale = Type.Object({
  id: Type.Integer(),
  event: Type.String(),
  amount: Type.Integer({ description: 'minor units; negative for a refund' }),
  currency: Type.String(),
  invoiceid: Type.String(),
  customerid: Type.Union([Type.String(), Type.Null()], { description: 'the customer\'s id on your site; null when not known or deleted' }),
  clickid: Type.Union([Type.String(), Type.Null()]),
  link: Type.Union([Type.Integer(), Type.Null()], { description: 'the id of the link the sale is attributed to; null when none' }),
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  source: Type.String({ description: '`api` or `stripe`' }),
  date: DateTime,
})

export const LeadResponse = Type.Object({ error: Type.Literal(0), data: Lead })
export const SaleResponse = Type.Object({ error: Type.Literal(0), data: Sale })

/** GET /api/conversions/leads|sales: pages, optionally of one link. */
export const ConversionListQuery = Type.Object({
  ...PageQuery.properties,
  link: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'only the conversions attributed to this link', errorMessage: 'must be a link id (a positive whole number)' })),
  from: Type.Optional(TimeBound('first second')),
  to: Type.Optional(TimeBound('last second')),
})
export type ConversionListQuery = Static<typeof ConversionListQuery>

const ListedFields = {
  id: Type.Integer(),
  event: Type.String(),
  date: DateTime,
  clickid: Type.Union([Type.String(), Type.Null()], { description: 'the click it is attributed to; null for a sale of no known click' }),
  clickedat: Type.Union([DateTime, Type.Null()]),
  link: Type.Union([Type.Object({
    id: Type.Integer(),
    shorturl: Type.Union([Type.String(), Type.Null()], { description: 'null once the link is deleted' }),
  }), Type.Null()], { description: 'the link clicked; null for a sale of no known click' }),
  customer: Type.Union([Type.Object({
    id: Type.String({ description: 'the customer\'s id on your site' }),
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Optional(Type.String({ description: 'only when stored, while the workspace keeps e-mail addresses, and to its admins and owners (personal data, as the conversions export)' })),
  }), Type.Null()], { description: 'null once the customer is deleted (or for a sale of no known customer)' }),
}

export const ListedLead = Type.Object(ListedFields)
export const ListedSale = Type.Object({
  ...ListedFields,
  amount: Type.Integer({ description: 'minor units; negative for a refund' }),
  currency: Type.String(),
  invoiceid: Type.String(),
  source: Type.String({ description: '`api` or `stripe`' }),
})
export const LeadListResponse = listResponse('leads', ListedLead)
export const SaleListResponse = listResponse('sales', ListedSale)
