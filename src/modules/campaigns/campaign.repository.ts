// SQL for campaigns. Every method is scoped by account id.
import { inTransaction } from '../../db/transactions.js'
import { randomUUID } from 'node:crypto'
import type { DB } from '../../db/database.js'
import { deleteOwnedRow, fetchOwnedPage, findOwnedRow, ownershipQueries } from '../../db/owned-rows.js'
import type { CampaignRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

export function createCampaignRepository(db: DB) {
  return {
    ...ownershipQueries(db, 'campaigns'),
    async listPage(accountId: number, page: PageRequest) {
      return fetchOwnedPage(db, 'campaigns', accountId, page)
    },

    async findById(accountId: number, id: number): Promise<CampaignRow | undefined> {
      return findOwnedRow(db, 'campaigns', accountId, id)
    },

    async findByName(accountId: number, name: string): Promise<CampaignRow | undefined> {
      return db.selectFrom('campaigns').selectAll().where('account_id', '=', accountId).where('name', '=', name).executeTakeFirst()
    },

    /** Slugs are unique across the whole service: rotator URLs carry no account. */
    async findBySlug(slug: string): Promise<CampaignRow | undefined> {
      return db.selectFrom('campaigns').selectAll().where('slug', '=', slug).executeTakeFirst()
    },

    /** Inserts; without a name the campaign is called `Campaign <id>`. */
    async insert(accountId: number, input: { name: string | undefined; slug: string | null; isPublic: boolean }): Promise<CampaignRow> {
      return inTransaction(db, async (trx) => {
        const row = await trx
          .insertInto('campaigns')
          .values({
            account_id: accountId,
            // Unique placeholder, replaced by `Campaign <id>` in the same transaction.
            name: input.name ?? `pending-${randomUUID()}`,
            slug: input.slug,
            is_public: input.isPublic ? 1 : 0,
            created_at: nowTimestamp(),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        if (input.name !== undefined) return row
        return trx.updateTable('campaigns').set({ name: `Campaign ${row.id}` }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow()
      })
    },

    async update(accountId: number, id: number, changes: { name: string; slug?: string | null; isPublic?: boolean }): Promise<CampaignRow | undefined> {
      const values: { name: string; slug?: string | null; is_public?: number } = { name: changes.name }
      if (changes.slug !== undefined) values.slug = changes.slug
      if (changes.isPublic !== undefined) values.is_public = changes.isPublic ? 1 : 0
      return db.updateTable('campaigns').set(values).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst()
    },

    /** Deletes the campaign (its links are unassigned first, by the link repository, in the same transaction); false when no such campaign. */
    async delete(accountId: number, id: number): Promise<boolean> {
      return deleteOwnedRow(db, 'campaigns', accountId, id)
    },
  }
}

export type CampaignRepository = ReturnType<typeof createCampaignRepository>
