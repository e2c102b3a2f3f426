// Short links as channel items (spec: item type `links`): titled by their title or destination,
// linked by their short URL, previewed by their destination.
import type { DB } from '../../db/database.js'
import type { ChannelItemDescription, ChannelItemSource } from '../channels/channel-items.js'
import { shortUrl } from './link.mapper.js'

export function createShortLinkItemSource(db: DB, publicUrl: string): ChannelItemSource {
  const ownedIds = (accountId: number) => db.selectFrom('links').select('id').where('account_id', '=', accountId)
  return {
    ownedIds,

    async exists(accountId, id) {
      return (await ownedIds(accountId).where('id', '=', id).executeTakeFirst()) !== undefined
    },

    async describe(accountId, ids) {
      const described = new Map<number, ChannelItemDescription>()
      if (ids.length === 0) return described
      const rows = await db
        .selectFrom('links')
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .select(['links.id', 'links.alias', 'links.url', 'links.title', 'domains.domain as domain_origin'])
        .where('links.account_id', '=', accountId)
        .where('links.id', 'in', ids)
        .execute()
      for (const row of rows) {
        described.set(row.id, { title: row.title ?? row.url, preview: row.url, link: shortUrl(publicUrl, row.domain_origin, row.alias) })
      }
      return described
    },
  }
}
