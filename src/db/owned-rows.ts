// Queries every account-scoped table answers the same way: one row of the account, a page of its
// rows, how many rows it owns, changing and deleting one of them (a row of another account is
// simply not found).
import type { DB } from './database.js'
import type { Selectable, UpdateObject } from 'kysely'
import type { Page, PageRequest } from '../core/paging.js'
import { fetchPage } from './paging.js'
import type { Database } from './schema.js'

/** Tables with an `id` and an `account_id` column. */
export type OwnedTable = {
  [T in keyof Database]: Database[T] extends { account_id: number; id: unknown } ? T : never
}[keyof Database]

/** The account's row `id` of `table`, every column; undefined when the account has no such row. */
export async function findOwnedRow<T extends OwnedTable>(db: DB, table: T, accountId: number, id: number): Promise<Selectable<Database[T]> | undefined> {
  const owned: OwnedTable = table
  const row = await db.selectFrom(owned).selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
  return row as Selectable<Database[T]> | undefined
}

/** One page of the account's rows of `table`, every column, newest (highest id) first. */
export async function fetchOwnedPage<T extends OwnedTable>(db: DB, table: T, accountId: number, page: PageRequest): Promise<Page<Selectable<Database[T]>>> {
  const owned: OwnedTable = table
  const fetched = await fetchPage(db.selectFrom(owned).where('account_id', '=', accountId), page, (q) => q.selectAll().orderBy('id', 'desc'))
  return fetched as Page<Selectable<Database[T]>>
}

/** Number of rows of `table` owned by the account (plan limits). */
export async function countOwnedRows(db: DB, table: OwnedTable, accountId: number): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** A one-column subquery of the ids of `table` the account owns (a listing skips deleted records in SQL). */
export function ownedIdsQuery(db: DB, table: OwnedTable, accountId: number) {
  // One concrete table name stands for all of them: the query shape is the same for each.
  return db.selectFrom(table as 'pixels').select('id').where('account_id', '=', accountId)
}

/** Those of `ids` the account owns in `table` (another account's are simply not among them). */
export async function ownedIdsAmong(db: DB, table: OwnedTable, accountId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return []
  const rows = await ownedIdsQuery(db, table, accountId).where('id', 'in', [...ids]).execute()
  return rows.map((row) => row.id)
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

/**
 * What every account-owned table's repository answers alike, spread into it: how many rows the
 * account has (plan limits), which of some ids it owns (a link's campaign or pixels, a channel's
 * items), and its ids as a one-column subquery (a channel's listing skips deleted items in SQL).
 */
export function ownershipQueries(db: DB, table: OwnedTable) {
  return {
    count: (accountId: number): Promise<number> => countOwnedRows(db, table, accountId),
    ownedIdsAmong: (accountId: number, ids: readonly number[]): Promise<number[]> => ownedIdsAmong(db, table, accountId, ids),
    ownedIds: (accountId: number) => ownedIdsQuery(db, table, accountId),
  }
}
