// The one http(s) URL rule (decisions §5): destinations, blocks, QR links and avatars are absolute
// http or https URLs with a host; `javascript:`, `data:` and every other scheme are refused. The
// dashboard's forms check a URL with it before sending (isHttpUrlInput), so it imports only core
// files that import nothing (web/scripts/dashboard-patterns.test.ts checks it).
import { ValidationError } from './errors.js'
import { memoize } from './memoize.js'

/** Longest URL we store. */
export const MAX_URL_LENGTH = 2048

/** The form of an http(s) URL a client gives (the schemas' HttpUrl); services check it parses. */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$'
const HTTP_URL_FORM = new RegExp(HTTP_URL_PATTERN)

/** True for the schemes we send people to and fetch from: http and https (decisions §5). */
export function isHttpScheme(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:'
}

/** The parsed URL when `text` is an absolute http(s) URL with a host, else null. */
export function parseHttpUrl(text: string): URL | null {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return null
  }
  return isHttpScheme(url) && url.hostname !== '' ? url : null
}

/** True when `text` is an absolute http(s) URL with a host. */
export function isHttpUrl(text: string): boolean {
  return parseHttpUrl(text) !== null
}

/**
 * True when `text`, trimmed, is a URL a request may carry where the schemas ask for an HttpUrl:
 * of the form and length HttpUrl allows, and an http(s) URL with a host (checkHttpUrl).
 */
export function isHttpUrlInput(text: string): boolean {
  const trimmed = text.trim()
  return trimmed.length <= MAX_URL_LENGTH && HTTP_URL_FORM.test(trimmed) && isHttpUrl(trimmed)
}

/** `text` trimmed; throws a ValidationError naming `field` unless it is an http(s) URL of at most MAX_URL_LENGTH. */
export function checkHttpUrl(field: string, text: string): string {
  const trimmed = text.trim()
  if (trimmed.length > MAX_URL_LENGTH || !isHttpUrl(trimmed)) throw ValidationError.field(field, 'must be an http or https URL')
  return trimmed
}

// Every visit checks its destination on the way out; links are visited many times each.
const serialisedHttpUrl = memoize((value) => parseHttpUrl(value)?.href ?? null, 5_000)

/**
 * The URL in its serialised ASCII form (IDN as punycode, non-ASCII percent-encoded), or null unless
 * http(s): stored URLs are checked again as they leave, so a row written by other means can never
 * send a visitor to `javascript:` or break a header.
 */
export function safeHttpUrl(value: string | null | undefined): string | null {
  return value ? serialisedHttpUrl(value) : null
}

/** True for a plain http URL (no TLS): what a provider may use only on loopback, when allowed (ADR 033). */
export function isPlainHttp(url: URL): boolean {
  return url.protocol === 'http:'
}
