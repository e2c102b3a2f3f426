// The channel pages' server state: a page of channels (starred first), one channel, its items.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { displayUrl } from '../components/format'
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

/** The account's channels for a choice (the first 100, the API's largest page). */
export function useAllChannels() {
  return useQuery({ queryKey: ['channels'], queryFn: async () => (await unwrap(api.GET('/api/channels', { params: { query: { limit: 100 } } }))).data.channels, staleTime: 5 * 60_000 })
}

/** How many items a picker shows. */
export const CANDIDATE_RESULTS = 8

/** An item that may be added to a channel, as the picker lists it. */
export interface Candidate {
  id: number
  title: string
  detail: string
}

/**
 * Items of one kind to add to a channel: links searched on the server (GET /api/urls?q=); bio
 * pages and QR codes have no search there, so the newest 100 of each (the picker filters them).
 */
export function useChannelCandidates(type: ChannelItemType, q: string) {
  const queryKey = type === 'links' ? ['links', { channelPicker: true, q }] : [type === 'bio' ? 'bio' : 'qr', 'channelPicker']
  return useQuery({
    queryKey,
    // Keep the last results while a new search loads, never another kind's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[0] === queryKey[0] ? keepPreviousData(previous) : undefined),
    queryFn: async (): Promise<Candidate[]> => {
      if (type === 'links') {
        const { data } = await unwrap(api.GET('/api/urls', { params: { query: { limit: CANDIDATE_RESULTS, ...(q ? { q } : {}) } } }))
        return data.urls.map((link) => ({ id: link.id, title: displayUrl(link.shorturl), detail: `${link.title ? `${link.title} · ` : ''}${displayUrl(link.longurl)}` }))
      }
      if (type === 'bio') {
        const { data } = await unwrap(api.GET('/api/bio', { params: { query: { limit: 100 } } }))
        return data.bio.map((page) => ({ id: page.id, title: page.name, detail: displayUrl(page.url) }))
      }
      const { data } = await unwrap(api.GET('/api/qr', { params: { query: { limit: 100 } } }))
      return data.qrs.map((qr) => ({ id: qr.id, title: qr.name, detail: displayUrl(qr.link) }))
    },
  })
}

