// An audit row as GET /api/audit shows it.
import type { AuditEntryRow } from './audit.repository.js'
import type { AuditEntry } from './audit.schemas.js'

export function toAuditEntry(row: AuditEntryRow): AuditEntry {
  return {
    id: row.id,
    date: row.created_at,
    via: row.via,
    person: row.person_id,
    key: row.key_id === null ? null : { id: row.key_id, name: row.key_name },
    address: row.address,
    action: row.action,
    resource: row.resource,
    resourceId: row.resource_id,
    fields: JSON.parse(row.fields) as string[],
  }
}
