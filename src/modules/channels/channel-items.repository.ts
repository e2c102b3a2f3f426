// SQL for channel membership (`channel_items`). Every method is scoped by account id.
import type { DB } from '../../db/database.js'
import { fetchPage } from '../../db/paging.js'
import type { ChannelItemSources, ChannelItemType } from './channel-items.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

/**
 * Takes an item out of every channel of the account. Called by an item's module when the item is
 * deleted: membership rows point at several tables, so no foreign key can cascade them.
 */
export async function removeItemFromAllChannels(db: DB, accountId: number, itemType: ChannelItemType, itemId: number): Promise<void> {
  await db.deleteFrom('channel_items').where('account_id', '=', accountId).where('item_type', '=', itemType).where('item_id', '=', itemId).execute()
}

export function createChannelItemRepository(db: DB) {
  return {
    /** Takes every item out of the account's channel (the channel is being deleted). */
    async removeAllOf(accountId: number, channelId: number): Promise<void> {
      await db.deleteFrom('channel_items').where('account_id', '=', accountId).where('channel_id', '=', channelId).execute()
    },

    /** One page of a channel's items, newest assignment first, skipping items whose record is gone. */
    async listPage(accountId: number, channelId: number, sources: ChannelItemSources, page: PageRequest) {
      const live = Object.entries(sources).filter((entry): entry is [ChannelItemType, NonNullable<(typeof entry)[1]>] => entry[1] !== undefined)
      const filtered = db
        .selectFrom('channel_items')
        .where('account_id', '=', accountId)
        .where('channel_id', '=', channelId)
        .where((eb) => eb.or(live.map(([type, source]) => eb.and([eb('item_type', '=', type), eb('item_id', 'in', source.ownedIds(accountId))]))))
      return fetchPage(filtered, page, (q) => q.select(['item_type', 'item_id', 'created_at']).orderBy('id', 'desc'))
    },

    /** A one-column subquery of the ids of a channel's items of one type (none for another account's channel). */
    memberIds(accountId: number, channelId: number, itemType: ChannelItemType) {
      return db
        .selectFrom('channel_items')
        .select('item_id')
        .where('account_id', '=', accountId)
        .where('channel_id', '=', channelId)
        .where('item_type', '=', itemType)
    },

    async contains(accountId: number, channelId: number, itemType: ChannelItemType, itemId: number): Promise<boolean> {
      const row = await db
        .selectFrom('channel_items')
        .select('id')
        .where((eb) => eb.and({ account_id: accountId, channel_id: channelId, item_type: itemType, item_id: itemId }))
        .executeTakeFirst()
      return row !== undefined
    },

    /** Takes one item out of one channel; false when it was not in it. */
    async remove(accountId: number, channelId: number, itemType: ChannelItemType, itemId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('channel_items')
        .where((eb) => eb.and({ account_id: accountId, channel_id: channelId, item_type: itemType, item_id: itemId }))
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    async insert(accountId: number, channelId: number, itemType: ChannelItemType, itemId: number): Promise<void> {
      await db
        .insertInto('channel_items')
        .values({ account_id: accountId, channel_id: channelId, item_type: itemType, item_id: itemId, created_at: nowTimestamp() })
        .execute()
    },
  }
}

export type ChannelItemRepository = ReturnType<typeof createChannelItemRepository>
