// Queries every account-scoped table answers the same way: how many rows an account owns, and
// deleting one of them (a row of another account is simply not found).
import type { DB } from './database.js'
import type { UpdateObject } from 'kysely'
import type { Database } from './schema.js'

/** Tables with an `id` and an `account_id` column. */
export type OwnedTable = {
  [T in keyof Database]: Database[T] extends { account_id: number; id: unknown } ? T : never
}[keyof Database]

/** Number of rows of `table` owned by the account (plan limits). */
export async function countOwnedRows(db: DB, table: OwnedTable, accountId: number): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Deletes the account's row `id` of `table`; false when the account has no such row. */
export async function deleteOwnedRow(db: DB, table: OwnedTable, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom(table)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/**
 * Sets `values` on the account's row `id` of `table`; false when the account has no such row. With
 * nothing to change (an empty SET is invalid SQL) the answer is whether the row exists.
 */
export async function updateOwnedRow<T extends OwnedTable>(db: DB, table: T, accountId: number, id: number, values: UpdateObject<Database, T>): Promise<boolean> {
  const owned: OwnedTable = table
  const changes = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))
  if (Object.keys(changes).length === 0) {
    return (await db.selectFrom(owned).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()) !== undefined
  }
  const result = await db.updateTable(owned).set(changes).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}
