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
 * A new click id: 32 hex digits of a random (v4) UUID, 122 random bits. randomUUID draws from a
 * buffered pool of the system's cryptographic generator, so a redirect pays well under a microsecond
 * for it and no database round trip: the id travels with the click to the recorder (ADR 004).
 */
export function newClickId(): string {
  return randomUUID().replace(/-/g, '')
}

/** True for text shaped like a click id (anything else is unknown without a look-up). */
export function isClickIdShape(text: string): boolean {
  return /^[0-9a-f]{32}$/.test(text)
}
