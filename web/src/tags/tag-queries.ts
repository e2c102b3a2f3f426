// The tags' server state: a page of the Tags page, and every tag (the first 100) for inputs, chips and filters.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type Tag = paths['/api/tags']['get']['responses'][200]['content']['application/json']['data']['tags'][number]

export const TAG_PAGE_SIZE = 50

export function useTagPage(page: number) {
  return useQuery({
    // Under ['tags'], so a change refreshes the inputs' suggestions too.
    queryKey: ['tags', 'page', page],
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/tags', { params: { query: { page, limit: TAG_PAGE_SIZE } } }))).data,
  })
}

/** The workspace's tags by name (the first 100, the API's largest page). */
export function useAllTags() {
  return useQuery({ queryKey: ['tags'], queryFn: async () => (await unwrap(api.GET('/api/tags', { params: { query: { limit: 100 } } }))).data.tags, staleTime: 60_000 })
}
