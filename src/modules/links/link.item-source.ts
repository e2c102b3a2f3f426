// Short links as channel items (spec: item type `links`): titled by their title or destination,
// linked by their short URL, previewed by their destination.
import { defineItemSource, type ChannelItemSource } from '../channels/channel-items.js'
import { shortUrl } from '../aliases/alias-namespace.js'
import type { LinkRepository } from './link.repository.js'

export function createShortLinkItemSource(links: Pick<LinkRepository, 'ownedIds' | 'ownedIdsAmong' | 'findSummaries'>, publicUrl: string): ChannelItemSource {
  return defineItemSource(links, async (accountId, ids) => {
    const rows = await links.findSummaries(accountId, ids)
    return rows.map((row) => [row.id, { title: row.title ?? row.url, preview: row.url, link: shortUrl(publicUrl, row.domainOrigin, row.alias) }])
  })
}
