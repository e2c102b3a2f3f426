// Field rules of a short link that need more than a schema: the redirect type and expiry dates
// (decisions §6). Destinations follow the one URL rule (core/urls.ts checkHttpUrl); aliases are the
// aliases module's.
import { nowTimestamp, toStoredTimestamp } from '../../core/time.js'
import { ValidationError } from '../../core/errors.js'
import { MAX_ID } from '../../core/schemas.js'

/** How a visit is served: straight redirect, framed, through a splash page, or framed with an overlay. */
export type LinkPresentation =
  | { type: 'direct' | 'frame' }
  /** `splashId` null: the generic interstitial. */
  | { type: 'splash'; splashId: number | null }
  | { type: 'overlay'; overlayId: number }

/**
 * Reads `type` as clients send it: `direct`, `frame`, `splash`, a splash page id (number or
 * numeric text) or `overlay-<id>`. Ids beyond the database's range can name no record: 0 stands for them.
 */
export function parseLinkType(raw: string | number): LinkPresentation {
  const text = String(raw)
  if (text === 'direct' || text === 'frame') return { type: text }
  if (text === 'splash') return { type: 'splash', splashId: null }
  const overlay = /^overlay-(\d+)$/.exec(text)
  if (overlay) return { type: 'overlay', overlayId: inRange(Number(overlay[1])) }
  if (/^\d+$/.test(text)) return { type: 'splash', splashId: inRange(Number(text)) }
  throw ValidationError.field('type', 'must be direct, frame, splash, a splash page id or overlay-<id>')
}

function inRange(id: number): number {
  return id >= 1 && id <= MAX_ID ? id : 0
}

/** The `type` value a client sends to get this presentation back. */
export function formatLinkType(presentation: { type: string; splashId: number | null; overlayId: number | null }): string {
  if (presentation.type === 'splash') return presentation.splashId === null ? 'splash' : String(presentation.splashId)
  // An overlay deleted since (the foreign key sets null) leaves the destination framed.
  if (presentation.type === 'overlay') return presentation.overlayId === null ? 'frame' : `overlay-${presentation.overlayId}`
  return presentation.type
}

/** `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD` (UTC) to the stored text; it must lie in the future. */
export function parseExpiry(text: string, now: Date = new Date()): string {
  const stored = toStoredTimestamp(text)
  if (!stored) throw ValidationError.field('expiry', 'must be a real date-time YYYY-MM-DD HH:MM:SS or date YYYY-MM-DD (UTC)')
  // Same fixed-width format on both sides: text order is time order.
  if (stored <= nowTimestamp(now)) throw ValidationError.field('expiry', 'must be in the future')
  return stored
}
