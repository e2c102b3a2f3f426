// Domain rows to API records: the spec's fields, then (issue 43) whether the workspace has proven
// control of the name, the record that proves it, and the name's certificate.
import type { CertificateStatus, DomainRow } from '../../db/schema.js'
import { verificationRecordName } from './domain-verification.js'

/** A hostname's certificate as the domain service reads it (tls_certificates). */
export interface StoredCertificateState {
  status: CertificateStatus
  expires_at: string | null
  error: string | null
}

/** The certificate part of a record: `none` until the claim is verified and one is ordered. */
function certificateOf(domain: DomainRow, certificate: StoredCertificateState | undefined) {
  if (domain.status !== 'verified' || !certificate) return { status: 'none' as const, expires: null, error: null }
  return { status: certificate.status, expires: certificate.expires_at, error: certificate.error }
}

export function toDomainRecord(domain: DomainRow, certificate?: StoredCertificateState) {
  return {
    id: domain.id,
    domain: domain.domain,
    redirectroot: domain.redirect_root,
    redirect404: domain.redirect_404,
    status: domain.status,
    verification: {
      type: 'TXT' as const,
      name: verificationRecordName(domain.hostname),
      value: domain.verification_token,
      method: domain.verified_by,
      verified: domain.verified_at,
      checked: domain.checked_at,
      error: domain.check_error,
      next: domain.next_check_at,
    },
    certificate: certificateOf(domain, certificate),
  }
}

export type DomainRecord = ReturnType<typeof toDomainRecord>
