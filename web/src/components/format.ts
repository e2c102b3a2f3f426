// How numbers and the server's UTC date-times read in the dashboard.

const integer = new Intl.NumberFormat('en')
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 })
const dateFormat = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric' })
const dateTimeFormat = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })

export function formatCount(value: number): string {
  return value >= 100_000 ? compact.format(value) : integer.format(value)
}

/** `YYYY-MM-DD HH:MM:SS` (UTC, as the API writes it) → a Date. */
export function parseServerTime(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`)
}

export function formatDate(text: string | null | undefined): string {
  if (!text) return '—'
  const date = parseServerTime(text)
  return Number.isNaN(date.getTime()) ? text : dateFormat.format(date)
}

export function formatDateTime(text: string | null | undefined): string {
  if (!text) return '—'
  const date = parseServerTime(text)
  return Number.isNaN(date.getTime()) ? text : dateTimeFormat.format(date)
}

/** A Date as the API's `YYYY-MM-DD HH:MM:SS` (UTC). */
export function toServerTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ')
}

/** YYYY-MM-DD of a Date in UTC (the statistics' days are UTC). */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** A host and path without the scheme, for tables. */
export function displayUrl(url: string): string {
  return url.replace(/^https?:\/\//i, '').replace(/\/$/, '')
}
