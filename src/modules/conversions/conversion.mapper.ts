// Leads and sales as the API shows them (issue 39).
import { parseMetadata } from './conversion-input.js'
import type { CustomerRow, RecordedLead, SaleRow } from './conversion.repository.js'

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
