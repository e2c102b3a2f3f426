// Origins of destinations as they may stand in a Content-Security-Policy: a `frame` or `overlay`
// link frames its destination only when its origin can be named there (visit.service.ts).

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
