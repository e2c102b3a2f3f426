// Bio pages as channel items (spec: item type `bio`).
import type { DB } from '../../db/database.js'
import type { ChannelItemDescription, ChannelItemSource } from '../channels/channel-items.js'
import { isHttpUrl } from './bio-page-blocks.js'
import { bioPageUrl } from './bio-page.mapper.js'

/** Bio pages as channel items: titled by name; link is the public page, preview its avatar (else the page). */
export function createBioPageItemSource(db: DB, publicUrl: string): ChannelItemSource {
  const ownedIds = (accountId: number) => db.selectFrom('bio_pages').select('id').where('account_id', '=', accountId)
  return {
    ownedIds,

    async exists(accountId, id) {
      return (await ownedIds(accountId).where('id', '=', id).executeTakeFirst()) !== undefined
    },

    async describe(accountId, ids) {
      const described = new Map<number, ChannelItemDescription>()
      if (ids.length === 0) return described
      const rows = await db.selectFrom('bio_pages').select(['id', 'name', 'alias', 'avatar']).where('account_id', '=', accountId).where('id', 'in', ids).execute()
      for (const row of rows) {
        const pageUrl = bioPageUrl(publicUrl, row.alias)
        described.set(row.id, { title: row.name, preview: row.avatar && isHttpUrl(row.avatar) ? row.avatar : pageUrl, link: pageUrl })
      }
      return described
    },
  }
}
