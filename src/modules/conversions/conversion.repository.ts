// SQL of conversions (issue 39, ADR 034): the site's customers, their leads and sales, and the
// answers given to tracking requests with an Idempotency-Key. The one writer of those tables; it
// reads a click by its click id (the click store writes clicks). Every method takes the account id.
import type { DB } from '../../db/database.js'
import type { CustomersTable, LeadsTable, SalesTable } from '../../db/schema.js'
import type { Selectable } from 'kysely'
import { fetchPage } from '../../db/paging.js'
import type { Page, PageRequest } from '../../core/paging.js'

export type CustomerRow = Selectable<CustomersTable>
export type LeadRow = Selectable<LeadsTable>
export type SaleRow = Selectable<SalesTable>

/** A recorded lead with its customer. */
export interface RecordedLead {
  lead: LeadRow
  customer: CustomerRow
}

/** A tracked click as a lead or sale finds it. */
export interface TrackedClick {
  clickId: string
  linkId: number
  /** `YYYY-MM-DD HH:MM:SS`, UTC */
  createdAt: string
}

export interface NewSale {
  customerId: number | null
  clickId: string | null
  linkId: number | null
  amount: number
  currency: string
  invoiceId: string
  event: string
  metadata: string | null
  source: 'api' | 'stripe'
  clickedAt: string | null
  createdAt: string
}

/** A lead or sale of a list, with its link's address parts and its customer (null: deleted). */
export interface ListedConversion {
  id: number
  event: string
  clickId: string | null
  clickedAt: string | null
  createdAt: string
  link: { id: number; alias: string | null; domainOrigin: string | null } | null
  customer: { externalId: string; name: string | null; email: string | null } | null
  sale?: { amount: number; currency: string; invoiceId: string; source: string }
}

/** What a list of leads or sales may be narrowed to: one link, stored timestamps (both ends included). */
export interface ConversionListFilters {
  linkId?: number
  from?: string
  to?: string
}

export function createConversionRepository(db: DB) {
  /** One page of the workspace's leads or sales (of one link, between two times, when given), newest first: one count, one page. */
  async function pageOf(table: 'leads' | 'sales', accountId: number, page: PageRequest, only: ConversionListFilters = {}): Promise<Page<ListedConversion>> {
    const { linkId, from, to } = only
    let filtered = db.selectFrom(table)
      .leftJoin('links', (join) => join.onRef('links.id', '=', `${table}.link_id`).on('links.account_id', '=', accountId))
      .leftJoin('domains', 'domains.id', 'links.domain_id')
      .leftJoin('customers', 'customers.id', `${table}.customer_id`)
      .where(`${table}.account_id`, '=', accountId)
    if (linkId !== undefined) filtered = filtered.where(`${table}.link_id`, '=', linkId)
    if (from !== undefined) filtered = filtered.where(`${table}.created_at`, '>=', from)
    if (to !== undefined) filtered = filtered.where(`${table}.created_at`, '<=', to)
    const found = await fetchPage(filtered, page, (query) => query
      .select([
        `${table}.id as id`, `${table}.event as event`, `${table}.click_id as click_id`, `${table}.clicked_at as clicked_at`, `${table}.created_at as created_at`, `${table}.link_id as link_id`,
        'links.alias as alias', 'domains.domain as domain_origin', 'customers.external_id as external_id', 'customers.name as customer_name', 'customers.email as customer_email',
      ])
      // sales_account_created / leads_account_created: newest first without sorting the table.
      .orderBy(`${table}.created_at`, 'desc')
      .orderBy(`${table}.id`, 'desc'))
    const amounts = table === 'sales' && found.rows.length > 0
      ? new Map((await db.selectFrom('sales').select(['id', 'amount', 'currency', 'invoice_id', 'source']).where('account_id', '=', accountId).where('id', 'in', found.rows.map((row) => row.id)).execute()).map((row) => [row.id, row]))
      : undefined
    return {
      total: found.total,
      rows: found.rows.map((row) => {
        const sale = amounts?.get(row.id)
        return {
          id: row.id,
          event: row.event,
          clickId: row.click_id,
          clickedAt: row.clicked_at,
          createdAt: row.created_at,
          link: row.link_id === null ? null : { id: row.link_id, alias: row.alias, domainOrigin: row.domain_origin },
          customer: row.external_id === null ? null : { externalId: row.external_id, name: row.customer_name, email: row.customer_email },
          ...(sale ? { sale: { amount: Number(sale.amount), currency: sale.currency, invoiceId: sale.invoice_id, source: sale.source } } : {}),
        }
      }),
    }
  }

  return {
    /** The workspace's leads, newest first (of one link, between two times, when given). */
    listLeads: (accountId: number, page: PageRequest, only?: ConversionListFilters) => pageOf('leads', accountId, page, only),
    /** The workspace's sales (refunds too), newest first (of one link, between two times, when given). */
    listSales: (accountId: number, page: PageRequest, only?: ConversionListFilters) => pageOf('sales', accountId, page, only),

    /** The link click of the workspace with this click id (the clicks' click_id index). */
    async findTrackedClick(accountId: number, clickId: string): Promise<TrackedClick | undefined> {
      const row = await db
        .selectFrom('clicks')
        .select(['item_id', 'created_at'])
        .where('click_id', '=', clickId)
        .where('account_id', '=', accountId)
        .where('item_type', '=', 'link')
        .executeTakeFirst()
      return row && { clickId, linkId: row.item_id, createdAt: row.created_at }
    },

    async findCustomer(accountId: number, externalId: string): Promise<CustomerRow | undefined> {
      return db.selectFrom('customers').selectAll().where('account_id', '=', accountId).where('external_id', '=', externalId).executeTakeFirst()
    },

    async findCustomerById(accountId: number, id: number): Promise<CustomerRow | undefined> {
      return db.selectFrom('customers').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
    },

    /** The customer by the site's id, made (or its name and e-mail updated where given) in the caller's transaction. */
    async saveCustomer(accountId: number, customer: { externalId: string; name: string | null; email: string | null }, now: string): Promise<CustomerRow> {
      const found = await this.findCustomer(accountId, customer.externalId)
      if (!found) {
        return db
          .insertInto('customers')
          .values({ account_id: accountId, external_id: customer.externalId, name: customer.name, email: customer.email, created_at: now })
          .returningAll()
          .executeTakeFirstOrThrow()
      }
      const changes: { name?: string; email?: string } = {}
      if (customer.name !== null && customer.name !== found.name) changes.name = customer.name
      if (customer.email !== null && customer.email !== found.email) changes.email = customer.email
      if (Object.keys(changes).length === 0) return found
      await db.updateTable('customers').set(changes).where('id', '=', found.id).where('account_id', '=', accountId).execute()
      return { ...found, ...changes }
    },

    /** Removes a customer's personal fields (name, e-mail, the site's id): their leads go, their sales stay, anonymous. */
    async deleteCustomer(accountId: number, id: number): Promise<boolean> {
      await db.updateTable('sales').set({ customer_id: null }).where('account_id', '=', accountId).where('customer_id', '=', id).execute()
      await db.deleteFrom('leads').where('account_id', '=', accountId).where('customer_id', '=', id).execute()
      const result = await db.deleteFrom('customers').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    async findLead(accountId: number, customerId: number, event: string): Promise<LeadRow | undefined> {
      return db.selectFrom('leads').selectAll().where('account_id', '=', accountId).where('customer_id', '=', customerId).where('event', '=', event).executeTakeFirst()
    },

    /** The customer's latest lead: the click a sale of theirs is attributed to. */
    async latestLeadOf(accountId: number, customerId: number): Promise<LeadRow | undefined> {
      return db.selectFrom('leads').selectAll().where('account_id', '=', accountId).where('customer_id', '=', customerId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst()
    },

    async insertLead(accountId: number, lead: Omit<LeadRow, 'id' | 'account_id'>): Promise<LeadRow> {
      return db.insertInto('leads').values({ ...lead, account_id: accountId }).returningAll().executeTakeFirstOrThrow()
    },

    async findSale(accountId: number, invoiceId: string): Promise<SaleRow | undefined> {
      return db.selectFrom('sales').selectAll().where('account_id', '=', accountId).where('invoice_id', '=', invoiceId).executeTakeFirst()
    },

    async insertSale(accountId: number, sale: NewSale): Promise<SaleRow> {
      return db
        .insertInto('sales')
        .values({
          account_id: accountId,
          customer_id: sale.customerId,
          click_id: sale.clickId,
          link_id: sale.linkId,
          amount: sale.amount,
          currency: sale.currency,
          invoice_id: sale.invoiceId,
          event: sale.event,
          metadata: sale.metadata,
          source: sale.source,
          clicked_at: sale.clickedAt,
          created_at: sale.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** The answer stored for an Idempotency-Key, if any. */
    async findTrackingAnswer(accountId: number, key: string): Promise<{ endpoint: string; status: number; response: string } | undefined> {
      return db.selectFrom('tracking_requests').select(['endpoint', 'status', 'response']).where('account_id', '=', accountId).where('idempotency_key', '=', key).executeTakeFirst()
    },

    async saveTrackingAnswer(accountId: number, key: string, answer: { endpoint: string; status: number; response: string }, now: string): Promise<void> {
      await db.insertInto('tracking_requests').values({ account_id: accountId, idempotency_key: key, ...answer, created_at: now }).execute()
    },
  }
}

export type ConversionRepository = ReturnType<typeof createConversionRepository>
