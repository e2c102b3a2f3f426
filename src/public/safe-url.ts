// Destinations as they leave the server: stored URLs are checked on the way in, and checked again
// here, so a row written by other means can never send a visitor to `javascript:` or break a header.
import { memoize } from '../cache/memoize.js'

// Every visit checks its destination; links are visited many times each.
const checkedUrl = memoize((value) => {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}, 5_000)

/** The URL in its serialised ASCII form (IDN as punycode, non-ASCII percent-encoded), or null unless http(s). */
export function safeHttpUrl(value: string | null | undefined): string | null {
  return value ? checkedUrl(value) : null
}

// WHATWG hosts may hold `;` and `,`, which would end a CSP directive: only plain names pass.
const PLAIN_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/

/** The origin of an http(s) URL when it can stand in a Content-Security-Policy source list, else null. */
export function policyOriginOf(url: string): string | null {
  try {
    const origin = new URL(url).origin
    return PLAIN_ORIGIN.test(origin) ? origin : null
  } catch {
    return null
  }
}
