// The pixel page's server state: a page of pixels and the providers with their tag rules.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type Pixel = paths['/api/pixels']['get']['responses'][200]['content']['application/json']['data']['pixels'][number]

export const PIXEL_PAGE_SIZE = 15

export function usePixelPage(page: number) {
  return useQuery({
    // Under ['pixels'], so every change refreshes the link builder's list too.
    queryKey: ['pixels', 'page', page],
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/pixels', { params: { query: { page, limit: PIXEL_PAGE_SIZE } } }))).data,
  })
}

export function usePixelProviders() {
  return useQuery({
    queryKey: ['pixel-providers'],
    staleTime: Infinity,
    queryFn: async () => (await unwrap(api.GET('/api/pixels/providers'))).providers,
  })
}

/** The account's pixels for a choice (the first 100, the API's largest page). */
export function useAllPixels() {
  return useQuery({ queryKey: ['pixels'], queryFn: async () => (await unwrap(api.GET('/api/pixels', { params: { query: { limit: 100 } } }))).data.pixels, staleTime: 5 * 60_000 })
}
