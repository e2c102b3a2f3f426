// Leads and sales as the API shows them (issue 39).
import { parseMetadata } from './conversion-input.js'
import type { CustomerRow, ListedConversion, RecordedLead, SaleRow } from './conversion.repository.js'
import { shortUrl } from '../aliases/alias-namespace.js'

/** A lead or sale of GET /api/conversions/leads|sales: its link with its short URL (null once deleted), its customer. */
export function toListedConversion(row: ListedConversion, publicUrl: string) {
  return {
    id: row.id,
    event: row.event,
    date: row.createdAt,
    clickid: row.clickId,
    clickedat: row.clickedAt,
    link: row.link && { id: row.link.id, shorturl: row.link.alias === null ? null : shortUrl(publicUrl, row.link.domainOrigin, row.link.alias) },
    customer: row.customer && { id: row.customer.externalId, name: row.customer.name, ...(row.customer.email === null ? {} : { email: row.customer.email }) },
    ...(row.sale ? { amount: row.sale.amount, currency: row.sale.currency, invoiceid: row.sale.invoiceId, source: row.sale.source } : {}),
  }
}

export function toLeadRecord({ lead, customer }: RecordedLead) {
  return {
    id: lead.id,
    event: lead.event,
    clickid: lead.click_id,
    link: lead.link_id,
    customer: { id: customer.external_id, name: customer.name, email: customer.email },
    metadata: parseMetadata(lead.metadata),
    clickedat: lead.clicked_at,
    date: lead.created_at,
  }
}

export function toSaleRecord(sale: SaleRow, customer: Pick<CustomerRow, 'external_id'> | null) {
  return {
    id: sale.id,
    event: sale.event,
    amount: Number(sale.amount),
    currency: sale.currency,
    invoiceid: sale.invoice_id,
    customerid: customer?.external_id ?? null,
    clickid: sale.click_id,
    link: sale.link_id,
    metadata: parseMetadata(sale.metadata),
    source: sale.source,
    date: sale.created_at,
  }
}
