// Overlay rows to API records.
import type { OverlayRow } from '../../db/schema.js'

export function toOverlayRecord(overlay: OverlayRow) {
  return { id: overlay.id, type: overlay.type, name: overlay.name, date: overlay.created_at }
}
