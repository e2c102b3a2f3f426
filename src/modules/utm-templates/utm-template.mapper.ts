// UTM template rows to API records.
import type { UtmTemplateRow } from '../../db/schema.js'
import { parseStoredUtm } from '../links/link-options.js'

export function toUtmTemplateRecord(row: UtmTemplateRow) {
  return { id: row.id, name: row.name, utm: parseStoredUtm(row.utm), date: row.created_at }
}
