// The channel pages' server state: a page of channels (starred first), one channel, its items;
// creating, changing (starring) and deleting a channel, adding items to it and taking them out.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useCountedWrite, useWrite } from '../api/write-queries'
import { displayUrl } from '../components/format'

export type Channel = paths['/api/channel/{id}/details']['get']['responses'][200]['content']['application/json']['data']
export type ChannelItem = paths['/api/channel/{id}']['get']['responses'][200]['content']['application/json']['data']['items'][number]
export type ChannelItemType = 'links' | 'bio' | 'qr'

export const CHANNEL_PAGE_SIZE = 15
export const ITEM_PAGE_SIZE = 50

export const ITEM_TYPE_NAMES: Record<ChannelItemType, string> = { links: 'Short link', bio: 'Bio page', qr: 'QR code' }

export function useChannelPage(page: number) {
  return useQuery({
    queryKey: queryKeys.channels.page(page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/channels', { params: { query: { page, limit: CHANNEL_PAGE_SIZE } } }))).data,
  })
}

export function useChannel(id: number) {
  return useQuery({
    queryKey: queryKeys.channels.one(id),
    enabled: Number.isInteger(id) && id > 0,
    queryFn: async () => (await unwrap(api.GET('/api/channel/{id}/details', { params: { path: { id } } }))).data,
  })
}

export function useChannelItems(id: number, page: number) {
  return useQuery({
    queryKey: queryKeys.channels.itemsPage(id, page),
    enabled: Number.isInteger(id) && id > 0,
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/channel/{id}', { params: { path: { id }, query: { page, limit: ITEM_PAGE_SIZE } } }))).data,
  })
}

/** The account's channels for a choice (the first 100, the API's largest page). */
export function useAllChannels() {
  return useQuery({ queryKey: queryKeys.channels.choices, queryFn: async () => (await unwrap(api.GET('/api/channels', { params: { query: { limit: 100 } } }))).data.channels, staleTime: 5 * 60_000 })
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
  const queryKey = type === 'links' ? queryKeys.links.search({ channelPicker: true, q }) : type === 'bio' ? queryKeys.bio.choices : queryKeys.qr.choices
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


type ChannelBody = paths['/api/channel/add']['post']['requestBody']['content']['application/json']
type ChannelChange = NonNullable<paths['/api/channel/{id}/update']['put']['requestBody']>['content']['application/json']
/** One item of one channel. */
interface Placement {
  channel: number
  type: ChannelItemType
  item: number
}

/** Creates a channel; answers its id. */
export function useCreateChannel() {
  return useCountedWrite({ send: (body: ChannelBody) => unwrap(api.POST('/api/channel/add', { body })), refreshes: [queryKeys.channels.all] })
}

/** Changes a channel: its name, description, color, or only its star. */
export function useUpdateChannel() {
  return useWrite({
    send: ({ id, body }: { id: number; body: ChannelChange }) => unwrap(api.PUT('/api/channel/{id}/update', { params: { path: { id } }, body })),
    refreshes: [queryKeys.channels.all],
  })
}

/** Deletes a channel; its items stay and only leave it. */
export function useDeleteChannel() {
  return useCountedWrite({ send: (id: number) => unwrap(api.DELETE('/api/channel/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.channels.all] })
}

export function useAddToChannel() {
  return useWrite({
    send: ({ channel, type, item }: Placement) => unwrap(api.POST('/api/channel/{channelid}/assign/{type}/{itemid}', { params: { path: { channelid: channel, type, itemid: item } } })),
    refreshes: ({ channel }) => [queryKeys.channels.items(channel)],
  })
}

export function useRemoveFromChannel() {
  return useWrite({
    send: ({ channel, type, item }: Placement) => unwrap(api.DELETE('/api/channel/{channelid}/assign/{type}/{itemid}', { params: { path: { channelid: channel, type, itemid: item } } })),
    refreshes: ({ channel }) => [queryKeys.channels.items(channel)],
  })
}
