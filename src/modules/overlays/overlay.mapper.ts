// Overlay rows to API records.
import type { Selectable } from 'kysely'
import type { ContactsTable, OverlayRow } from '../../db/schema.js'
import { parseConfigJson } from './config-json.js'

export function toOverlayRecord(overlay: OverlayRow) {
  return { id: overlay.id, type: overlay.type, name: overlay.name, date: overlay.created_at }
}

/** The record with its stored fields (the response schema keeps only the known ones). */
export function toOverlayDetails(overlay: OverlayRow) {
  return { ...parseConfigJson(overlay.config), ...toOverlayRecord(overlay) }
}

export function toContactRecord(contact: Selectable<ContactsTable>) {
  return { id: contact.id, name: contact.name, email: contact.email, message: contact.message, linkid: contact.link_id, date: contact.created_at }
}
