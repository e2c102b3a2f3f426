// Bio pages as channel items (spec: item type `bio`).
import type { DB } from '../../db/database.js'
import { defineItemSource, type ChannelItemSource } from '../channels/channel-items.js'
import { isHttpUrl } from '../../core/urls.js'
import { bioPageUrl } from './bio-page.mapper.js'

/** Bio pages as channel items: titled by name; link is the public page, preview its avatar (else the page). */
export function createBioPageItemSource(db: DB, publicUrl: string): ChannelItemSource {
  return defineItemSource(db, 'bio_pages', async (accountId, ids) => {
    const rows = await db.selectFrom('bio_pages').select(['id', 'name', 'alias', 'avatar']).where('account_id', '=', accountId).where('id', 'in', ids).execute()
    return rows.map((row) => {
      const pageUrl = bioPageUrl(publicUrl, row.alias)
      return [row.id, { title: row.name, preview: row.avatar && isHttpUrl(row.avatar) ? row.avatar : pageUrl, link: pageUrl }]
    })
  })
}
