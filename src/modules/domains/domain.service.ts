// Branded-domain rules: origin form, uniqueness across the service, DNS pointing, plan limits.
import type { Announce } from '../../cache/topics.js'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/dialect.js'
import type { DomainRow } from '../../db/schema.js'
import { AppError, DuplicateError, NotFoundError, ValidationError } from '../../http/errors.js'
import type { PageRequest } from '../../http/list.js'
import type { AuthenticatedAccount } from '../accounts/account.service.js'
import { enforcePlanLimit } from '../accounts/plan-limits.js'
import type { DomainLinks } from '../links/link-membership.js'
import { isPointingToServer, type HostResolver, type ServerTarget } from './domain-dns.js'
import { parseDomainOrigin } from './domain-origin.js'
import type { DomainRepository } from './domain.repository.js'
import type { DomainCreateInput, DomainUpdateInput } from './domain.schemas.js'

const DOMAIN_TAKEN = 'The domain has been already used.'
const NOT_POINTING = 'The domain is not pointing to our server.'
const STILL_HAS_LINKS = 'This domain still has short links. Delete them or move them to another domain first.'

export interface DomainServiceOptions {
  /** The service's own base URL: its host can never be someone's branded domain. */
  publicUrl: string
  /** Where a new domain must point; with no IPs and no CNAME the DNS check is skipped. */
  server: ServerTarget
  resolveHost: HostResolver
  /** Short links still served on a domain block its deletion (absent where links play no part). */
  links?: DomainLinks
  /** Told the hostname of a domain that changed or was deleted (host routing caches it). */
  announce?: Announce
}

/** `''` clears a redirect; an absent field leaves it unchanged. */
function redirectValue(value: string | undefined): string | null | undefined {
  return value === undefined ? undefined : value === '' ? null : value
}

export function createDomainService(domains: DomainRepository, options: DomainServiceOptions) {
  const ownHostnames = new Set([new URL(options.publicUrl).hostname, options.server.cname].filter((host): host is string => Boolean(host)))
  const dnsCheckEnabled = options.server.ips.length > 0 || options.server.cname !== undefined

  async function getDomainOrThrow(accountId: number, id: number): Promise<DomainRow> {
    const domain = await domains.findById(accountId, id)
    if (!domain) throw NotFoundError.of('Domain')
    return domain
  }

  return {
    getDomainOrThrow,

    listDomains(accountId: number, page: PageRequest) {
      return domains.listPage(accountId, page)
    },

    async createDomain(account: AuthenticatedAccount, input: DomainCreateInput): Promise<DomainRow> {
      const origin = parseDomainOrigin(input.domain)
      if (ownHostnames.has(origin.hostname)) throw ValidationError.field('domain', 'is the address of this service itself')
      await enforcePlanLimit(account, 'domains', () => domains.count(account.id))
      // One hostname, one owner: `http://` and `https://` of the same host are the same domain.
      if (await domains.findByHostname(origin.hostname)) throw new DuplicateError(DOMAIN_TAKEN)
      if (dnsCheckEnabled && !(await isPointingToServer(origin.hostname, options.server, options.resolveHost))) {
        throw new AppError(400, 'domain_not_pointing', NOT_POINTING)
      }
      try {
        return await domains.insert(account.id, {
          ...origin,
          redirectRoot: redirectValue(input.redirectroot) ?? null,
          redirect404: redirectValue(input.redirect404) ?? null,
        })
      } catch (error) {
        // Two requests racing past the check above meet the unique constraint.
        if (isUniqueViolation(error)) throw new DuplicateError(DOMAIN_TAKEN)
        throw error
      }
    },

    async updateDomain(accountId: number, id: number, input: DomainUpdateInput): Promise<void> {
      const changes = { redirectRoot: redirectValue(input.redirectroot), redirect404: redirectValue(input.redirect404) }
      if (!(await domains.updateRedirects(accountId, id, changes))) throw NotFoundError.of('Domain')
      const domain = await domains.findById(accountId, id)
      if (domain) options.announce?.(domain.hostname)
    },

    async deleteDomain(accountId: number, id: number): Promise<void> {
      // Links keep their domain by foreign key: deleting it would leave them with no address.
      if (await options.links?.hasLinks(accountId, id)) throw new AppError(400, 'domain_has_links', STILL_HAS_LINKS)
      const domain = await getDomainOrThrow(accountId, id)
      try {
        if (!(await domains.delete(accountId, id))) throw NotFoundError.of('Domain')
      } catch (error) {
        // A link created between the check above and the delete: the foreign key refuses.
        if (isForeignKeyViolation(error)) throw new AppError(400, 'domain_has_links', STILL_HAS_LINKS)
        throw error
      }
      options.announce?.(domain.hostname)
    },
  }
}

export type DomainService = ReturnType<typeof createDomainService>
