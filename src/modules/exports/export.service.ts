// Everything out again (issue 21): an account's links with every field the API shows, and its raw
// clicks with their enriched fields, as lines of CSV, JSON or NDJSON produced a page at a time, so
// an export of millions of rows keeps memory flat whoever reads it (an HTTP answer, a file).
import type { ExportedClickRow, ExportedConversionRow, ExportedLinkRow, ExportRepository } from './export.repository.js'
import { parseMetadata } from '../conversions/conversion-input.js'
import { toLinkDetails } from '../links/link.mapper.js'
import { enrichedFieldsOf } from '../../analytics/click-items.js'
import { csvLine } from '../../core/csv.js'
import { idsOfList } from '../../db/id-lists.js'
import { readTimeRange } from '../../core/time.js'

export const LINK_EXPORT_FORMATS = ['csv', 'json'] as const
export const CLICK_EXPORT_FORMATS = ['csv', 'ndjson'] as const
export const CONVERSION_EXPORT_FORMATS = CLICK_EXPORT_FORMATS
export type LinkExportFormat = (typeof LINK_EXPORT_FORMATS)[number]
export type ClickExportFormat = (typeof CLICK_EXPORT_FORMATS)[number]

/**
 * A link as an export writes it: every field the API's single read shows, its campaign's name and
 * its channel's (a link in several channels: the one it joined first; a split test's variants carry
 * no clicks here: those are statistics, not the link).
 */
export function toLinkExportRecord(row: ExportedLinkRow, publicUrl: string) {
  const { variants, ...details } = toLinkDetails(row, idsOfList(row.pixel_list), publicUrl, row.tag_names)
  return { ...details, campaignname: row.campaign_name, channel: row.channel_name, variants: variants && variants.map(({ url, weight }) => ({ url, weight })) }
}
export type LinkExportRecord = ReturnType<typeof toLinkExportRecord>

/** The CSV columns of a link, in order (a test checks they are every field of the record). */
export const LINK_EXPORT_COLUMNS = [
  'id', 'alias', 'shorturl', 'longurl', 'title', 'description', 'clicks', 'uniqueclicks', 'date', 'domain', 'campaign',
  'campaignname', 'channel', 'pixels', 'type', 'expiry', 'password', 'targeting', 'utm', 'clicklimit', 'expiredurl', 'ios', 'android', 'variants', 'tags', 'brokenurl', 'health',
  // Conversion tracking (issue 39): last, so that readers by position find every older column where it was.
  'trackconversions', 'passthrough',
] as const satisfies ReadonlyArray<keyof LinkExportRecord>

/** A raw click as an export writes it (no visitor hash, no address: none is stored). */
export function toClickExportRecord(row: ExportedClickRow) {
  return {
    id: row.id,
    date: row.created_at,
    item: row.item_type,
    itemid: row.item_id,
    ...enrichedFieldsOf(row),
  }
}
export type ClickExportRecord = ReturnType<typeof toClickExportRecord>
export const CLICK_EXPORT_COLUMNS = ['id', 'date', 'item', 'itemid', 'country', 'referrer', 'browser', 'os', 'device', 'language', 'unique'] as const satisfies ReadonlyArray<keyof ClickExportRecord>

/**
 * A lead or a sale as a conversions export writes it (issue 39): the link clicked with its campaign
 * and channel (null once the link is deleted: the figures stay), the amount (minor units, negative
 * for a refund) and currency of a sale, the customer (the site's id; the e-mail only while the
 * workspace keeps e-mail addresses), when the click and the conversion were.
 */
export function toConversionExportRecord(type: 'lead' | 'sale', row: ExportedConversionRow) {
  return {
    type,
    id: row.id,
    date: row.created_at,
    event: row.event,
    amount: row.amount,
    currency: row.currency,
    invoiceid: row.invoice_id,
    source: row.source,
    customerid: row.customer_external_id,
    customername: row.customer_name,
    customeremail: row.customer_emails === 1 ? row.customer_email : null,
    clickid: row.click_id,
    clickedat: row.clicked_at,
    link: row.link_id,
    alias: row.link_alias,
    campaign: row.campaign_id,
    campaignname: row.campaign_name,
    channel: row.channel_name,
    metadata: parseMetadata(row.metadata),
  }
}
export type ConversionExportRecord = ReturnType<typeof toConversionExportRecord>
export const CONVERSION_EXPORT_COLUMNS = [
  'type', 'id', 'date', 'event', 'amount', 'currency', 'invoiceid', 'source', 'customerid', 'customername', 'customeremail',
  'clickid', 'clickedat', 'link', 'alias', 'campaign', 'campaignname', 'channel', 'metadata',
] as const satisfies ReadonlyArray<keyof ConversionExportRecord>

/** Every row `page(last)` answers, each page after the last row of the one before, until one comes back short. */
async function* keysetRows<R>(pageSize: number, page: (last: R | undefined) => Promise<R[]>): AsyncGenerator<R> {
  let last: R | undefined
  for (;;) {
    const rows = await page(last)
    yield* rows
    if (rows.length < pageSize) return
    last = rows[rows.length - 1]
  }
}

export interface ExportServiceOptions {
  /** Reads the account's links and clicks, a page at a time. */
  rows: ExportRepository
  /** The base of the links' short addresses in the records. */
  publicUrl: string
  /** Rows read per query; 1,000 unless given. */
  pageSize?: number
}

export function createExportService(options: ExportServiceOptions) {
  const { rows } = options
  const pageSize = options.pageSize ?? 1_000

  async function* linkRecords(accountId: number): AsyncGenerator<LinkExportRecord> {
    for await (const row of keysetRows(pageSize, (last: ExportedLinkRow | undefined) => rows.linksAfter(accountId, last?.id ?? 0, pageSize))) yield toLinkExportRecord(row, options.publicUrl)
  }

  return {
    /** The range a clicks export covers, checked before anything is sent (a refusal is still an envelope). */
    clickRange(query: { from?: string; to?: string }): { from: string; to: string } {
      const { from, to } = readTimeRange(query)
      return { from: from ?? '0000-01-01 00:00:00', to: to ?? '9999-12-31 23:59:59' }
    },

    linkRecords,

    /** The account's links as lines: CSV with a header, or one JSON array (an element a line). */
    async *linkLines(accountId: number, format: LinkExportFormat): AsyncGenerator<string> {
      if (format === 'csv') yield csvLine(LINK_EXPORT_COLUMNS)
      else yield '['
      let first = true
      for await (const record of linkRecords(accountId)) {
        if (format === 'csv') yield csvLine(LINK_EXPORT_COLUMNS.map((column) => record[column]))
        else yield `${first ? '\n' : ',\n'}${JSON.stringify(record)}`
        first = false
      }
      if (format === 'json') yield first ? ']\n' : '\n]\n'
    },

    /** The account's raw clicks in `range` as lines: CSV with a header, or NDJSON. */
    async *clickLines(accountId: number, range: { from: string; to: string }, format: ClickExportFormat): AsyncGenerator<string> {
      if (format === 'csv') yield csvLine(CLICK_EXPORT_COLUMNS)
      for await (const row of keysetRows(pageSize, (last: ExportedClickRow | undefined) => rows.clicksAfter(accountId, range, last && { at: last.created_at, id: last.id }, pageSize))) {
        const record = toClickExportRecord(row)
        yield format === 'csv' ? csvLine(CLICK_EXPORT_COLUMNS.map((column) => record[column])) : `${JSON.stringify(record)}\n`
      }
    },

    /**
     * The account's leads and sales created in `range` as lines (CSV with a header, or NDJSON), one
     * time order: the two tables are read a page at a time each and merged (same time: leads first).
     */
    async *conversionLines(accountId: number, range: { from: string; to: string }, format: ClickExportFormat): AsyncGenerator<string> {
      if (format === 'csv') yield csvLine(CONVERSION_EXPORT_COLUMNS)
      const pageOf = (read: ExportRepository['leadsAfter']) => (last: ExportedConversionRow | undefined) => read(accountId, { range, after: last && { at: last.created_at, id: last.id }, limit: pageSize })
      const leads = keysetRows(pageSize, pageOf(rows.leadsAfter))[Symbol.asyncIterator]()
      const sales = keysetRows(pageSize, pageOf(rows.salesAfter))[Symbol.asyncIterator]()
      let lead = await leads.next()
      let sale = await sales.next()
      while (!lead.done || !sale.done) {
        let record: ConversionExportRecord
        if (!lead.done && (sale.done || lead.value.created_at <= sale.value.created_at)) {
          record = toConversionExportRecord('lead', lead.value)
          lead = await leads.next()
        } else {
          record = toConversionExportRecord('sale', (sale as IteratorYieldResult<ExportedConversionRow>).value)
          sale = await sales.next()
        }
        yield format === 'csv' ? csvLine(CONVERSION_EXPORT_COLUMNS.map((column) => record[column])) : `${JSON.stringify(record)}\n`
      }
    },
  }
}

export type ExportService = ReturnType<typeof createExportService>
