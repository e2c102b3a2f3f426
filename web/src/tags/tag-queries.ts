// The tags' server state: a page of the Tags page, and every tag (the first 100) for inputs, chips
// and filters; renaming, coloring and deleting a tag (the items that carry it show it too).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useWrite } from '../api/write-queries'

export type Tag = paths['/api/tags']['get']['responses'][200]['content']['application/json']['data']['tags'][number]

export const TAG_PAGE_SIZE = 50

export function useTagPage(page: number) {
  return useQuery({
    queryKey: queryKeys.tags.page(page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/tags', { params: { query: { page, limit: TAG_PAGE_SIZE } } }))).data,
  })
}

/** The workspace's tags by name (the first 100, the API's largest page). */
export function useAllTags() {
  return useQuery({ queryKey: queryKeys.tags.choices, queryFn: async () => (await unwrap(api.GET('/api/tags', { params: { query: { limit: 100 } } }))).data.tags, staleTime: 60_000 })
}

type TagChange = NonNullable<paths['/api/tag/{id}/update']['put']['requestBody']>['content']['application/json']

export function useUpdateTag() {
  return useWrite({
    send: ({ id, body }: { id: number; body: TagChange }) => unwrap(api.PUT('/api/tag/{id}/update', { params: { path: { id } }, body })),
    refreshes: [queryKeys.tags.all, queryKeys.links.all],
  })
}

/** Deletes a tag: it leaves every item, which stays. */
export function useDeleteTag() {
  return useWrite({ send: (id: number) => unwrap(api.DELETE('/api/tag/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.tags.all, queryKeys.links.all] })
}
