// Which of our own names an ACME server can certify: a DNS name, not an address or localhost.
import { isIP } from 'node:net'

/** PUBLIC_URL's host when a certificate can be issued for it; null for localhost and IP addresses. */
export function certifiableHostname(publicUrl: string): string | null {
  const hostname = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (isIP(hostname) !== 0 || hostname === 'localhost' || hostname.endsWith('.localhost') || !hostname.includes('.')) return null
  return hostname
}
