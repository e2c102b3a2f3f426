// SQL for branded domains. Every method is scoped by account id, except the hostname lookup:
// a hostname belongs to one account across the whole service.
import type { DB } from '../../db/database.js'
import { countOwnedRows, deleteOwnedRow, fetchOwnedPage, findOwnedRow, updateOwnedRow } from '../../db/owned-rows.js'
import type { DomainRow } from '../../db/schema.js'
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
    findById,

    async listPage(accountId: number, page: PageRequest) {
      return fetchOwnedPage(db, 'domains', accountId, page)
    },

    /** Any account's domain with this hostname: hostnames are unique across the service. */
    async findByHostname(hostname: string): Promise<DomainRow | undefined> {
      return db.selectFrom('domains').selectAll().where('hostname', '=', hostname).executeTakeFirst()
    },

    count(accountId: number): Promise<number> {
      return countOwnedRows(db, 'domains', accountId)
    },

    async insert(accountId: number, input: { domain: string; hostname: string; redirectRoot: string | null; redirect404: string | null }): Promise<DomainRow> {
      return db
        .insertInto('domains')
        .values({
          account_id: accountId,
          domain: input.domain,
          hostname: input.hostname,
          redirect_root: input.redirectRoot,
          redirect_404: input.redirect404,
          created_at: nowTimestamp(),
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
