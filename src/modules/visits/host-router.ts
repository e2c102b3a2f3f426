// Which alias namespace a request is in: a branded domain's when its Host is that domain's
// hostname; the main one ('' = PUBLIC_URL's host) for PUBLIC_URL's host, `localhost` and IP
// literals (a local run, a health check, a test); none for any other host (ADR 028): a domain
// not yet added, or a name pointed at the server by someone else, does not serve the main
// domain's links. Domain lookups are cached like aliases.
// Entries are dropped when the domains module announces a hostname on the domain topic (added,
// changed, deleted), and live 5 s at most whatever the bus promises.
import { DOMAIN_TOPIC, type InvalidationBus } from '../../core/invalidation.js'
import { createLruCache } from '../../core/lru-cache.js'
import type { AliasResolverRepository, StoredDomainRoute } from './alias-resolver.repository.js'

/** How long a domain entry may be served without hearing of a change. */
export const DOMAIN_CACHE_TTL_MS = 5_000

/** The namespace of a request: `host` as stored in links.host, and the branded domain if any. */
export interface HostNamespace {
  host: string
  domain: StoredDomainRoute | null
}

export interface HostRouter {
  /** The request's namespace; null for a host that is neither the main one nor a branded domain. */
  namespaceOf(hostHeader: string | undefined): Promise<HostNamespace | null>
  /** What `namespaceOf` would answer from memory; undefined when it would read the database. */
  peekNamespace(hostHeader: string | undefined): HostNamespace | null | undefined
}

const MAIN: HostNamespace = Object.freeze({ host: '', domain: null })
const HOSTNAME_FORM = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/
const IPV4_LITERAL = /^\d{1,3}(?:\.\d{1,3}){3}$/

/** Hosts that are the main domain whatever PUBLIC_URL says: no Host header, loopback names, IP literals (no branded domain is an IP). */
function isMainAlways(hostHeader: string | undefined, hostname: string): boolean {
  if (hostHeader === undefined || hostHeader.trim() === '' || hostHeader.trim().startsWith('[')) return true
  return hostname === 'localhost' || hostname.endsWith('.localhost') || IPV4_LITERAL.test(hostname)
}

/** The hostname of a Host header: no port, lower case, no trailing dot; '' for IP literals in brackets. */
export function hostnameOf(hostHeader: string | undefined): string {
  const value = (hostHeader ?? '').trim().toLowerCase()
  if (value.startsWith('[')) return ''
  return value.split(':')[0]!.replace(/\.$/, '')
}

export interface HostRouterOptions {
  /** Reads a branded domain by its hostname. */
  lookups: AliasResolverRepository
  /** Tells of changed domains (their cached routes are dropped); its staleness bounds the cache. */
  invalidation: InvalidationBus
  /** The main host's address: its hostname is never a branded domain. */
  publicUrl: string
}

export function createHostRouter({ lookups, invalidation, publicUrl }: HostRouterOptions): HostRouter {
  const publicHostname = new URL(publicUrl).hostname.toLowerCase()
  // Few domains exist; the bound keeps arbitrary Host headers from growing memory.
  const cache = createLruCache<string, StoredDomainRoute | null>(1_000, Math.min(DOMAIN_CACHE_TTL_MS, invalidation.maxStaleMs))
  invalidation.subscribe((topic, key) => {
    if (topic === DOMAIN_TOPIC) cache.delete(key.toLowerCase())
  })

  const namespaceOfDomain = (domain: StoredDomainRoute | null): HostNamespace | null => (domain ? { host: domain.hostname, domain } : null)
  /** The answer that needs no lookup: the main namespace, none (no domain has such a name), or undefined (ask the domains). */
  const known = (hostHeader: string | undefined, hostname: string): HostNamespace | null | undefined => {
    if (hostname === publicHostname || isMainAlways(hostHeader, hostname)) return MAIN
    return HOSTNAME_FORM.test(hostname) ? undefined : null
  }

  return {
    async namespaceOf(hostHeader) {
      const hostname = hostnameOf(hostHeader)
      const fixed = known(hostHeader, hostname)
      if (fixed !== undefined) return fixed
      let domain = cache.get(hostname)
      if (domain === undefined) {
        domain = (await lookups.findDomainByHostname(hostname)) ?? null
        cache.set(hostname, domain)
      }
      return namespaceOfDomain(domain)
    },
    peekNamespace(hostHeader) {
      const hostname = hostnameOf(hostHeader)
      const fixed = known(hostHeader, hostname)
      if (fixed !== undefined) return fixed
      const domain = cache.get(hostname)
      return domain === undefined ? undefined : namespaceOfDomain(domain)
    },
  }
}
