// SQL for UTM templates. Every method is scoped by account id.
import type { DB } from '../../db/database.js'
import { deleteOwnedRow, fetchOwnedPage, findOwnedRow, updateOwnedRow } from '../../db/owned-rows.js'
import type { UtmTemplateRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

export function createUtmTemplateRepository(db: DB) {
  return {
    findById(accountId: number, id: number): Promise<UtmTemplateRow | undefined> {
      return findOwnedRow(db, 'utm_templates', accountId, id)
    },

    listPage(accountId: number, page: PageRequest) {
      return fetchOwnedPage(db, 'utm_templates', accountId, page)
    },

    async insert(accountId: number, values: { name: string; utm: string }): Promise<UtmTemplateRow> {
      const now = nowTimestamp()
      return db.insertInto('utm_templates').values({ account_id: accountId, name: values.name, utm: values.utm, created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow()
    },

    /** Sets the given fields; false when the account has no such template. */
    update(accountId: number, id: number, changes: { name?: string; utm?: string }): Promise<boolean> {
      const given = changes.name === undefined && changes.utm === undefined ? {} : { ...changes, updated_at: nowTimestamp() }
      return updateOwnedRow(db, 'utm_templates', accountId, id, given)
    },

    delete(accountId: number, id: number): Promise<boolean> {
      return deleteOwnedRow(db, 'utm_templates', accountId, id)
    },
  }
}

export type UtmTemplateRepository = ReturnType<typeof createUtmTemplateRepository>
