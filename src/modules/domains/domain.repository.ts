// SQL for branded domains. Every method is scoped by account id, except what concerns a hostname
// across workspaces: several may claim one, one at most has proven control of it (ADR 031).
import type { DB } from '../../db/database.js'
import { deleteOwnedRow, fetchOwnedPage, findOwnedRow, ownershipQueries, updateOwnedRow } from '../../db/owned-rows.js'
import type { CertificateStatus, DomainRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

export interface DomainRedirects {
  redirectRoot?: string | null
  redirect404?: string | null
}

export function createDomainRepository(db: DB) {
  async function findById(accountId: number, id: number): Promise<DomainRow | undefined> {
    return findOwnedRow(db, 'domains', accountId, id)
  }

  return {
    ...ownershipQueries(db, 'domains'),
    findById,

    /** The account's branded domain by id or by hostname (a link names its domain either way). */
    async findByIdOrHostname(accountId: number, by: { id: number } | { hostname: string }) {
      const query = db.selectFrom('domains').select(['id', 'domain', 'hostname']).where('account_id', '=', accountId)
      return ('id' in by ? query.where('id', '=', by.id) : query.where('hostname', '=', by.hostname)).executeTakeFirst()
    },

    async listPage(accountId: number, page: PageRequest) {
      return fetchOwnedPage(db, 'domains', accountId, page)
    },

    /** Every workspace's claim on `hostname`, oldest first. */
    claimsOf(hostname: string): Promise<DomainRow[]> {
      return db.selectFrom('domains').selectAll().where('hostname', '=', hostname).orderBy('id').execute()
    },

    /** The claim of `hostname` whose challenge token is `token` (the HTTP proof's answer). */
    async findClaim(hostname: string, token: string): Promise<DomainRow | undefined> {
      return db.selectFrom('domains').selectAll().where('hostname', '=', hostname).where('verification_token', '=', token).executeTakeFirst()
    },

    /** True when some workspace has proven control of `hostname`. */
    async isVerified(hostname: string): Promise<boolean> {
      return (await db.selectFrom('domains').select('id').where('hostname', '=', hostname).where('status', '=', 'verified').executeTakeFirst()) !== undefined
    },

    /** The hostnames proven by some workspace (the names certificates are ordered for). */
    async verifiedHostnames(): Promise<string[]> {
      return (await db.selectFrom('domains').select('hostname').where('status', '=', 'verified').orderBy('hostname').execute()).map((row) => row.hostname)
    },

    /** Claims whose background check is due at `now`, at most `limit`. */
    due(now: string, limit: number): Promise<DomainRow[]> {
      return db.selectFrom('domains').selectAll()
        .where('next_check_at', '<=', now).where('status', '!=', 'verified').where('released_at', 'is', null)
        .orderBy('next_check_at').limit(limit).execute()
    },

    /**
     * Takes a due claim for one check: moves its next check to `leaseUntil` unless another
     * instance already did (its `next_check_at` is no longer `seen`). True when this one took it.
     */
    async take(id: number, seen: string, leaseUntil: string): Promise<boolean> {
      const result = await db.updateTable('domains').set({ next_check_at: leaseUntil }).where('id', '=', id).where('next_check_at', '=', seen).executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /** Writes a check that found no proof: its finding, state and next check. */
    async recordFailedCheck(id: number, check: { at: string; problem: string; status: 'pending' | 'failed'; next: string | null }): Promise<void> {
      await db.updateTable('domains').set({ checked_at: check.at, check_error: check.problem, status: check.status, next_check_at: check.next }).where('id', '=', id).where('status', '!=', 'verified').execute()
    },

    /** Starts the schedule of checks again from `at` (a person asked for a check). */
    async restartChecks(id: number, at: string): Promise<void> {
      await db.updateTable('domains').set({ checks_since: at }).where('id', '=', id).execute()
    },

    /**
     * Marks the claim verified (the partial unique index lets one claim per hostname be). Throws
     * the driver's unique violation when another workspace's claim was verified first.
     */
    async markVerified(id: number, method: 'txt' | 'http', at: string): Promise<void> {
      await db.updateTable('domains')
        .set({ status: 'verified', verified_by: method, verified_at: at, checked_at: at, check_error: null, next_check_at: null, released_at: null })
        .where('id', '=', id)
        .execute()
    },

    /** Releases every other claim on `hostname` (another workspace proved control); answers them. */
    async releaseOtherClaims(hostname: string, keptId: number, at: string, message: string): Promise<DomainRow[]> {
      const others = await db.selectFrom('domains').selectAll().where('hostname', '=', hostname).where('id', '!=', keptId).where('released_at', 'is', null).execute()
      if (others.length === 0) return []
      await db.updateTable('domains')
        .set({ status: 'failed', released_at: at, check_error: message, next_check_at: null })
        .where('id', 'in', others.map((row) => row.id))
        .execute()
      return others.map((row) => ({ ...row, status: 'failed' as const, released_at: at, check_error: message, next_check_at: null }))
    },

    /** Makes the released claims on `hostname` claims again, checked from `at` (its proven owner has gone). */
    async reopenClaims(hostname: string, at: string): Promise<void> {
      await db.updateTable('domains')
        .set({ status: 'pending', released_at: null, check_error: null, checks_since: at, next_check_at: at })
        .where('hostname', '=', hostname).where('released_at', 'is not', null)
        .execute()
    },

    /** The certificate state of each of `hostnames` that has one. */
    async certificatesOf(hostnames: string[]): Promise<Map<string, { status: CertificateStatus; expires_at: string | null; error: string | null }>> {
      const found = new Map<string, { status: CertificateStatus; expires_at: string | null; error: string | null }>()
      if (hostnames.length === 0) return found
      const rows = await db.selectFrom('tls_certificates').select(['hostname', 'status', 'expires_at', 'error']).where('hostname', 'in', hostnames).execute()
      for (const row of rows) found.set(row.hostname, row)
      return found
    },

    async insert(accountId: number, input: { domain: string; hostname: string; redirectRoot: string | null; redirect404: string | null; verificationToken: string; checksSince: string }): Promise<DomainRow> {
      const now = nowTimestamp()
      return db
        .insertInto('domains')
        .values({
          account_id: accountId,
          domain: input.domain,
          hostname: input.hostname,
          redirect_root: input.redirectRoot,
          redirect_404: input.redirect404,
          created_at: now,
          verification_token: input.verificationToken,
          checks_since: input.checksSince,
          // The first background check comes at once.
          next_check_at: input.checksSince,
          checked_at: null,
          check_error: null,
          verified_at: null,
          verified_by: null,
          released_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** Changes the given redirects only; false when the account has no such domain. */
    updateRedirects(accountId: number, id: number, changes: DomainRedirects): Promise<boolean> {
      return updateOwnedRow(db, 'domains', accountId, id, { redirect_root: changes.redirectRoot, redirect_404: changes.redirect404 })
    },

    delete(accountId: number, id: number): Promise<boolean> {
      return deleteOwnedRow(db, 'domains', accountId, id)
    },
  }
}

export type DomainRepository = ReturnType<typeof createDomainRepository>
