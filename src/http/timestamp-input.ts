// Date-times typed by people (plan and key expiry, link expiry): the stored form or a bare date.
import { nowTimestamp } from '../db/dialect.js'

/** The two accepted spellings, for request schemas: `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD`. */
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
