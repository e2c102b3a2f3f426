// Queries every account-scoped table answers the same way: how many rows an account owns, and
// deleting one of them (a row of another account is simply not found).
import type { DB } from './database.js'
import type { Database } from './schema.js'

/** Tables with an `id` and an `account_id` column. */
export type OwnedTable = {
  [T in keyof Database]: Database[T] extends { account_id: number; id: unknown } ? T : never
}[keyof Database]

/** Number of rows of `table` owned by the account (plan limits). */
export async function countOwnedRows(db: DB, table: OwnedTable, accountId: number): Promise<number> {
  // One concrete table name stands for all of them: the query shape is the same for each.
  const row = await db
    .selectFrom(table as 'campaigns')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Deletes the account's row `id` of `table`; false when the account has no such row. */
export async function deleteOwnedRow(db: DB, table: OwnedTable, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom(table as 'campaigns')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
