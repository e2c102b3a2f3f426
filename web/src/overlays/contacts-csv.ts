// The CSV of an overlay's contacts, built in the browser from every page of
// GET /api/overlay/{id}/contacts with the dashboard's one CSV writer (formula-safe cells).
import { toCsv } from '../components/download'

export interface ContactRow {
  name: string
  email: string
  message: string
  date: string
}

export const CONTACT_CSV_HEADER = ['Date (UTC)', 'Name', 'E-mail', 'Message']

export function contactsCsv(contacts: readonly ContactRow[]): string {
  return toCsv([CONTACT_CSV_HEADER, ...contacts.map((contact) => [contact.date, contact.name, contact.email, contact.message])])
}

/** `Spring leads` → `contacts-spring-leads.csv`. */
export function contactsFileName(overlayName: string): string {
  const slug = overlayName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
  return `contacts-${slug || 'overlay'}.csv`
}
