// Path segments the service itself uses at the root of its domains: no link or bio page may
// take them as an alias (decisions §6: reserved words refused).

const RESERVED = new Set([
  'api', 'app', 'qr', 'r', 'u', 'healthz', 'readyz', 'metrics', 'docs', 'avatar', 'static', 'assets', 'admin', 'login',
  'logout', 'register', 'user', 'users', 'account', 'settings', 'dashboard', 'bio', 'link', 'links',
  'stats', 'favicon.ico', 'robots.txt', 'sitemap.xml', '.well-known', 'openapi.json',
])

/** True when `alias` (compared case-insensitively) is one of the service's own paths. */
export function isReservedAlias(alias: string): boolean {
  return RESERVED.has(alias.toLowerCase())
}

/** The invalidation key of an alias on a host ('' = PUBLIC_URL's host). */
export function aliasKey(host: string, alias: string): string {
  return `${host}\n${alias.toLowerCase()}`
}

/**
 * `{origin}/{alias}`: the address of a short link or bio page, on its branded domain's origin when
 * it has one, else on the service's public URL. Aliases are URL-safe (ALIAS_PATTERN): no encoding.
 */
export function shortUrl(publicUrl: string, domainOrigin: string | null, alias: string): string {
  return `${domainOrigin ?? publicUrl}/${alias}`
}
