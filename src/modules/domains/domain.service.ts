// Branded-domain rules: origin form, one claim per workspace and one proven owner per hostname
// (ADR 031), DNS pointing, plan limits, and the checks that prove control of a name.
import { randomBytes } from 'node:crypto'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js'
import type { DomainRow } from '../../db/schema.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { enforcePlanLimit } from '../plans/plan-limits.js'
import { createDnsClient, isPointingToServer, lookUpHost, recordsPointToServer, type DnsClient, type HostResolver, type ServerTarget } from './domain-dns.js'
import { parseDomainOrigin } from './domain-origin.js'
import type { DomainRepository } from './domain.repository.js'
import { toDomainRecord, type DomainRecord } from './domain.mapper.js'
import { checkProof, nextCheckAfter } from './domain-verification.js'
import { givenFields, systemActor, type ChangeJournal } from '../changes/change-journal.js'
import { nowTimestamp, timeOfStored } from '../../core/time.js'
import type { Bindable } from '../../db/transactions.js'
import type { DomainCreateInput, DomainUpdateInput } from './domain.schemas.js'
import { DOMAIN_TOPIC, type Announcer } from '../../core/invalidation.js'
import { ConflictError, DuplicateError, NotFoundError, ValidationError, orNotFound } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'

const DOMAIN_TAKEN = 'The domain has been already used.'

/** The message a claim keeps when another workspace proves control of its name. */
function releasedMessage(hostname: string, at: string): string {
  return `Another workspace proved control of ${hostname} (${at} UTC): this claim is no longer served. Delete it, or ask that workspace to remove the name.`
}

/** What the domain service asks of short links before deleting a branded domain. */
export interface DomainLinks {
  /** True when the account has short links served on the domain. */
  hasLinks(accountId: number, domainId: number): Promise<boolean>
}

export interface DomainServiceOptions {
  domains: Bindable<DomainRepository>
  /** The service's own base URL: its host can never be someone's branded domain. */
  publicUrl: string
  /** Where a new domain must point; with no IPs and no CNAME the DNS check is skipped. */
  server: ServerTarget
  resolveHost: HostResolver
  /** The look-ups that prove control (TXT records), through DNS_SERVERS or the system's servers (the default). */
  dns?: DnsClient
  /** Whether the HTTP proof counts (DOMAIN_VERIFICATION=txt turns it off; ADR 031); default true. */
  allowHttpProof?: boolean
  /** The port a claim's challenge is fetched back on: 80, the default (tests: their own). */
  challengePort?: number
  /** Told each hostname that a workspace has just proven control of (certificates are ordered for it). */
  onVerified?: (hostname: string) => void
  /** The clock of the check schedule (tests move it by hand). */
  now?: () => Date
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

export function createDomainService(options: DomainServiceOptions) {
  const { domains, journal } = options
  const ownHostnames = new Set([new URL(options.publicUrl).hostname, options.server.cname].filter((host): host is string => Boolean(host)))
  const dnsCheckEnabled = options.server.ips.length > 0 || options.server.cname !== undefined

  const getDomainOrThrow = orNotFound(domains.findById, 'Domain')
  const clock = options.now ?? (() => new Date())
  const proofOptions = { dns: options.dns ?? createDnsClient(), hostRecords: options.resolveHost, server: options.server, allowHttp: options.allowHttpProof ?? true, httpPort: options.challengePort ?? 80 }

  /** Records with their certificate state (one query for a page of domains). */
  async function recordsOf(rows: DomainRow[]): Promise<DomainRecord[]> {
    const certificates = await domains.certificatesOf([...new Set(rows.filter((row) => row.status === 'verified').map((row) => row.hostname))])
    return rows.map((row) => toDomainRecord(row, certificates.get(row.hostname)))
  }

  /** Marks `claim` verified, releases the other workspaces' claims on its name, tells each workspace. */
  async function markVerified(claim: DomainRow, method: 'txt' | 'http', at: string): Promise<void> {
    const released = await journal.write(systemActor(claim.account_id), async (trx) => {
      const saved = domains.in(trx)
      await saved.markVerified(claim.id, method, at)
      const others = await saved.releaseOtherClaims(claim.hostname, claim.id, at, releasedMessage(claim.hostname, at))
      const verified = (await saved.findById(claim.account_id, claim.id))!
      return { result: others, changes: [{ action: 'domain.updated', resource: 'domain', resourceId: claim.id, fields: ['status'], record: toDomainRecord(verified) }] }
    })
    // Each released workspace finds the change in its own audit log and webhooks.
    for (const other of released) {
      await journal.write(systemActor(other.account_id), async () => ({
        result: undefined,
        changes: [{ action: 'domain.updated', resource: 'domain', resourceId: other.id, fields: ['status'], record: toDomainRecord(other) }],
      }))
    }
    // Host routing serves the verified claim from now on.
    options.invalidation.publish(DOMAIN_TOPIC, claim.hostname)
    options.onVerified?.(claim.hostname)
  }

  /** Looks for proof of control of `claim`'s name now and records what was found. */
  async function check(claim: DomainRow): Promise<void> {
    const now = clock()
    const at = nowTimestamp(now)
    const claims = await domains.claimsOf(claim.hostname)
    const owner = claims.find((other) => other.id !== claim.id && other.status === 'verified')
    if (owner) {
      // Proven by another workspace meanwhile (its release reached this claim, or is about to).
      await domains.releaseOtherClaims(claim.hostname, owner.id, owner.verified_at ?? at, releasedMessage(claim.hostname, owner.verified_at ?? at))
      return
    }
    // The owner has gone (its claim deleted): a released claim is a claim again.
    if (claim.released_at !== null) await domains.reopenClaims(claim.hostname, at)
    const soleClaim = claims.every((other) => other.id === claim.id || other.released_at !== null)
    const result = await checkProof(proofOptions, claim.hostname, claim.verification_token, soleClaim)
    if (result.proven) {
      try {
        await markVerified(claim, result.proven, at)
      } catch (error) {
        // Another workspace's claim was marked verified between the look above and this write.
        if (!isUniqueViolation(error)) throw error
        await domains.recordFailedCheck(claim.id, { at, problem: `Another workspace proved control of ${claim.hostname} first.`, status: 'failed', next: null })
      }
      return
    }
    const next = nextCheckAfter(new Date(timeOfStored(claim.checks_since ?? claim.created_at)), now)
    const problem = next ? result.problem : `${result.problem}. No proof was found in a week of checks; check again once the record is in place.`
    await domains.recordFailedCheck(claim.id, { at, problem, status: next ? 'pending' : 'failed', next: next ? nowTimestamp(next) : null })
  }

  /** The record of one of the account's domains, with its certificate. */
  async function getRecord(accountId: number, id: number): Promise<DomainRecord> {
    return (await recordsOf([await getDomainOrThrow(accountId, id)]))[0]!
  }

  return {
    getDomainOrThrow,
    recordsOf,
    getRecord,

    /** A person asked for a check (`POST /api/domain/{id}/verify`): checks now and starts the schedule again. */
    async verifyNow(account: AuthenticatedAccount, id: number): Promise<DomainRecord> {
      const claim = await getDomainOrThrow(account.id, id)
      if (claim.status !== 'verified') {
        const at = nowTimestamp(clock())
        await domains.restartChecks(claim.id, at)
        await check({ ...claim, checks_since: at })
      }
      return getRecord(account.id, id)
    },

    /**
     * One round of background checks: takes up to `limit` due claims (each instance its own, by a
     * lease of `leaseMs`) and checks them; answers how many it took.
     */
    async checkDue(limit: number, leaseMs = 120_000): Promise<number> {
      const now = clock()
      const due = await domains.due(nowTimestamp(now), limit)
      let taken = 0
      for (const claim of due) {
        if (!(await domains.take(claim.id, claim.next_check_at!, nowTimestamp(new Date(now.getTime() + leaseMs))))) continue
        taken++
        await check(claim)
      }
      return taken
    },

    /** True when `hostname` is one a workspace has proven control of (certificates, `/tls/allowed`). */
    isVerifiedHostname(hostname: string): Promise<boolean> {
      return domains.isVerified(hostname)
    },

    verifiedHostnames(): Promise<string[]> {
      return domains.verifiedHostnames()
    },

    /** The challenge answer for the HTTP proof: the token when `hostname` has a claim holding it. */
    async challengeAnswer(hostname: string, token: string): Promise<string | undefined> {
      return (await domains.findClaim(hostname, token))?.verification_token
    },

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
      // One claim per workspace (`http://` and `https://` of a host are the same domain); a name
      // another workspace has proven control of is theirs. Unproven claims of others do not
      // stand in the way: whoever proves control first keeps the name (ADR 031).
      const claims = await domains.claimsOf(origin.hostname)
      if (claims.some((claim) => claim.account_id === account.id)) throw new DuplicateError(DOMAIN_TAKEN, 'domain')
      if (claims.some((claim) => claim.status === 'verified')) {
        throw new DuplicateError(`The domain has been already used: another workspace has proven control of ${origin.hostname}.`, 'domain')
      }
      if (dnsCheckEnabled && !(await isPointingToServer(origin.hostname, options.server, options.resolveHost))) {
        throw ConflictError.domainNotPointing()
      }
      try {
        const created = await journal.write(account, async (trx) => {
          const domain = await domains.in(trx).insert(account.id, {
            ...origin,
            redirectRoot: redirectValue(input.redirectroot) ?? null,
            redirect404: redirectValue(input.redirect404) ?? null,
            verificationToken: randomBytes(18).toString('base64url'),
            checksSince: nowTimestamp(clock()),
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
        const [record] = await recordsOf([updated])
        return { result: updated, changes: [{ action: 'domain.updated', resource: 'domain', resourceId: id, fields: givenFields(input), record: record! }] }
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
      // The name's proven owner has let it go: the other workspaces' claims are checked again.
      if (domain.status === 'verified') await domains.reopenClaims(domain.hostname, nowTimestamp(clock()))
      options.invalidation.publish(DOMAIN_TOPIC, domain.hostname)
    },
  }
}

export type DomainService = ReturnType<typeof createDomainService>
