// The links' server state: a page of the table (GET /api/urls applies the search, the order and the
// campaign, channel and domain filters itself, so the page and its count are the server's), one
// link, the newest few, and a search for pickers.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type LinkEntry = paths['/api/urls']['get']['responses'][200]['content']['application/json']['data']['urls'][number]
export type LinkOrder = 'date' | 'clicks'
type LinkListQuery = NonNullable<paths['/api/urls']['get']['parameters']['query']>

export const PAGE_SIZE = 15

export interface LinkFilters {
  q: string
  order: LinkOrder
  page: number
  /** A campaign's id, or '' for every campaign. */
  campaign: string
  /** A channel's id, or '' for every channel. */
  channel: string
  /** A branded domain's id, '0' for the main domain, or '' for every domain. */
  domain: string
  /** Tags every listed link carries (none: every link). */
  tags: string[]
  /** 'broken' for the links the checker found broken (the "Broken links" filter), or '' for all. */
  health?: 'broken' | ''
}

export interface LinkPage {
  links: LinkEntry[]
  total: number
  maxPage: number
}

export function hasFilter(filters: LinkFilters): boolean {
  return Boolean(filters.campaign || filters.channel || filters.domain || filters.tags.length > 0 || filters.health)
}

/** The query GET /api/urls takes for these filters; empty ones are left out. */
export function toLinkListQuery(filters: LinkFilters): LinkListQuery {
  return {
    limit: PAGE_SIZE,
    page: filters.page,
    order: filters.order,
    ...(filters.q ? { q: filters.q } : {}),
    ...(filters.campaign ? { campaign: Number(filters.campaign) } : {}),
    ...(filters.channel ? { channel: Number(filters.channel) } : {}),
    ...(filters.domain ? { domain: Number(filters.domain) } : {}),
    ...(filters.tags.length > 0 ? { tag: filters.tags } : {}),
    ...(filters.health ? { health: filters.health } : {}),
  }
}

export function useLinkPage(filters: LinkFilters) {
  return useQuery({
    queryKey: ['links', filters],
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<LinkPage> => {
      const { data } = await unwrap(api.GET('/api/urls', { params: { query: toLinkListQuery(filters) } }))
      return { links: data.urls, total: data.result, maxPage: data.maxpage }
    },
  })
}

/** One link with its details (the editor and the analytics page share it). */
export function useLink(id: number) {
  return useQuery({
    queryKey: ['link', id],
    queryFn: () => unwrap(api.GET('/api/url/{id}', { params: { path: { id } } })),
    enabled: Number.isInteger(id) && id > 0,
  })
}

/** The newest `limit` links. */
export function useLatestLinks(limit: number) {
  return useQuery({
    queryKey: ['links', 'latest', limit],
    queryFn: async () => (await unwrap(api.GET('/api/urls', { params: { query: { limit, order: 'date' } } }))).data.urls,
  })
}

/** The first `limit` links matching `q` (alias, destination or title), for a picker; the last answer stays while the next loads. */
export function useLinkSearch(q: string, limit: number) {
  return useQuery({
    queryKey: ['links', { picker: true, q, limit }],
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/urls', { params: { query: { limit, ...(q ? { q } : {}) } } }))).data,
  })
}

/** The workspace's UTM templates (first 100, the API's largest page), applied in the link builder. */
export function useUtmTemplates() {
  return useQuery({ queryKey: ['utm-templates'], queryFn: async () => (await unwrap(api.GET('/api/utm-templates', { params: { query: { limit: 100 } } }))).data.templates, staleTime: 5 * 60_000 })
}
