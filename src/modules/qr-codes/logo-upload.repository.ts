// SQL for uploaded QR logos (migration 032). Every method but the collection is scoped by account.
import type { DB } from '../../db/database.js'
import { countOwnedRows } from '../../db/owned-rows.js'

export function createLogoUploadRepository(db: DB) {
  return {
    async insert(accountId: number, path: string, image: Buffer, at: string): Promise<void> {
      await db.insertInto('logo_uploads').values({ account_id: accountId, path, image, created_at: at, used_at: at }).execute()
    },

    /** The account's upload at `path`, marked used at `at`; undefined when the account has none there. */
    async take(accountId: number, path: string, at: string): Promise<Buffer | undefined> {
      const row = await db.updateTable('logo_uploads').set({ used_at: at }).where('account_id', '=', accountId).where('path', '=', path).returning('image').executeTakeFirst()
      return row?.image
    },

    /** Uploads the account keeps (its plan's `logos`). */
    count(accountId: number): Promise<number> {
      return countOwnedRows(db, 'logo_uploads', accountId)
    },

    /** Deletes every account's uploads unused since `before`; answers how many went. */
    async deleteUnusedSince(before: string): Promise<number> {
      const result = await db.deleteFrom('logo_uploads').where('used_at', '<', before).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}

export type LogoUploadRepository = ReturnType<typeof createLogoUploadRepository>
