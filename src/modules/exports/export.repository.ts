// What an export reads: an account's links in id order and its raw clicks in time order, one page
// after another (keyset paging: each page starts after the last row of the one before, so a page
// costs the same at the millionth row as at the first, and no row is read twice).
import type { DB } from '../../db/database.js'
import { orderedIdList } from '../../db/id-lists.js'
import type { LinkWithDomain } from '../links/link.repository.js'
import { createTagRepository } from '../tags/tag.repository.js'

export interface ExportedLinkRow extends LinkWithDomain {
  /** The link's pixel ids, in order (JSON text of a list, or null). */
  pixel_list: string | null
  campaign_name: string | null
  /** The name of the channel the link joined first (a link in several channels exports that one). */
  channel_name: string | null
  /** The link's tags' names, by name. */
  tag_names: string[]
}

export interface ExportedClickRow {
  id: number
  created_at: string
  item_type: string
  item_id: number
  country: string | null
  referrer_host: string | null
  browser: string | null
  os: string | null
  device: string | null
  language: string | null
  is_unique: number
}

export function createExportRepository(db: DB) {
  return {
    /** Up to `limit` of the account's links with ids above `afterId`, lowest first. */
    async linksAfter(accountId: number, afterId: number, limit: number): Promise<ExportedLinkRow[]> {
      const rows = await db
        .selectFrom('links')
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .leftJoin('campaigns', 'campaigns.id', 'links.campaign_id')
        .selectAll('links')
        .select(['domains.domain as domain_origin', 'campaigns.name as campaign_name'])
        .select((eb) => eb.selectFrom('channel_items').innerJoin('channels', 'channels.id', 'channel_items.channel_id').select('channels.name')
          .where('channel_items.item_type', '=', 'links').whereRef('channel_items.item_id', '=', 'links.id').orderBy('channel_items.id').limit(1).as('channel_name'))
        .select((eb) => eb.selectFrom('link_pixels').select(orderedIdList(db, 'link_pixels.pixel_id').as('ids')).whereRef('link_pixels.link_id', '=', 'links.id').as('pixel_list'))
        .where('links.account_id', '=', accountId)
        .where('links.id', '>', afterId)
        .orderBy('links.id')
        .limit(limit)
        .execute()
      // The page's tags in one query more (names may hold any printable character: no aggregate text to split).
      const tagsOf = await createTagRepository(db).namesOf('link', rows.map((row) => row.id))
      return rows.map((row) => ({ ...row, tag_names: tagsOf.get(row.id) ?? [] }))
    },

    /**
     * Up to `limit` of the account's raw clicks recorded in [from, to] after the click `after`,
     * oldest first (time, then id). Ordered by the account's time index (clicks_account_created_idx, migration 029), each page a seek
     * to its first row: ordering by id instead made every page sort the whole range again.
     */
    clicksAfter(accountId: number, range: { from: string; to: string }, after: { at: string; id: number } | undefined, limit: number): Promise<ExportedClickRow[]> {
      let query = db
        .selectFrom('clicks')
        .select(['id', 'created_at', 'item_type', 'item_id', 'country', 'referrer_host', 'browser', 'os', 'device', 'language', 'is_unique'])
        .where('account_id', '=', accountId)
        .where('created_at', '>=', after && after.at > range.from ? after.at : range.from)
        .where('created_at', '<=', range.to)
      if (after) query = query.where((eb) => eb.or([eb('created_at', '>', after.at), eb('id', '>', after.id)]))
      return query.orderBy('created_at').orderBy('id').limit(limit).execute()
    },
  }
}

export type ExportRepository = ReturnType<typeof createExportRepository>
