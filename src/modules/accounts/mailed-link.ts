// What the three mailed links (migration 034) share: a random token whose SHA-256 alone is kept,
// the dashboard address that carries it in its fragment, and the refusal of a link that is not
// ours (400 link_invalid) or is spent or out of date (410 link_expired).
import { generateSessionToken, hashApiKey } from '../../core/secrets.js'
import { ConflictError } from '../../core/errors.js'
import type { MailedLinkRow } from '../../db/schema.js'
import type { MailedLinkPurpose, MailedLinkRepository } from './mailed-link.repository.js'

// Tokens are 43 URL-safe characters; anything else is not one of ours and is not worth hashing.
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** A new link's token (mailed) and its hash (stored). */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = generateSessionToken()
  return { token, tokenHash: hashApiKey(token) }
}

/** `{dashboardUrl}/{page}#token=…`: the fragment never reaches a server's or a proxy's log. */
export function linkUrl(dashboardUrl: string, page: string, token: string): string {
  return `${dashboardUrl}/${page}#token=${token}`
}

/**
 * The link of `purpose` behind `token`, still usable at `at`: ConflictError.linkInvalid when the
 * token is none of ours, ConflictError.linkExpired when it was used or has run out.
 */
export async function usableLinkOrThrow(links: Pick<MailedLinkRepository, 'findByTokenHash'>, purpose: MailedLinkPurpose, token: string, at: string): Promise<MailedLinkRow> {
  if (!TOKEN_PATTERN.test(token)) throw ConflictError.linkInvalid()
  const link = await links.findByTokenHash(purpose, hashApiKey(token))
  if (!link) throw ConflictError.linkInvalid()
  if (link.used_at !== null || link.expires_at <= at) throw ConflictError.linkExpired()
  return link
}
