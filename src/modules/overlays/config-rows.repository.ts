// SQL shared by the two tables whose records are a name plus a JSON `config` (CTA overlays and
// splash pages): listing, reading, counting, updating and deleting are the same for both.
import type { DB } from '../../db/database.js'
import { deleteOwnedRow, fetchOwnedPage, findOwnedRow, ownershipQueries } from '../../db/owned-rows.js'
import type { Database } from '../../db/schema.js'
import type { Selectable } from 'kysely'
import type { ConfigValue } from './config-json.js'
import type { PageRequest } from '../../core/paging.js'

export type ConfigTable = 'overlays' | 'splash_pages'

/** Every method is scoped by account id; a record of another account is not found. */
export function createConfigRowsRepository<T extends ConfigTable>(db: DB, table: T) {
  type Row = Selectable<Database[T]>
  // One concrete table name stands for both: the queries touch only the columns they share.
  const rows = table as 'splash_pages'
  return {
    ...ownershipQueries(db, table),
    async listPage(accountId: number, page: PageRequest): Promise<{ rows: Row[]; total: number }> {
      return fetchOwnedPage(db, table, accountId, page) as Promise<{ rows: Row[]; total: number }>
    },

    async findById(accountId: number, id: number): Promise<Row | undefined> {
      return findOwnedRow(db, table, accountId, id) as Promise<Row | undefined>
    },

    /** Replaces name and config; false when the account has no such record. */
    async update(accountId: number, id: number, changes: { name: string; config: Record<string, ConfigValue> }): Promise<boolean> {
      const result = await db
        .updateTable(rows)
        .set({ name: changes.name, config: JSON.stringify(changes.config) })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    delete(accountId: number, id: number): Promise<boolean> {
      return deleteOwnedRow(db, table, accountId, id)
    },
  }
}
