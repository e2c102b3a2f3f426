// SQL for CTA overlays. Every method is scoped by account id.
import type { DB } from '../../db/database.js'
import { countOwnedRows, deleteOwnedRow } from '../../db/owned-rows.js'
import { nowTimestamp } from '../../db/dialect.js'
import { fetchPage } from '../../db/paging.js'
import type { OverlayRow } from '../../db/schema.js'
import type { PageRequest } from '../../http/list.js'
import type { ConfigValue } from './config-json.js'

export function createOverlayRepository(db: DB) {
  return {
    async listPage(accountId: number, page: PageRequest) {
      return fetchPage(db.selectFrom('overlays').where('account_id', '=', accountId), page, (q) => q.selectAll().orderBy('id', 'desc'))
    },

    async findById(accountId: number, id: number): Promise<OverlayRow | undefined> {
      return db.selectFrom('overlays').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
    },

    count(accountId: number): Promise<number> {
      return countOwnedRows(db, 'overlays', accountId)
    },

    async insert(accountId: number, input: { type: string; name: string; config: Record<string, ConfigValue> }): Promise<OverlayRow> {
      return db
        .insertInto('overlays')
        .values({ account_id: accountId, type: input.type, name: input.name, config: JSON.stringify(input.config), created_at: nowTimestamp() })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** Replaces name and config; false when the account has no such overlay. */
    async update(accountId: number, id: number, changes: { name: string; config: Record<string, ConfigValue> }): Promise<boolean> {
      const result = await db
        .updateTable('overlays')
        .set({ name: changes.name, config: JSON.stringify(changes.config) })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    delete(accountId: number, id: number): Promise<boolean> {
      return deleteOwnedRow(db, 'overlays', accountId, id)
    },
  }
}

export type OverlayRepository = ReturnType<typeof createOverlayRepository>
