// Leads and sales (issue 39, ADR 034): a lead ties the site's customer to the click that brought
// them (found by its click id, within the workspace's attribution window); a sale is attributed to
// the customer's latest lead, or to a click id given. Each is written whole in one transaction
// with, when the request had an Idempotency-Key, the answer a repeat gets. A lead repeats per
// customer and event, a sale per invoice id: the existing one is answered (200), never a second row.
import { NotFoundError, ValidationError } from '../../core/errors.js'
import type { ChangeJournal } from '../changes/change-journal.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { isClickIdShape } from '../../core/click-ids.js'
import { nowTimestamp, readTimeRange } from '../../core/time.js'
import { isUniqueViolation } from '../../db/errors.js'
import { inTransaction } from '../../db/transactions.js'
import type { DB } from '../../db/database.js'
import type { Bindable } from '../../db/transactions.js'
import type { ConversionSettings } from '../accounts/account.repository.js'
import { toLeadRecord, toSaleRecord } from './conversion.mapper.js'
import { checkAmount, checkCurrency, DEFAULT_LEAD_EVENT, DEFAULT_SALE_EVENT, metadataText } from './conversion-input.js'
import type { ConversionRepository, ListedConversion, NewSale, RecordedLead, SaleRow, TrackedClick, CustomerRow } from './conversion.repository.js'
import type { Page, PageRequest } from '../../core/paging.js'
import type { ConversionListQuery } from './conversion.schemas.js'

export interface LeadInput {
  clickid: string
  customer: { id: string; name?: string; email?: string }
  event?: string
  metadata?: Record<string, unknown>
}

export interface SaleInput {
  customerid?: string
  clickid?: string
  amount: number
  currency: string
  invoiceid: string
  event?: string
  metadata?: Record<string, unknown>
}

export type { RecordedLead } from './conversion.repository.js'

/** What a tracking request is answered: 201 for a new record, 200 for the one already there. */
export interface TrackingAnswer<T> {
  status: 200 | 201
  body: T
}

export interface ConversionServiceOptions {
  db: DB
  conversions: Bindable<ConversionRepository>
  /** The workspace's attribution window and whether e-mail addresses are kept (accounts module). */
  settingsOf(accountId: number): Promise<(ConversionSettings & { customerEmails: boolean }) | undefined>
  /** Writes the clicks still queued in this process (a click id may be seconds old: ADR 004). */
  flushClicks(): Promise<void>
  /** Writes `lead.created` and `sale.created` to the outbox in the write's transaction (webhooks, NATS: ADR 018). */
  events?: { write(trx: DB, events: readonly { accountId: number; type: 'lead.created' | 'sale.created'; data: unknown }[]): Promise<unknown> }
  /** Records a customer's deletion in the audit log (the change journal). */
  journal: Pick<ChangeJournal, 'write'>
  /** The clock (tests). */
  now?: () => Date
}

const DAY_MS = 86_400_000

export function createConversionService(options: ConversionServiceOptions) {
  const { conversions } = options
  const now = options.now ?? (() => new Date())

  async function settingsOrThrow(accountId: number) {
    const settings = await options.settingsOf(accountId)
    if (!settings) throw new ValidationError('This workspace no longer exists.')
    return settings
  }

  /** The click of `clickId` within the attribution window; a 400 naming `field` otherwise. */
  async function attributedClick(accountId: number, clickId: string, attributionDays: number, field = 'clickid'): Promise<TrackedClick> {
    if (!isClickIdShape(clickId)) throw ValidationError.field(field, 'is not a click id of this workspace')
    let click = await conversions.findTrackedClick(accountId, clickId)
    if (!click) {
      // A click is written off the response path, a second or so after it: the queue is written first.
      await options.flushClicks()
      click = await conversions.findTrackedClick(accountId, clickId)
    }
    if (!click) throw ValidationError.field(field, 'is not a click id of this workspace')
    const windowStart = nowTimestamp(new Date(now().getTime() - attributionDays * DAY_MS))
    if (click.createdAt < windowStart) throw ValidationError.field(field, `is older than the workspace's attribution window (${attributionDays} days)`)
    return click
  }

  /** Runs `work` once per Idempotency-Key: a repeat of the key gets the answer stored with the first. */
  async function storedAnswer<T>(accountId: number, endpoint: string, key: string | undefined): Promise<TrackingAnswer<T> | undefined> {
    const stored = key === undefined ? undefined : await conversions.findTrackingAnswer(accountId, key)
    return stored && answerOf<T>(stored, endpoint)
  }

  /**
   * Runs `work` in a transaction with the answer stored under the Idempotency-Key. Nothing in
   * `work` may wait for other writes (SQLite's one connection): clicks are looked up before it.
   */
  async function once<T>(accountId: number, endpoint: string, key: string | undefined, work: (trx: DB) => Promise<TrackingAnswer<T>>): Promise<TrackingAnswer<T>> {
    try {
      return await inTransaction(options.db, async (trx) => {
        const answer = await work(trx)
        if (key !== undefined) {
          await conversions.in(trx).saveTrackingAnswer(accountId, key, { endpoint, status: answer.status, response: JSON.stringify(answer.body) }, nowTimestamp(now()))
        }
        return answer
      })
    } catch (error) {
      // Another request with the same key, customer and event, or invoice was written first.
      if (!isUniqueViolation(error)) throw error
      const stored = await storedAnswer<T>(accountId, endpoint, key)
      if (stored) return stored
      return work(options.db).then((answer) => ({ ...answer, status: 200 as const }))
    }
  }

  async function customerOf(accountId: number, sale: SaleRow, trx: DB = options.db): Promise<CustomerRow | null> {
    return sale.customer_id === null ? null : (await conversions.in(trx).findCustomerById(accountId, sale.customer_id)) ?? null
  }

  function answerOf<T>(stored: { endpoint: string; status: number; response: string }, endpoint: string): TrackingAnswer<T> {
    if (stored.endpoint !== endpoint) throw ValidationError.field('Idempotency-Key', `was used for ${stored.endpoint}; use a new key for each request`)
    return { status: stored.status === 201 ? 201 : 200, body: JSON.parse(stored.response) as T }
  }

  /** A page of leads or sales, their customers' e-mail addresses left out while the workspace keeps none. */
  async function listed(accountId: number, kind: 'leads' | 'sales', page: PageRequest, query: ConversionListQuery): Promise<Page<ListedConversion>> {
    const only = { linkId: query.link, ...readTimeRange(query) }
    const settings = await settingsOrThrow(accountId)
    const found = kind === 'leads' ? await conversions.listLeads(accountId, page, only) : await conversions.listSales(accountId, page, only)
    if (settings.customerEmails) return found
    return { ...found, rows: found.rows.map((row) => ({ ...row, customer: row.customer && { ...row.customer, email: null } })) }
  }

  return {
    /** The workspace's latest leads, newest first (of one link, from and to a time, when given: `link`, `from`, `to`). */
    listLeads: (accountId: number, page: PageRequest, query: ConversionListQuery = {}) => listed(accountId, 'leads', page, query),
    /** The workspace's latest sales and refunds, newest first (of one link, from and to a time, when given). */
    listSales: (accountId: number, page: PageRequest, query: ConversionListQuery = {}) => listed(accountId, 'sales', page, query),

    /** Records a lead (201), or answers the customer's lead of the same event (200). */
    async recordLead<T>(accountId: number, input: LeadInput, idempotencyKey: string | undefined, present: (lead: RecordedLead) => T): Promise<TrackingAnswer<T>> {
      const settings = await settingsOrThrow(accountId)
      const event = input.event?.trim() || DEFAULT_LEAD_EVENT
      const metadata = metadataText(input.metadata)
      const externalId = input.customer.id.trim()
      if (externalId === '') throw ValidationError.field('customer.id', 'must be the customer\'s id on your site (not empty)')
      const customer = {
        externalId,
        name: input.customer.name?.trim() || null,
        email: settings.customerEmails ? input.customer.email?.trim().toLowerCase() || null : null,
      }
      const endpoint = 'POST /api/track/lead'
      const stored = await storedAnswer<T>(accountId, endpoint, idempotencyKey)
      if (stored) return stored
      const known = await conversions.findCustomer(accountId, externalId)
      const repeated = known && (await conversions.findLead(accountId, known.id, event))
      if (known && repeated) return { status: 200, body: present({ lead: repeated, customer: known }) }
      // Checked only for a new lead: a repeat is answered even after its click left the window.
      const click = await attributedClick(accountId, input.clickid.trim(), settings.attributionDays)
      return once(accountId, endpoint, idempotencyKey, async (trx) => {
        const saved = conversions.in(trx)
        const found = await saved.findCustomer(accountId, externalId)
        const existing = found && (await saved.findLead(accountId, found.id, event))
        if (found && existing) return { status: 200, body: present({ lead: existing, customer: found }) }
        const stamp = nowTimestamp(now())
        const savedCustomer = await saved.saveCustomer(accountId, customer, stamp)
        const lead = await saved.insertLead(accountId, {
          customer_id: savedCustomer.id, click_id: click.clickId, link_id: click.linkId, event, metadata, clicked_at: click.createdAt, created_at: stamp,
        })
        await options.events?.write(trx, [{ accountId, type: 'lead.created', data: toLeadRecord({ lead, customer: savedCustomer }) }])
        return { status: 201, body: present({ lead, customer: savedCustomer }) }
      })
    },

    /** Records a sale of the tracking API (201), or answers the sale of the same invoice id (200). */
    async recordSale<T>(accountId: number, input: SaleInput, idempotencyKey: string | undefined, present: (sale: SaleRow, customer: CustomerRow | null) => T): Promise<TrackingAnswer<T>> {
      const settings = await settingsOrThrow(accountId)
      const invoiceId = input.invoiceid.trim()
      if (invoiceId === '') throw ValidationError.field('invoiceid', 'must be your invoice\'s id (not empty)')
      const amount = checkAmount(input.amount)
      const currency = checkCurrency(input.currency)
      const metadata = metadataText(input.metadata)
      const event = input.event?.trim() || DEFAULT_SALE_EVENT
      if (input.customerid === undefined && input.clickid === undefined) throw ValidationError.field('customerid', 'or clickid must be given: whose sale this is')
      const endpoint = 'POST /api/track/sale'
      const stored = await storedAnswer<T>(accountId, endpoint, idempotencyKey)
      if (stored) return stored
      const repeated = await conversions.findSale(accountId, invoiceId)
      if (repeated) return { status: 200, body: present(repeated, await customerOf(accountId, repeated)) }
      const attribution = await this.attributionOf(accountId, input, settings.attributionDays)
      return once(accountId, endpoint, idempotencyKey, async (trx) => {
        const saved = conversions.in(trx)
        const existing = await saved.findSale(accountId, invoiceId)
        if (existing) return { status: 200, body: present(existing, await customerOf(accountId, existing, trx)) }
        const sale = await saved.insertSale(accountId, { ...attribution, amount, currency, invoiceId, event, metadata, source: 'api', createdAt: nowTimestamp(now()) })
        const customer = await customerOf(accountId, sale, trx)
        await options.events?.write(trx, [{ accountId, type: 'sale.created', data: toSaleRecord(sale, customer) }])
        return { status: 201, body: present(sale, customer) }
      })
    },

    /**
     * Deletes a customer (the site's id): their name, e-mail and id go, with their leads; their
     * sales stay, anonymous (the amounts are the workspace's revenue). Audited. 404 when unknown.
     */
    async deleteCustomer(actor: AuthenticatedAccount, externalId: string): Promise<void> {
      await options.journal.write(actor, async (trx) => {
        const saved = conversions.in(trx)
        const customer = await saved.findCustomer(actor.id, externalId)
        if (!customer) throw NotFoundError.of('Customer')
        await saved.deleteCustomer(actor.id, customer.id)
        return { result: undefined, changes: [{ action: 'customer.deleted', resource: 'customer', resourceId: customer.id, fields: [] }] }
      })
    },

    /**
     * Records a sale a payment provider reported (Stripe), once per `eventKey` (the provider's
     * event id) and per invoice id: attributed to the customer's latest lead when the customer is
     * known, else kept unattributed (a provider cannot be answered 400 for a customer we never saw).
     * A refund is a negative amount. Answers whether a sale was written.
     */
    async recordProviderSale(accountId: number, sale: { customerId: string | null; amount: number; currency: string; invoiceId: string; event: string; metadata: Record<string, unknown> | null }, eventKey: string): Promise<boolean> {
      const endpoint = 'stripe'
      if (await storedAnswer(accountId, endpoint, eventKey)) return false
      const amount = checkAmount(sale.amount, true)
      const currency = checkCurrency(sale.currency)
      if (await conversions.findSale(accountId, sale.invoiceId)) return false
      const customer = sale.customerId === null ? undefined : await conversions.findCustomer(accountId, sale.customerId)
      const lead = customer && (await conversions.latestLeadOf(accountId, customer.id))
      const answer = await once(accountId, endpoint, eventKey, async (trx) => {
        const saved = conversions.in(trx)
        if (await saved.findSale(accountId, sale.invoiceId)) return { status: 200, body: { recorded: false } }
        const written = await saved.insertSale(accountId, {
          customerId: customer?.id ?? null,
          clickId: lead?.click_id ?? null,
          linkId: lead?.link_id ?? null,
          clickedAt: lead?.clicked_at ?? null,
          amount,
          currency,
          invoiceId: sale.invoiceId,
          event: sale.event,
          metadata: metadataText(sale.metadata),
          source: 'stripe',
          createdAt: nowTimestamp(now()),
        })
        await options.events?.write(trx, [{ accountId, type: 'sale.created', data: toSaleRecord(written, customer ?? null) }])
        return { status: 201, body: { recorded: true } }
      })
      return answer.status === 201
    },

    /**
     * Whose sale it is and the click it is attributed to: the customer's latest lead's, or the
     * click id's (within the window). A 400 naming the field when neither is known.
     */
    async attributionOf(accountId: number, by: { customerid?: string; clickid?: string }, attributionDays: number): Promise<Pick<NewSale, 'customerId' | 'clickId' | 'linkId' | 'clickedAt'>> {
      const saved = conversions
      if (by.customerid !== undefined) {
        const customer = await saved.findCustomer(accountId, by.customerid.trim())
        if (!customer) throw ValidationError.field('customerid', 'is no customer of this workspace: record their lead first, or send clickid')
        const lead = await saved.latestLeadOf(accountId, customer.id)
        if (lead) return { customerId: customer.id, clickId: lead.click_id, linkId: lead.link_id, clickedAt: lead.clicked_at }
        if (by.clickid === undefined) return { customerId: customer.id, clickId: null, linkId: null, clickedAt: null }
        const click = await attributedClick(accountId, by.clickid.trim(), attributionDays)
        return { customerId: customer.id, clickId: click.clickId, linkId: click.linkId, clickedAt: click.createdAt }
      }
      const click = await attributedClick(accountId, by.clickid!.trim(), attributionDays)
      return { customerId: null, clickId: click.clickId, linkId: click.linkId, clickedAt: click.createdAt }
    },
  }
}

export type ConversionService = ReturnType<typeof createConversionService>
