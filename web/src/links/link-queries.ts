// The links' server state: a page of the table (GET /api/urls applies the search, the order and the
// campaign, channel and domain filters itself, so the page and its count are the server's), one
// link, the newest few, and a search for pickers; creating (one, or many in a row), changing and
// deleting links, their social card and split test, and saving UTM templates.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useCountedWrite, useRefresh, useWrite } from '../api/write-queries'
import type { LinkCreateBody, LinkUpdateBody } from './link-form'
import type { UtmValues } from './utm'

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
    queryKey: queryKeys.links.page(filters),
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
    queryKey: queryKeys.links.one(id),
    queryFn: () => unwrap(api.GET('/api/url/{id}', { params: { path: { id } } })),
    enabled: Number.isInteger(id) && id > 0,
  })
}

/** The newest `limit` links. */
export function useLatestLinks(limit: number) {
  return useQuery({
    queryKey: queryKeys.links.latest(limit),
    queryFn: async () => (await unwrap(api.GET('/api/urls', { params: { query: { limit, order: 'date' } } }))).data.urls,
  })
}

/** The first `limit` links matching `q` (alias, destination or title), for a picker; the last answer stays while the next loads. */
export function useLinkSearch(q: string, limit: number) {
  return useQuery({
    queryKey: queryKeys.links.search({ q, limit }),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/urls', { params: { query: { limit, ...(q ? { q } : {}) } } }))).data,
  })
}

/** The workspace's UTM templates (first 100, the API's largest page), applied in the link builder. */
export function useUtmTemplates() {
  return useQuery({ queryKey: queryKeys.utmTemplates, queryFn: async () => (await unwrap(api.GET('/api/utm-templates', { params: { query: { limit: 100 } } }))).data.templates, staleTime: 5 * 60_000 })
}

/** A link created: its id and short URL. */
export interface CreatedLink {
  id: number
  shorturl: string
}

/** Creates a link; answers its id and short URL. */
export function useCreateLink() {
  return useCountedWrite({ send: (body: LinkCreateBody): Promise<CreatedLink> => unwrap(api.POST('/api/url/add', { body })), refreshes: [queryKeys.links.all] })
}

/**
 * Creates links one after another (bulk creation: `run` is handed the request for one link and
 * decides the pace); the table and the plan usage are asked again once, when the run ends.
 */
export function useCreateLinks() {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (run: (create: (body: LinkCreateBody) => Promise<CreatedLink>) => Promise<void>) => run((body) => unwrap(api.POST('/api/url/add', { body }))),
    onSettled: () => refresh([queryKeys.links.all, queryKeys.account.usage]),
  })
}

export function useUpdateLink() {
  return useWrite({ send: ({ id, body }: { id: number; body: LinkUpdateBody }) => unwrap(api.PUT('/api/url/{id}/update', { params: { path: { id } }, body })), refreshes: [queryKeys.links.all] })
}

export function useDeleteLink() {
  return useCountedWrite({ send: (id: number) => unwrap(api.DELETE('/api/url/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.links.all] })
}

/** Ends a split test: the variant at `variant` becomes the link's only destination. */
export function useChooseWinner() {
  return useWrite({ send: ({ id, variant }: { id: number; variant: number }) => unwrap(api.POST('/api/url/{id}/winner', { params: { path: { id } }, body: { variant } })), refreshes: [queryKeys.links.all] })
}

/** Sets the link's social card image (`file`), or removes it (null). */
export function useSetCard() {
  return useWrite({
    send: ({ id, file }: { id: number; file: File | null }) => {
      if (file === null) return unwrap(api.DELETE('/api/url/{id}/card', { params: { path: { id } } }))
      const form = new FormData()
      form.append('image', file)
      // The browser sets the multipart Content-Type (with its boundary) for a FormData body.
      return unwrap(api.POST('/api/url/{id}/card', { params: { path: { id } }, body: form as never, bodySerializer: (body: unknown) => body as FormData }))
    },
    refreshes: ({ id }) => [queryKeys.links.one(id)],
  })
}

/** Saves UTM parameters as a template of the workspace, then the builder lists it. */
export function useSaveUtmTemplate() {
  return useWrite({ send: (body: { name: string; utm: Partial<UtmValues> }) => unwrap(api.POST('/api/utm-template/add', { body })), refreshes: [queryKeys.utmTemplates] })
}
