// Click ids (issue 39, ADR 034): the unguessable id a click of a conversion-tracking link is given
// at redirect time, appended to its destination and stored with the click, so that a lead or a
// sale reported later finds the click (and its link, campaign and channel). The parameter's name
// and the attribution window are workspace settings; their rules are here, imported by nothing
// but plain text so that the dashboard may share them.
import { randomUUID } from 'node:crypto'

/** The parameter name a workspace uses unless it sets another. */
export const DEFAULT_CLICK_ID_PARAMETER = 'lw_id'
export const CLICK_ID_PARAMETER_MAX = 40
/** Letters, digits, `_`, `-` and `.`: a name no URL needs to escape. */
export const CLICK_ID_PARAMETER_PATTERN = '^[A-Za-z0-9_.-]+$'
export const CLICK_ID_PARAMETER_RULE = `must be 1 to ${CLICK_ID_PARAMETER_MAX} letters, digits, _, - or .`
export const MAX_ATTRIBUTION_DAYS = 3650
export const DEFAULT_ATTRIBUTION_DAYS = 90

/**
 * A new click id: 32 hex digits, the first 12 the time in milliseconds, the other 20 random (80
 * bits, as a ULID: unguessable). Ids made later sort later, so the index that finds a click by its
 * id (clicks_click_id) grows at its end: a batch of clicks dirties a few of its pages, where random
 * ids dirtied one page per click (on an SQLite file in WAL, 28 µs per row against 5 µs at 250,000
 * rows). The random digits come from randomUUID, which draws from a buffered pool of the system's
 * cryptographic generator (its version and variant digits, 12 and 16, are left out), so a redirect
 * pays well under a microsecond and no database round trip: the id travels with the click (ADR 004).
 */
export function newClickId(at = Date.now()): string {
  const random = randomUUID().replace(/-/g, '')
  return at.toString(16).padStart(12, '0') + random.slice(0, 12) + random.slice(17, 25)
}

/** True for text shaped like a click id (anything else is unknown without a look-up). */
export function isClickIdShape(text: string): boolean {
  return /^[0-9a-f]{32}$/.test(text)
}
