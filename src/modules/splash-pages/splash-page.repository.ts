// SQL for custom splash pages. Every method is scoped by account id.
import type { DB } from '../../db/database.js'
import { countOwnedRows, deleteOwnedRow } from '../../db/owned-rows.js'
import { nowTimestamp } from '../../db/dialect.js'
import { fetchPage } from '../../db/paging.js'
import type { SplashPageRow } from '../../db/schema.js'
import type { PageRequest } from '../../http/list.js'
import type { ConfigValue } from '../overlays/config-json.js'

export function createSplashPageRepository(db: DB) {
  return {
    async listPage(accountId: number, page: PageRequest) {
      return fetchPage(db.selectFrom('splash_pages').where('account_id', '=', accountId), page, (q) => q.selectAll().orderBy('id', 'desc'))
    },

    async findById(accountId: number, id: number): Promise<SplashPageRow | undefined> {
      return db.selectFrom('splash_pages').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
    },

    count(accountId: number): Promise<number> {
      return countOwnedRows(db, 'splash_pages', accountId)
    },

    async insert(accountId: number, input: { name: string; config: Record<string, ConfigValue> }): Promise<SplashPageRow> {
      return db
        .insertInto('splash_pages')
        .values({ account_id: accountId, name: input.name, config: JSON.stringify(input.config), created_at: nowTimestamp() })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** Replaces name and config; false when the account has no such page. */
    async update(accountId: number, id: number, changes: { name: string; config: Record<string, ConfigValue> }): Promise<boolean> {
      const result = await db
        .updateTable('splash_pages')
        .set({ name: changes.name, config: JSON.stringify(changes.config) })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    delete(accountId: number, id: number): Promise<boolean> {
      return deleteOwnedRow(db, 'splash_pages', accountId, id)
    },
  }
}

export type SplashPageRepository = ReturnType<typeof createSplashPageRepository>
