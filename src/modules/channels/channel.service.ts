// Channel rules: name uniqueness, colors, plan limits, item membership.
import { randomBytes } from 'node:crypto'
import { isUniqueViolation } from '../../db/errors.js'
import type { ChannelRow } from '../../db/schema.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { enforcePlanLimit } from '../plans/plan-limits.js'
import type { ChannelItemRepository } from './channel-items.repository.js'
import type { ChannelItemDescription, ChannelItemSources, ChannelItemType, DescribedChannelItem } from './channel-items.js'
import { toChannelRecord } from './channel.mapper.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import type { ChannelRepository, ChannelValues } from './channel.repository.js'
import { CHANNEL_NAME_RULE, type ChannelCreateInput, type ChannelInput } from './channel.schemas.js'
import { DuplicateError, NotFoundError, orNotFound } from '../../core/errors.js'
import type { Page, PageRequest } from '../../core/paging.js'
import { trimmedName } from '../../core/text.js'

const DUPLICATE_NAME = 'You already have a channel with this name.'
const ALREADY_IN_CHANNEL = 'This item is already added to the selected channel.'


/** A random badge color, `#rrggbb` (decisions §6: a random color when none is given). */
export function randomChannelColor(): string {
  return `#${randomBytes(3).toString('hex')}`
}

export interface ChannelServiceOptions {
  channels: Bindable<ChannelRepository>
  /** Which items each channel holds. */
  items: Bindable<ChannelItemRepository>
  /** Reads the records of each kind of item a channel may hold (links, bio pages, QR codes). */
  sources: ChannelItemSources
  journal: ChangeJournal
}

export function createChannelService({ channels, items, sources, journal }: ChannelServiceOptions) {
  async function assertNameFree(accountId: number, name: string, exceptId?: number) {
    const existing = await channels.findByName(accountId, name)
    if (existing && existing.id !== exceptId) throw new DuplicateError(DUPLICATE_NAME, 'name')
  }

  /** Two requests racing past the check meet the (account, name) unique constraint. */
  async function translateDuplicate<T>(write: () => Promise<T>, message: string, field?: string): Promise<T> {
    try {
      return await write()
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError(message, field)
      throw error
    }
  }

  const getChannelOrThrow = orNotFound(channels.findById, 'Channel')

  return {
    getChannelOrThrow,

    listChannels(accountId: number, page: PageRequest) {
      return channels.listPage(accountId, page)
    },

    async createChannel(account: AuthenticatedAccount, input: ChannelCreateInput): Promise<ChannelRow> {
      await enforcePlanLimit(account, 'channels', () => channels.count(account.id))
      const values: ChannelValues = {
        name: trimmedName(input.name, CHANNEL_NAME_RULE),
        description: input.description ?? '',
        color: (input.color ?? randomChannelColor()).toLowerCase(),
        starred: input.starred ?? false,
      }
      await assertNameFree(account.id, values.name)
      return journal.write(account, async (trx) => {
        const channel = await translateDuplicate(() => channels.in(trx).insert(account.id, values), DUPLICATE_NAME, 'name')
        return { result: channel, changes: [{ action: 'channel.created', resource: 'channel', resourceId: channel.id, fields: givenFields(input), record: toChannelRecord(channel) }] }
      })
    },

    async updateChannel(account: AuthenticatedAccount, id: number, input: ChannelInput): Promise<ChannelRow> {
      await getChannelOrThrow(account.id, id)
      const changes: Partial<ChannelValues> = {
        name: input.name === undefined ? undefined : trimmedName(input.name, CHANNEL_NAME_RULE),
        description: input.description,
        color: input.color?.toLowerCase(),
        starred: input.starred,
      }
      if (changes.name !== undefined) await assertNameFree(account.id, changes.name, id)
      return journal.write(account, async (trx) => {
        const updated = await translateDuplicate(() => channels.in(trx).update(account.id, id, changes), DUPLICATE_NAME, 'name')
        if (!updated) throw NotFoundError.of('Channel')
        return { result: updated, changes: [{ action: 'channel.updated', resource: 'channel', resourceId: id, fields: givenFields(input), record: toChannelRecord(updated) }] }
      })
    },

    /** Deletes the channel; its items stay, they are only unassigned (spec). */
    async deleteChannel(account: AuthenticatedAccount, id: number): Promise<void> {
      const channel = await getChannelOrThrow(account.id, id)
      await journal.write(account, async (trx) => {
        if (!(await channels.in(trx).delete(account.id, id))) throw NotFoundError.of('Channel')
        return { result: undefined, changes: [{ action: 'channel.deleted', resource: 'channel', resourceId: id, fields: [], record: toChannelRecord(channel) }] }
      })
    },

    /** One page of the channel's items; an item whose record vanished meanwhile is left out. */
    async listItems(accountId: number, channelId: number, page: PageRequest): Promise<Page<DescribedChannelItem>> {
      await getChannelOrThrow(accountId, channelId)
      const { rows, total } = await items.listPage(accountId, channelId, sources, page)
      const descriptions = new Map<string, Map<number, ChannelItemDescription>>()
      for (const [type, source] of Object.entries(sources)) {
        const ids = rows.filter((row) => row.item_type === type).map((row) => row.item_id)
        if (source && ids.length > 0) descriptions.set(type, await source.describe(accountId, ids))
      }
      const described: DescribedChannelItem[] = []
      for (const item of rows) {
        const description = descriptions.get(item.item_type)?.get(item.item_id)
        if (description) described.push({ item, description })
      }
      return { rows: described, total }
    },

    async assignItem(account: AuthenticatedAccount, channelId: number, itemType: ChannelItemType, itemId: number): Promise<void> {
      const accountId = account.id
      await getChannelOrThrow(accountId, channelId)
      const source = sources[itemType]
      if (!source || !(await source.exists(accountId, itemId))) throw NotFoundError.of('Item')
      if (await items.contains(accountId, channelId, itemType, itemId)) throw new DuplicateError(ALREADY_IN_CHANNEL)
      await journal.write(account, async (trx) => {
        await translateDuplicate(() => items.in(trx).insert(accountId, channelId, itemType, itemId), ALREADY_IN_CHANNEL)
        return { result: undefined, changes: [{ action: 'channel.item_assigned', resource: 'channel', resourceId: channelId, fields: [], record: { type: itemType, id: itemId } }] }
      })
    },

    /** Takes an item out of the channel (the item itself stays); one that is not in it is not found. */
    async removeItem(account: AuthenticatedAccount, channelId: number, itemType: ChannelItemType, itemId: number): Promise<void> {
      await getChannelOrThrow(account.id, channelId)
      await journal.write(account, async (trx) => {
        if (!(await items.in(trx).remove(account.id, channelId, itemType, itemId))) throw NotFoundError.of('Item')
        return { result: undefined, changes: [{ action: 'channel.item_removed', resource: 'channel', resourceId: channelId, fields: [], record: { type: itemType, id: itemId } }] }
      })
    },
  }
}

export type ChannelService = ReturnType<typeof createChannelService>
