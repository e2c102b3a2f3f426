// Domain rows to API records.
import type { DomainRow } from '../../db/schema.js'

export function toDomainRecord(domain: DomainRow) {
  return {
    id: domain.id,
    domain: domain.domain,
    redirectroot: domain.redirect_root,
    redirect404: domain.redirect_404,
  }
}
