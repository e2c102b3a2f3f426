// Which alias namespace a request is in: a branded domain's when its Host is that domain's
// hostname, else the main one ('' = PUBLIC_URL's host). Domain lookups are cached like aliases.
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
  namespaceOf(hostHeader: string | undefined): Promise<HostNamespace>
  /** What `namespaceOf` would answer from memory; undefined when it would read the database. */
  peekNamespace(hostHeader: string | undefined): HostNamespace | undefined
}

const MAIN: HostNamespace = Object.freeze({ host: '', domain: null })
const HOSTNAME_FORM = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/

/** The hostname of a Host header: no port, lower case, no trailing dot; '' for IP literals in brackets. */
export function hostnameOf(hostHeader: string | undefined): string {
  const value = (hostHeader ?? '').trim().toLowerCase()
  if (value.startsWith('[')) return ''
  return value.split(':')[0]!.replace(/\.$/, '')
}

export function createHostRouter(repository: AliasResolverRepository, invalidation: InvalidationBus, publicUrl: string): HostRouter {
  const publicHostname = new URL(publicUrl).hostname.toLowerCase()
  // Few domains exist; the bound keeps arbitrary Host headers from growing memory.
  const cache = createLruCache<string, StoredDomainRoute | null>(1_000, Math.min(DOMAIN_CACHE_TTL_MS, invalidation.maxStaleMs))
  invalidation.subscribe((topic, key) => {
    if (topic === DOMAIN_TOPIC) cache.delete(key.toLowerCase())
  })

  const namespaceOfDomain = (domain: StoredDomainRoute | null): HostNamespace => (domain ? { host: domain.hostname, domain } : MAIN)

  return {
    async namespaceOf(hostHeader) {
      const hostname = hostnameOf(hostHeader)
      // The main host and anything that cannot be a domain name need no lookup.
      if (hostname === publicHostname || !HOSTNAME_FORM.test(hostname)) return MAIN
      let domain = cache.get(hostname)
      if (domain === undefined) {
        domain = (await repository.findDomainByHostname(hostname)) ?? null
        cache.set(hostname, domain)
      }
      return namespaceOfDomain(domain)
    },
    peekNamespace(hostHeader) {
      const hostname = hostnameOf(hostHeader)
      if (hostname === publicHostname || !HOSTNAME_FORM.test(hostname)) return MAIN
      const domain = cache.get(hostname)
      return domain === undefined ? undefined : namespaceOfDomain(domain)
    },
  }
}
