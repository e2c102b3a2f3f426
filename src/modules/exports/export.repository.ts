// What an export reads: an account's links in id order and its raw clicks in time order, one page
// after another (keyset paging: each page starts after the last row of the one before, so a page
// costs the same at the millionth row as at the first, and no row is read twice).
import { sql, type ExpressionBuilder } from 'kysely'
import type { DB } from '../../db/database.js'
import type { Database } from '../../db/schema.js'
import { orderedIdList } from '../../db/id-lists.js'
import type { LinkWithDomain } from '../links/link.repository.js'
import { createTagRepository } from '../tags/tag.repository.js'

export interface ExportedLinkRow extends LinkWithDomain {
  /** The link's pixel ids, in order (JSON text of a list, or null). */
  pixel_list: string | null
  campaign_name: string | null
  /** The name of the channel the link joined first (a link in several channels exports that one). */
  channel_name: string | null
  /** The link's tags' names, by name. */
  tag_names: string[]
}

export interface ExportedClickRow {
  id: number
  created_at: string
  item_type: string
  item_id: number
  country: string | null
  referrer_host: string | null
  browser: string | null
  os: string | null
  device: string | null
  language: string | null
  is_unique: number
}

/** A lead or a sale as a conversions export reads it (issue 39): the click's link, its campaign and channel, the customer. */
export interface ExportedConversionRow {
  id: number
  created_at: string
  event: string
  click_id: string | null
  link_id: number | null
  clicked_at: string | null
  metadata: string | null
  /** A sale's; null for a lead. */
  amount: number | null
  currency: string | null
  invoice_id: string | null
  source: string | null
  /** The site's own customer id, name and e-mail (null once the customer is deleted). */
  customer_external_id: string | null
  customer_name: string | null
  customer_email: string | null
  /** The workspace's `customeremails` now: 0, the e-mail addresses are left out. */
  customer_emails: number
  link_alias: string | null
  campaign_id: number | null
  campaign_name: string | null
  channel_name: string | null
}

/** Where a conversions page starts: after this row (time, then id), in [from, to]. */
interface ConversionPage {
  range: { from: string; to: string }
  after: { at: string; id: number } | undefined
  limit: number
}

/**
 * Rows of [from, to] after `after` in (time, id) order: the keyset of an export's pages. The lower
 * bound starts the index seek at the page's first row; the `or` keeps rows of that same second.
 */
function inRangeAfter(time: string, id: string, { range, after }: Omit<ConversionPage, 'limit'>) {
  return (eb: ExpressionBuilder<any, any>) => {
    const bounds = [eb(time, '>=', after && after.at > range.from ? after.at : range.from), eb(time, '<=', range.to)]
    return eb.and(after ? [...bounds, eb.or([eb(time, '>', after.at), eb(id, '>', after.id)])] : bounds)
  }
}

// What a lead's and a sale's lines say of their customer and link.
const CUSTOMER_COLUMNS = ['customers.external_id as customer_external_id', 'customers.name as customer_name', 'customers.email as customer_email', 'accounts.customer_emails'] as const
const LINK_COLUMNS = ['links.alias as link_alias', 'links.campaign_id', 'campaigns.name as campaign_name'] as const

export function createExportRepository(db: DB) {
  /** The name of the channel a link joined first, as a subquery of a row with `links.id`. */
  const channelNameOfLink = (eb: ExpressionBuilder<Database, 'links'>) => eb.selectFrom('channel_items').innerJoin('channels', 'channels.id', 'channel_items.channel_id').select('channels.name')
    .where('channel_items.item_type', '=', 'links').whereRef('channel_items.item_id', '=', 'links.id').orderBy('channel_items.id').limit(1)

  return {
    /** Up to `limit` of the account's links with ids above `afterId`, lowest first. */
    async linksAfter(accountId: number, afterId: number, limit: number): Promise<ExportedLinkRow[]> {
      const rows = await db
        .selectFrom('links')
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .leftJoin('campaigns', 'campaigns.id', 'links.campaign_id')
        .selectAll('links')
        .select(['domains.domain as domain_origin', 'campaigns.name as campaign_name'])
        .select((eb) => channelNameOfLink(eb).as('channel_name'))
        .select((eb) => eb.selectFrom('link_pixels').select(orderedIdList(db, 'link_pixels.pixel_id').as('ids')).whereRef('link_pixels.link_id', '=', 'links.id').as('pixel_list'))
        .where('links.account_id', '=', accountId)
        .where('links.id', '>', afterId)
        .orderBy('links.id')
        .limit(limit)
        .execute()
      // The page's tags in one query more (names may hold any printable character: no aggregate text to split).
      const tagsOf = await createTagRepository(db).namesOf('link', rows.map((row) => row.id))
      return rows.map((row) => ({ ...row, tag_names: tagsOf.get(row.id) ?? [] }))
    },

    /**
     * Up to `limit` of the account's raw clicks recorded in [from, to] after the click `after`,
     * oldest first (time, then id). Ordered by the account's time index (clicks_account_created_idx, migration 029), each page a seek
     * to its first row: ordering by id instead made every page sort the whole range again.
     */
    clicksAfter(accountId: number, range: { from: string; to: string }, after: { at: string; id: number } | undefined, limit: number): Promise<ExportedClickRow[]> {
      return db
        .selectFrom('clicks')
        .select(['id', 'created_at', 'item_type', 'item_id', 'country', 'referrer_host', 'browser', 'os', 'device', 'language', 'is_unique'])
        .where('account_id', '=', accountId)
        .where(inRangeAfter('created_at', 'id', { range, after }))
        .orderBy('created_at').orderBy('id').limit(limit).execute()
    },

    /** Up to `limit` of the account's leads created in the range after `after`, oldest first (time, then id; index leads_account_created). */
    leadsAfter(accountId: number, { range, after, limit }: ConversionPage): Promise<ExportedConversionRow[]> {
      const query = db
        .selectFrom('leads')
        .innerJoin('accounts', 'accounts.id', 'leads.account_id')
        .innerJoin('customers', 'customers.id', 'leads.customer_id')
        .leftJoin('links', (join) => join.onRef('links.id', '=', 'leads.link_id').on('links.account_id', '=', accountId))
        .leftJoin('campaigns', 'campaigns.id', 'links.campaign_id')
        .select(['leads.id', 'leads.created_at', 'leads.event', 'leads.click_id', 'leads.link_id', 'leads.clicked_at', 'leads.metadata'])
        .select([sql<number | null>`null`.as('amount'), sql<string | null>`null`.as('currency'), sql<string | null>`null`.as('invoice_id'), sql<string | null>`null`.as('source')])
        .select(CUSTOMER_COLUMNS)
        .select(LINK_COLUMNS)
        .select((eb) => channelNameOfLink(eb).as('channel_name'))
        .where('leads.account_id', '=', accountId)
        .where(inRangeAfter('leads.created_at', 'leads.id', { range, after }))
      return query.orderBy('leads.created_at').orderBy('leads.id').limit(limit).execute()
    },

    /** Up to `limit` of the account's sales (refunds negative) created in the range after `after`, oldest first (index sales_account_created). */
    async salesAfter(accountId: number, { range, after, limit }: ConversionPage): Promise<ExportedConversionRow[]> {
      const query = db
        .selectFrom('sales')
        .innerJoin('accounts', 'accounts.id', 'sales.account_id')
        .leftJoin('customers', 'customers.id', 'sales.customer_id')
        .leftJoin('links', (join) => join.onRef('links.id', '=', 'sales.link_id').on('links.account_id', '=', accountId))
        .leftJoin('campaigns', 'campaigns.id', 'links.campaign_id')
        .select(['sales.id', 'sales.created_at', 'sales.event', 'sales.click_id', 'sales.link_id', 'sales.clicked_at', 'sales.metadata', 'sales.amount', 'sales.currency', 'sales.invoice_id', 'sales.source'])
        .select(CUSTOMER_COLUMNS)
        .select(LINK_COLUMNS)
        .select((eb) => channelNameOfLink(eb).as('channel_name'))
        .where('sales.account_id', '=', accountId)
        .where(inRangeAfter('sales.created_at', 'sales.id', { range, after }))
      const rows = await query.orderBy('sales.created_at').orderBy('sales.id').limit(limit).execute()
      // PostgreSQL may answer integer columns as text through some drivers: amounts are numbers.
      return rows.map((row) => ({ ...row, amount: Number(row.amount) }))
    },
  }
}

export type ExportRepository = ReturnType<typeof createExportRepository>
