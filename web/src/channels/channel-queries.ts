// The channel pages' server state: a page of channels (starred first), one channel, its items.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type Channel = paths['/api/channel/{id}/details']['get']['responses'][200]['content']['application/json']['data']
export type ChannelItem = paths['/api/channel/{id}']['get']['responses'][200]['content']['application/json']['data']['items'][number]
export type ChannelItemType = 'links' | 'bio' | 'qr'

export const CHANNEL_PAGE_SIZE = 15
export const ITEM_PAGE_SIZE = 50

export const ITEM_TYPE_NAMES: Record<ChannelItemType, string> = { links: 'Short link', bio: 'Bio page', qr: 'QR code' }

export function useChannelPage(page: number) {
  return useQuery({
    // Under ['channels'], so every change refreshes the link builder's list too.
    queryKey: ['channels', 'page', page],
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/channels', { params: { query: { page, limit: CHANNEL_PAGE_SIZE } } }))).data,
  })
}

export function useChannel(id: number) {
  return useQuery({
    queryKey: ['channels', 'one', id],
    enabled: Number.isInteger(id) && id > 0,
    queryFn: async () => (await unwrap(api.GET('/api/channel/{id}/details', { params: { path: { id } } }))).data,
  })
}

export function channelItemsKey(id: number) {
  return ['channels', 'items', id] as const
}

export function useChannelItems(id: number, page: number) {
  return useQuery({
    queryKey: [...channelItemsKey(id), page],
    enabled: Number.isInteger(id) && id > 0,
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/channel/{id}', { params: { path: { id }, query: { page, limit: ITEM_PAGE_SIZE } } }))).data,
  })
}
