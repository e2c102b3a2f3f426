// Short links as channel items (spec: item type `links`): titled by their title or destination,
// linked by their short URL, previewed by their destination.
import type { DB } from '../../db/database.js'
import { defineItemSource, type ChannelItemSource } from '../channels/channel-items.js'
import { shortUrl } from '../aliases/alias-namespace.js'

export function createShortLinkItemSource(db: DB, publicUrl: string): ChannelItemSource {
  return defineItemSource(db, 'links', async (accountId, ids) => {
    const rows = await db
      .selectFrom('links')
      .leftJoin('domains', 'domains.id', 'links.domain_id')
      .select(['links.id', 'links.alias', 'links.url', 'links.title', 'domains.domain as domain_origin'])
      .where('links.account_id', '=', accountId)
      .where('links.id', 'in', ids)
      .execute()
    return rows.map((row) => [row.id, { title: row.title ?? row.url, preview: row.url, link: shortUrl(publicUrl, row.domain_origin, row.alias) }])
  })
}
