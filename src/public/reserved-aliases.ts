// Path segments the service itself uses at the root of its domains: no link or bio page may
// take them as an alias (decisions §6: reserved words refused).

const RESERVED = new Set([
  'api', 'qr', 'r', 'u', 'healthz', 'readyz', 'docs', 'avatar', 'static', 'assets', 'admin', 'login',
  'logout', 'register', 'user', 'users', 'account', 'settings', 'dashboard', 'bio', 'link', 'links',
  'stats', 'favicon.ico', 'robots.txt', 'sitemap.xml', '.well-known', 'openapi.json',
])

/** True when `alias` (compared case-insensitively) is one of the service's own paths. */
export function isReservedAlias(alias: string): boolean {
  return RESERVED.has(alias.toLowerCase())
}

/** The pattern every alias must match: 3 to 64 of A-Z, a-z, 0-9, `_` and `-`. */
export const ALIAS_PATTERN = '^[A-Za-z0-9_-]{3,64}$'


/** The invalidation key of an alias on a host ('' = PUBLIC_URL's host). */
export function aliasKey(host: string, alias: string): string {
  return `${host}\n${alias.toLowerCase()}`
}
