// The links table's data. Plain browsing pages through GET /api/urls; the API has no filter by
// campaign, channel or domain, so with a filter the account's links are read in pages of 100
// (up to MAX_FILTER_PAGES) and filtered here.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type LinkEntry = paths['/api/urls']['get']['responses'][200]['content']['application/json']['data']['urls'][number]
export type LinkOrder = 'date' | 'clicks'

export const PAGE_SIZE = 15
const MAX_FILTER_PAGES = 20

export interface LinkFilters {
  q: string
  order: LinkOrder
  page: number
  campaign: string
  channel: string
  /** A branded domain's address, or 'main' for the main domain. */
  domain: string
}

export interface LinkPage {
  links: LinkEntry[]
  total: number
  maxPage: number
  /** True when the filtered view stopped before the last of the account's links. */
  truncated: boolean
}

async function readAllLinks(q: string, order: LinkOrder): Promise<{ links: LinkEntry[]; truncated: boolean }> {
  const links: LinkEntry[] = []
  for (let page = 1; page <= MAX_FILTER_PAGES; page += 1) {
    const { data } = await unwrap(api.GET('/api/urls', { params: { query: { limit: 100, page, order, ...(q ? { q } : {}) } } }))
    links.push(...data.urls)
    if (data.nextpage === null) return { links, truncated: false }
  }
  return { links, truncated: true }
}

async function readChannelLinkIds(channel: number): Promise<Set<number>> {
  const ids = new Set<number>()
  for (let page = 1; page <= MAX_FILTER_PAGES; page += 1) {
    const { data } = await unwrap(api.GET('/api/channel/{id}', { params: { path: { id: channel }, query: { limit: 100, page } } }))
    for (const item of data.items) if (item.type === 'links') ids.add(item.id)
    if (data.nextpage === null) break
  }
  return ids
}

export function hasFilter(filters: LinkFilters): boolean {
  return Boolean(filters.campaign || filters.channel || filters.domain)
}

export function useLinkPage(filters: LinkFilters) {
  const filtered = hasFilter(filters)
  return useQuery({
    queryKey: ['links', filters],
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<LinkPage> => {
      if (!filtered) {
        const { data } = await unwrap(api.GET('/api/urls', { params: { query: { limit: PAGE_SIZE, page: filters.page, order: filters.order, ...(filters.q ? { q: filters.q } : {}) } } }))
        return { links: data.urls, total: data.result, maxPage: data.maxpage, truncated: false }
      }
      const [{ links, truncated }, channelIds] = await Promise.all([
        readAllLinks(filters.q, filters.order),
        filters.channel ? readChannelLinkIds(Number(filters.channel)) : Promise.resolve(undefined),
      ])
      const matching = links.filter((link) =>
        (!filters.campaign || link.campaign === Number(filters.campaign)) &&
        (!channelIds || channelIds.has(link.id)) &&
        (!filters.domain || (filters.domain === 'main' ? link.domain === null : link.domain === filters.domain)))
      const start = (filters.page - 1) * PAGE_SIZE
      return { links: matching.slice(start, start + PAGE_SIZE), total: matching.length, maxPage: Math.ceil(matching.length / PAGE_SIZE), truncated }
    },
  })
}
