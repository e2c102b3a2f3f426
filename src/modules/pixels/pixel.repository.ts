// SQL for tracking pixels. Every method is scoped by account id.
import type { DB } from '../../db/database.js'
import { deleteOwnedRow, fetchOwnedPage, findOwnedRow, ownershipQueries, updateOwnedRow } from '../../db/owned-rows.js'
import type { PixelRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

export function createPixelRepository(db: DB) {
  async function findById(accountId: number, id: number): Promise<PixelRow | undefined> {
    return findOwnedRow(db, 'pixels', accountId, id)
  }

  return {
    ...ownershipQueries(db, 'pixels'),
    findById,

    async listPage(accountId: number, page: PageRequest) {
      return fetchOwnedPage(db, 'pixels', accountId, page)
    },

    async findByTypeAndTag(accountId: number, type: string, tag: string): Promise<PixelRow | undefined> {
      return db.selectFrom('pixels').selectAll().where('account_id', '=', accountId).where('type', '=', type).where('tag', '=', tag).executeTakeFirst()
    },

    async insert(accountId: number, input: { type: string; name: string; tag: string }): Promise<PixelRow> {
      return db
        .insertInto('pixels')
        .values({ account_id: accountId, type: input.type, name: input.name, tag: input.tag, created_at: nowTimestamp() })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** Sets the given fields; false when the account has no such pixel. */
    update(accountId: number, id: number, changes: { name?: string; tag?: string }): Promise<boolean> {
      return updateOwnedRow(db, 'pixels', accountId, id, changes)
    },

    delete(accountId: number, id: number): Promise<boolean> {
      return deleteOwnedRow(db, 'pixels', accountId, id)
    },
  }
}

export type PixelRepository = ReturnType<typeof createPixelRepository>
