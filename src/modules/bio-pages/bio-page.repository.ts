// SQL for bio pages. Every method is scoped by account id. Whether an alias is free is asked of the
// aliases module (modules/aliases/alias.repository.ts), the public look-up of the resolver
// (modules/visits/alias-resolver.repository.ts).
import { inTransaction } from '../../db/transactions.js'
import { findOwnedRow, ownershipQueries } from '../../db/owned-rows.js'
import type { DB } from '../../db/database.js'
import { fetchPage } from '../../db/paging.js'
import type { BioPageRow } from '../../db/schema.js'
import { removeItemFromAllChannels } from '../channels/channel-items.repository.js'
import type { BioBlock } from './bio-page-blocks.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

export interface BioPageValues {
  alias: string
  name: string
  description: string
  avatar: string | null
  blocks: BioBlock[]
}

export function createBioPageRepository(db: DB) {
  return {
    ...ownershipQueries(db, 'bio_pages'),

    /** What a channel shows of the account's pages among `ids`. */
    findChannelItems(accountId: number, ids: readonly number[]) {
      return db.selectFrom('bio_pages').select(['id', 'name', 'alias', 'avatar']).where('account_id', '=', accountId).where('id', 'in', [...ids]).execute()
    },

    /** One page of the account's bio pages, each with its all-time visits (the click_totals counter; 0 before the first). */
    /** A page of the account's bio pages, newest first; `ids` (when given) keeps only those. */
    async listPage(accountId: number, page: PageRequest, ids?: readonly number[]) {
      if (ids !== undefined && ids.length === 0) return { rows: [], total: 0 }
      const owned = db.selectFrom('bio_pages').where('account_id', '=', accountId)
      return fetchPage(ids === undefined ? owned : owned.where('id', 'in', [...ids]), page, (q) =>
        q
          .selectAll()
          .select((eb) =>
            eb
              .selectFrom('click_totals')
              .select('click_totals.clicks')
              .where('click_totals.item_type', '=', 'bio')
              .whereRef('click_totals.item_id', '=', 'bio_pages.id')
              .where('click_totals.dimension', '=', 'clicks')
              .where('click_totals.value', '=', '')
              .as('clicks'),
          )
          .orderBy('id', 'desc'),
      )
    },

    async findById(accountId: number, id: number): Promise<BioPageRow | undefined> {
      return findOwnedRow(db, 'bio_pages', accountId, id)
    },

    async count(accountId: number): Promise<number> {
      const row = await db.selectFrom('bio_pages').select((eb) => eb.fn.countAll<number>().as('count')).where('account_id', '=', accountId).executeTakeFirstOrThrow()
      return Number(row.count)
    },

    /** Inserts; throws the driver's unique violation when the alias (in any letter case) is taken meanwhile. */
    async insert(accountId: number, values: BioPageValues): Promise<BioPageRow> {
      const now = nowTimestamp()
      return db
        .insertInto('bio_pages')
        .values({
          account_id: accountId,
          alias: values.alias,
          name: values.name,
          description: values.description,
          avatar: values.avatar,
          blocks: JSON.stringify(values.blocks),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** Replaces every field; undefined when the account has no such page. */
    async update(accountId: number, id: number, values: BioPageValues): Promise<BioPageRow | undefined> {
      return db
        .updateTable('bio_pages')
        .set({
          alias: values.alias,
          name: values.name,
          description: values.description,
          avatar: values.avatar,
          blocks: JSON.stringify(values.blocks),
          updated_at: nowTimestamp(),
        })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst()
    },

    /** Deletes the page and its channel memberships together; answers the deleted row, if any. */
    async delete(accountId: number, id: number): Promise<BioPageRow | undefined> {
      return inTransaction(db, async (trx) => {
        const deleted = await trx.deleteFrom('bio_pages').where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst()
        if (deleted) await removeItemFromAllChannels(trx, accountId, 'bio', id)
        return deleted
      })
    },
  }
}

export type BioPageRepository = ReturnType<typeof createBioPageRepository>
