// The root namespace of a domain: which addresses the service itself answers (no link or bio page
// may take them: decisions §6, reserved words refused), how an alias is folded for letter case,
// and how an alias is written in a URL. Imported aliases keep the form their source gave them
// (ADR 028): any length, `.`, `~`, `!`, `/`, non-ASCII letters. Only what the router would send
// elsewhere is reserved.

/**
 * What the router answers at the root of every host, by first path segment (ADR 028).
 * `paths`: one-segment paths a route serves (`/api`, `/app`, `/healthz`, …).
 * `prefixes`: first segments of routes with more segments (`/qr/{alias}`, `/r/{slug}`, …): an
 * alias with a `/` that starts with one of these may be answered by that route instead.
 * app.ts checks every registered route against this (a route outside it fails the start), and
 * test/modules/aliases/reserved-paths.test.ts checks that each entry is a route.
 */
export const SERVICE_PATHS = {
  // lw.js: the conversion tracking script (issue 39).
  paths: ['api', 'app', 'healthz', 'readyz', 'metrics', 'lw.js'],
  prefixes: ['api', 'app', 'qr', 'r', 'u', 'avatar', 'card', '.well-known', 'tls'],
} as const

const RESERVED_PATHS: ReadonlySet<string> = new Set(SERVICE_PATHS.paths)
const RESERVED_PREFIXES: ReadonlySet<string> = new Set(SERVICE_PATHS.prefixes)

/** The longest alias served (a source's own column: YOURLS 100, Kutt and Shlink 255 characters). */
export const MAX_ALIAS_LENGTH = 255

/**
 * An alias folded for letter case: ASCII letters only, as SQLite's lower() folds them (ADR 006,
 * ADR 028). A fold wider than the database's would make one cache key of two addresses the
 * database tells apart.
 */
export function foldAlias(alias: string): string {
  return alias.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

/**
 * True when `alias` (compared case-insensitively) cannot be served as a link or bio page: one of
 * the service's own one-segment paths, an address under one of its routes' prefixes, or a path
 * browsers and proxies rewrite before it arrives (an empty, `.` or `..` segment).
 */
export function isReservedAlias(alias: string): boolean {
  const segments = foldAlias(alias).split('/')
  if (segments.length === 1) return RESERVED_PATHS.has(segments[0]!)
  return RESERVED_PREFIXES.has(segments[0]!) || segments.some((segment) => segment === '' || segment === '.' || segment === '..')
}

// Control characters: no source serves them, and no header or log line should carry them.
const UNSERVABLE = /[\u0000-\u001f\u007f]/

/** True when a link could be stored at `alias` at all (a visitor's path answered without a read otherwise). */
export function isServableAlias(alias: string): boolean {
  return alias.length > 0 && alias.length <= MAX_ALIAS_LENGTH && !UNSERVABLE.test(alias) && !isReservedAlias(alias)
}

/** The invalidation key of an alias on a host ('' = PUBLIC_URL's host). */
export function aliasKey(host: string, alias: string): string {
  return `${host}\n${foldAlias(alias)}`
}

/** `alias` as a URL path: each segment percent-encoded (an API alias, `[A-Za-z0-9_-]`, is unchanged). */
export function aliasPath(alias: string): string {
  return alias.split('/').map(encodeURIComponent).join('/')
}

/** A path with nothing to decode or compose: printable ASCII, no `%`. */
const PLAIN_PATH = /^[\x20-\x24\x26-\x7e]*$/

/**
 * The alias a visitor's path (`/docs/intro`, `/%C3%BCber`; no query) addresses: percent-decoded
 * as the source that gave the address out decoded it, in Unicode's composed form (NFC: `über`
 * typed, pasted or printed arrives either way), one trailing slash ignored as the router ignores
 * it. Undefined for a path that cannot be decoded or names no alias.
 */
export function aliasOfPath(path: string): string | undefined {
  const trimmed = path.length > 2 && path.endsWith('/') ? path.slice(1, -1) : path.slice(1)
  if (trimmed === '') return undefined
  // Nearly every visit: printable ASCII without an escape is its own decoding and composed form
  // (the front door's short path takes this; decoding and NFC would cost it ~5x more).
  if (PLAIN_PATH.test(trimmed)) return trimmed
  let decoded: string
  try {
    decoded = decodeURIComponent(trimmed)
  } catch {
    return undefined
  }
  return decoded.normalize('NFC')
}

/**
 * `{origin}/{alias}`: the address of a short link or bio page, on its branded domain's origin when
 * it has one, else on the service's public URL. An imported alias outside `[A-Za-z0-9_-]` is
 * percent-encoded as a browser would send it (`über` → `%C3%BCber`).
 */
export function shortUrl(publicUrl: string, domainOrigin: string | null, alias: string): string {
  return `${domainOrigin ?? publicUrl}/${aliasPath(alias)}`
}
