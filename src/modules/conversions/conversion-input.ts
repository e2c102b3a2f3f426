// The rules of a lead's and a sale's fields (issue 39, ADR 034), shared by the tracking API and the
// Stripe receiver: ISO 4217 currencies, amounts in minor units, events, metadata.
import { ValidationError } from '../../core/errors.js'

/** The largest amount in minor units (a portable integer column, ADR 001). */
export const MAX_AMOUNT = 2_000_000_000
export const MAX_METADATA_BYTES = 4096
export const DEFAULT_LEAD_EVENT = 'lead'
export const DEFAULT_SALE_EVENT = 'purchase'

// The currencies the runtime's ICU knows (ISO 4217 codes in use).
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))

/** An ISO 4217 code, upper-cased; a 400 naming `field` for anything else. */
export function checkCurrency(value: string, field = 'currency'): string {
  const code = value.trim().toUpperCase()
  if (!CURRENCIES.has(code)) throw ValidationError.field(field, 'must be an ISO 4217 currency code such as EUR or USD')
  return code
}

/** A whole amount of minor units from 0 (negative only for a refund, which `allowNegative` lets through). */
export function checkAmount(value: number, allowNegative = false, field = 'amount'): number {
  const low = allowNegative ? -MAX_AMOUNT : 0
  if (!Number.isInteger(value) || value < low || value > MAX_AMOUNT) {
    throw ValidationError.field(field, allowNegative ? `must be a whole number of minor units from ${-MAX_AMOUNT} to ${MAX_AMOUNT}` : `must be a whole number of minor units (cents) from 0 to ${MAX_AMOUNT}`)
  }
  return value
}

/** Metadata as stored: JSON text of an object, at most MAX_METADATA_BYTES; null when not given. */
export function metadataText(value: Record<string, unknown> | null | undefined): string | null {
  if (value === undefined || value === null) return null
  const text = JSON.stringify(value)
  if (Buffer.byteLength(text) > MAX_METADATA_BYTES) throw ValidationError.field('metadata', `must be at most ${MAX_METADATA_BYTES} bytes as JSON`)
  return text
}

/** Stored metadata read back (null when none or unreadable). */
export function parseMetadata(text: string | null): Record<string, unknown> | null {
  if (text === null) return null
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}
