// Bio pages as channel items (spec: item type `bio`).
import { defineItemSource, type ChannelItemSource } from '../channels/channel-items.js'
import { isHttpUrl } from '../../core/urls.js'
import { bioPageUrl } from './bio-page.mapper.js'
import type { BioPageRepository } from './bio-page.repository.js'

/** Bio pages as channel items: titled by name; link is the public page, preview its avatar (else the page). */
export function createBioPageItemSource(pages: Pick<BioPageRepository, 'ownedIds' | 'ownedIdsAmong' | 'findChannelItems'>, publicUrl: string): ChannelItemSource {
  return defineItemSource(pages, async (accountId, ids) => {
    const rows = await pages.findChannelItems(accountId, ids)
    return rows.map((row) => {
      const pageUrl = bioPageUrl(publicUrl, row.alias)
      return [row.id, { title: row.name, preview: row.avatar && isHttpUrl(row.avatar) ? row.avatar : pageUrl, link: pageUrl }]
    })
  })
}
