// SQL for channels. Every method is scoped by account id.
import { inTransaction } from '../../db/transactions.js'
import { createChannelItemRepository } from './channel-items.repository.js'
import type { DB } from '../../db/database.js'
import { findOwnedRow, ownershipQueries } from '../../db/owned-rows.js'
import { fetchPage } from '../../db/paging.js'
import type { ChannelRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

export interface ChannelValues {
  name: string
  description: string
  color: string
  starred: boolean
}

export function createChannelRepository(db: DB) {
  async function findById(accountId: number, id: number): Promise<ChannelRow | undefined> {
    return findOwnedRow(db, 'channels', accountId, id)
  }

  return {
    ...ownershipQueries(db, 'channels'),
    findById,

    /** Starred channels first (they are the ones a person reaches for), then newest first. */
    async listPage(accountId: number, page: PageRequest) {
      return fetchPage(db.selectFrom('channels').where('account_id', '=', accountId), page, (q) => q.selectAll().orderBy('starred', 'desc').orderBy('id', 'desc'))
    },

    async findByName(accountId: number, name: string): Promise<ChannelRow | undefined> {
      return db.selectFrom('channels').selectAll().where('account_id', '=', accountId).where('name', '=', name).executeTakeFirst()
    },

    async insert(accountId: number, values: ChannelValues): Promise<ChannelRow> {
      return db
        .insertInto('channels')
        .values({
          account_id: accountId,
          name: values.name,
          description: values.description,
          color: values.color,
          starred: values.starred ? 1 : 0,
          created_at: nowTimestamp(),
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    async update(accountId: number, id: number, changes: Partial<ChannelValues>): Promise<ChannelRow | undefined> {
      const values: { name?: string; description?: string; color?: string; starred?: number } = {}
      if (changes.name !== undefined) values.name = changes.name
      if (changes.description !== undefined) values.description = changes.description
      if (changes.color !== undefined) values.color = changes.color
      if (changes.starred !== undefined) values.starred = changes.starred ? 1 : 0
      // Nothing to change: answer the channel as it is (an empty SET is not valid SQL).
      if (Object.keys(values).length === 0) return findById(accountId, id)
      return db.updateTable('channels').set(values).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst()
    },

    /** Deletes the channel and unassigns its items in one transaction; false when no such channel. */
    async delete(accountId: number, id: number): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        // The foreign key cascades too; deleting explicitly keeps the rule visible and dialect-proof.
        await createChannelItemRepository(trx).removeAllOf(accountId, id)
        const result = await trx.deleteFrom('channels').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
        return Number(result.numDeletedRows) > 0
      })
    },
  }
}

export type ChannelRepository = ReturnType<typeof createChannelRepository>
