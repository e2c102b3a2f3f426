// Branded-domain rules: origin form, uniqueness across the service, DNS pointing, plan limits.
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js'
import type { DomainRow } from '../../db/schema.js'
import type { AuthenticatedAccount } from '../accounts/account.service.js'
import { enforcePlanLimit } from '../accounts/plan-limits.js'
import { isPointingToServer, lookUpHost, recordsPointToServer, type HostResolver, type ServerTarget } from './domain-dns.js'
import { parseDomainOrigin } from './domain-origin.js'
import type { DomainRepository } from './domain.repository.js'
import { toDomainRecord } from './domain.mapper.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import type { DomainCreateInput, DomainUpdateInput } from './domain.schemas.js'
import { DOMAIN_TOPIC, type Announcer } from '../../core/invalidation.js'
import { ConflictError, DuplicateError, NotFoundError, ValidationError, orNotFound } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'

const DOMAIN_TAKEN = 'The domain has been already used.'

/** What the domain service asks of short links before deleting a branded domain. */
export interface DomainLinks {
  /** True when the account has short links served on the domain. */
  hasLinks(accountId: number, domainId: number): Promise<boolean>
}

export interface DomainServiceOptions {
  /** The service's own base URL: its host can never be someone's branded domain. */
  publicUrl: string
  /** Where a new domain must point; with no IPs and no CNAME the DNS check is skipped. */
  server: ServerTarget
  resolveHost: HostResolver
  /** Short links still served on a domain block its deletion (absent where links play no part). */
  links?: DomainLinks
  /** Told the hostname of a domain that changed or was deleted (host routing caches it). */
  invalidation: Announcer
  journal: ChangeJournal
}

/** The DNS records a branded domain needs, as the add form explains them. */
export interface DomainSetup {
  /** False when neither SERVER_IPS nor SERVER_CNAME is set: domains are added without a DNS check. */
  checked: boolean
  ips: string[]
  cname: string | null
}

/** What a hostname resolves to now, and whether adding it would pass the DNS check. */
export interface DomainDnsCheck {
  hostname: string
  addresses: string[]
  cnames: string[]
  /** Null when there is nothing to compare with (no server addresses configured). */
  pointing: boolean | null
}

/** `''` clears a redirect; an absent field leaves it unchanged. */
function redirectValue(value: string | undefined): string | null | undefined {
  return value === undefined ? undefined : value === '' ? null : value
}

export function createDomainService(domains: Bindable<DomainRepository>, options: DomainServiceOptions) {
  const { journal } = options
  const ownHostnames = new Set([new URL(options.publicUrl).hostname, options.server.cname].filter((host): host is string => Boolean(host)))
  const dnsCheckEnabled = options.server.ips.length > 0 || options.server.cname !== undefined

  const getDomainOrThrow = orNotFound(domains.findById, 'Domain')

  return {
    getDomainOrThrow,

    /** Where domains must point (the records to create), from SERVER_IPS and SERVER_CNAME. */
    setup(): DomainSetup {
      return { checked: dnsCheckEnabled, ips: [...options.server.ips], cname: options.server.cname ?? null }
    },

    /** Looks `domain` up with the resolver the add check uses, so what the form shows is what add will find. */
    async checkDns(domain: string): Promise<DomainDnsCheck> {
      const { hostname } = parseDomainOrigin(domain)
      const records = await lookUpHost(options.resolveHost, hostname)
      // One look-up serves both what the form shows and the verdict.
      const pointing = dnsCheckEnabled ? await recordsPointToServer(records, options.server, options.resolveHost) : null
      return { hostname, addresses: records.addresses, cnames: records.cnames, pointing }
    },

    listDomains(accountId: number, page: PageRequest) {
      return domains.listPage(accountId, page)
    },

    async createDomain(account: AuthenticatedAccount, input: DomainCreateInput): Promise<DomainRow> {
      const origin = parseDomainOrigin(input.domain)
      if (ownHostnames.has(origin.hostname)) throw ValidationError.field('domain', 'is the address of this service itself')
      await enforcePlanLimit(account, 'domains', () => domains.count(account.id))
      // One hostname, one owner: `http://` and `https://` of the same host are the same domain.
      if (await domains.findByHostname(origin.hostname)) throw new DuplicateError(DOMAIN_TAKEN, 'domain')
      if (dnsCheckEnabled && !(await isPointingToServer(origin.hostname, options.server, options.resolveHost))) {
        throw ConflictError.domainNotPointing()
      }
      try {
        const created = await journal.write(account, async (trx) => {
          const domain = await domains.in(trx).insert(account.id, {
            ...origin,
            redirectRoot: redirectValue(input.redirectroot) ?? null,
            redirect404: redirectValue(input.redirect404) ?? null,
          })
          return { result: domain, changes: [{ action: 'domain.created', resource: 'domain', resourceId: domain.id, fields: givenFields(input), record: toDomainRecord(domain) }] }
        })
        // Host routing may hold an earlier miss for this hostname.
        options.invalidation.publish(DOMAIN_TOPIC, created.hostname)
        return created
      } catch (error) {
        // Two requests racing past the check above meet the unique constraint.
        if (isUniqueViolation(error)) throw new DuplicateError(DOMAIN_TAKEN, 'domain')
        throw error
      }
    },

    async updateDomain(account: AuthenticatedAccount, id: number, input: DomainUpdateInput): Promise<void> {
      const changes = { redirectRoot: redirectValue(input.redirectroot), redirect404: redirectValue(input.redirect404) }
      const domain = await journal.write(account, async (trx) => {
        const saved = domains.in(trx)
        if (!(await saved.updateRedirects(account.id, id, changes))) throw NotFoundError.of('Domain')
        const updated = (await saved.findById(account.id, id))!
        return { result: updated, changes: [{ action: 'domain.updated', resource: 'domain', resourceId: id, fields: givenFields(input), record: toDomainRecord(updated) }] }
      })
      options.invalidation.publish(DOMAIN_TOPIC, domain.hostname)
    },

    async deleteDomain(account: AuthenticatedAccount, id: number): Promise<void> {
      // Links keep their domain by foreign key: deleting it would leave them with no address.
      if (await options.links?.hasLinks(account.id, id)) throw ConflictError.domainHasLinks()
      const domain = await getDomainOrThrow(account.id, id)
      try {
        await journal.write(account, async (trx) => {
          if (!(await domains.in(trx).delete(account.id, id))) throw NotFoundError.of('Domain')
          return { result: undefined, changes: [{ action: 'domain.deleted', resource: 'domain', resourceId: id, fields: [], record: toDomainRecord(domain) }] }
        })
      } catch (error) {
        // A link created between the check above and the delete: the foreign key refuses.
        if (isForeignKeyViolation(error)) throw ConflictError.domainHasLinks()
        throw error
      }
      options.invalidation.publish(DOMAIN_TOPIC, domain.hostname)
    },
  }
}

export type DomainService = ReturnType<typeof createDomainService>
