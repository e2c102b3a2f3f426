// Time as Linkwell stores and names it, all UTC: date-times `YYYY-MM-DD HH:MM:SS` (spec) and days
// `YYYY-MM-DD` (clicks, statistics). Fixed-width text, so text order is time order.
import { ValidationError } from './errors.js'

/** Milliseconds in a UTC day (no leap seconds in JavaScript time). */
export const DAY_MS = 86_400_000
/** Milliseconds in a minute. */
export const MINUTE_MS = 60_000

let currentSecond = -1
let currentText = ''

/** UTC time (by default now) as the stored `YYYY-MM-DD HH:MM:SS` text. */
export function nowTimestamp(date?: Date): string {
  if (date) return date.toISOString().slice(0, 19).replace('T', ' ')
  // Every redirect asks (expiry, click time): format once per second, not once per request.
  const second = Math.floor(Date.now() / 1000)
  if (second !== currentSecond) {
    currentSecond = second
    currentText = new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ')
  }
  return currentText
}

/** A moment as ISO 8601 with milliseconds and `Z` (what other systems' payloads expect: webhooks' `timestamp`). */
export function isoTimestamp(date: Date): string {
  return date.toISOString()
}

/** True when `expiresAt` (stored text, or null for never) has passed at `now` (stored text). */
export function isExpired(expiresAt: string | null, now?: string): boolean {
  // The clock is read only for links that expire: most never do, and every redirect asks.
  return expiresAt !== null && expiresAt <= (now ?? nowTimestamp())
}

/** The two spellings people may type, for request schemas: `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD`. */
export const TIMESTAMP_INPUT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2})?$'

/**
 * `YYYY-MM-DD HH:MM:SS` (UTC) or `YYYY-MM-DD` (midnight UTC) to the stored text; undefined when the
 * text is not a real calendar date-time (`2026-02-30` and `24:00:00` are refused, not rolled over).
 */
export function toStoredTimestamp(text: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(text.trim())
  if (!match) return undefined
  const [, year, month, day, hour = '00', minute = '00', second = '00'] = match as unknown as string[]
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)))
  if (Number.isNaN(date.getTime())) return undefined
  const expected = `${year}-${month}-${day} ${hour}:${minute}:${second}`
  // Date.UTC rolls invalid parts over (Feb 30 → Mar 2) and maps years 0-99 to 1900+: compare back.
  return nowTimestamp(date) === expected ? expected : undefined
}

/** Stored `YYYY-MM-DD HH:MM:SS` text (UTC) as milliseconds. */
export function timeOfStored(stored: string): number {
  return Date.parse(`${stored.replace(' ', 'T')}Z`)
}

/** The UTC day of a time in milliseconds. */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10)
}

/** Midnight (UTC) of a day, in milliseconds. */
export function midnightOf(day: string): number {
  return Date.parse(`${day}T00:00:00Z`)
}

/** The day `days` days before `day`. */
export function daysBefore(day: string, days: number): string {
  return dayOf(midnightOf(day) - days * DAY_MS)
}

/**
 * A range a client gives as `from` and `to` (`YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`, UTC; either may
 * be left out) as stored text: a date alone is its first second for `from` and its last for `to`.
 * A bound that is no real date, or `to` before `from`, is refused naming the parameter.
 */
export function readTimeRange(query: { from?: string; to?: string }): { from?: string; to?: string } {
  const bound = (field: 'from' | 'to', text: string | undefined): string | undefined => {
    if (text === undefined) return undefined
    const stored = toStoredTimestamp(text)
    if (!stored) throw ValidationError.field(field, 'must be a real date YYYY-MM-DD or date-time YYYY-MM-DD HH:MM:SS')
    return text.trim().length === 10 && field === 'to' ? `${stored.slice(0, 10)} 23:59:59` : stored
  }
  const range = { from: bound('from', query.from), to: bound('to', query.to) }
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) throw ValidationError.field('to', 'must not be before "from"')
  return range
}
