// Items a channel can hold (spec: `links`, `bio`, `qr`) and where each type's records live.
// Items are polymorphic, so each type's module brings a source that knows its table (wired in
// src/services.ts); a type without a source has no items to assign or list.
import type { ChannelItemRow } from '../../db/schema.js'
import type { SelectQueryBuilder } from 'kysely'
import type { Database } from '../../db/schema.js'

export const CHANNEL_ITEM_TYPES = ['links', 'bio', 'qr'] as const

export type ChannelItemType = (typeof CHANNEL_ITEM_TYPES)[number]

/** How an item appears in a channel listing. */
export interface ChannelItemDescription {
  title: string
  preview: string
  link: string
}

export interface ChannelItemSource {
  /** True when the account owns a record of this type with this id. */
  exists(accountId: number, id: number): Promise<boolean>
  /** Describes those of `ids` the account still owns; ids of missing records are absent. */
  describe(accountId: number, ids: number[]): Promise<Map<number, ChannelItemDescription>>
  /** A one-column subquery of the ids the account owns, so listings skip deleted records in SQL. */
  ownedIds(accountId: number): SelectQueryBuilder<Database, any, { id: number }>
}

export type ChannelItemSources = Partial<Record<ChannelItemType, ChannelItemSource>>

/** What an item type's repository answers of its own table: the account's ids, as a subquery and among given ids. */
export interface ItemRecords {
  ownedIds(accountId: number): SelectQueryBuilder<Database, any, { id: number }>
  ownedIdsAmong(accountId: number, ids: readonly number[]): Promise<number[]>
}

/**
 * A source for one type: ownership is asked of its repository (`records`); `describeOwned`
 * describes the account's records among `ids` (never called with no ids).
 */
export function defineItemSource(
  records: ItemRecords,
  describeOwned: (accountId: number, ids: number[]) => Promise<Array<[number, ChannelItemDescription]>>,
): ChannelItemSource {
  return {
    ownedIds: (accountId) => records.ownedIds(accountId),
    async exists(accountId, id) {
      return (await records.ownedIdsAmong(accountId, [id])).length > 0
    },
    async describe(accountId, ids) {
      return new Map(ids.length === 0 ? [] : await describeOwned(accountId, ids))
    },
  }
}

/** A channel item with what its record says about it. */
export interface DescribedChannelItem {
  item: Pick<ChannelItemRow, 'item_type' | 'item_id' | 'created_at'>
  description: ChannelItemDescription
}
