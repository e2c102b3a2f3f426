// The pixel page's server state: a page of pixels and the providers with their tag rules; adding,
// changing and deleting a pixel.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useCountedWrite, useWrite } from '../api/write-queries'

export type Pixel = paths['/api/pixels']['get']['responses'][200]['content']['application/json']['data']['pixels'][number]

export const PIXEL_PAGE_SIZE = 15

export function usePixelPage(page: number) {
  return useQuery({
    queryKey: queryKeys.pixels.page(page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/pixels', { params: { query: { page, limit: PIXEL_PAGE_SIZE } } }))).data,
  })
}

export function usePixelProviders() {
  return useQuery({
    queryKey: queryKeys.pixels.providers,
    staleTime: Infinity,
    queryFn: async () => (await unwrap(api.GET('/api/pixels/providers'))).providers,
  })
}

/** The account's pixels for a choice (the first 100, the API's largest page). */
export function useAllPixels() {
  return useQuery({ queryKey: queryKeys.pixels.choices, queryFn: async () => (await unwrap(api.GET('/api/pixels', { params: { query: { limit: 100 } } }))).data.pixels, staleTime: 5 * 60_000 })
}

type PixelBody = paths['/api/pixel/add']['post']['requestBody']['content']['application/json']
type PixelChange = NonNullable<paths['/api/pixel/{id}/update']['put']['requestBody']>['content']['application/json']

/** Adds a pixel; answers it. */
export function useCreatePixel() {
  return useCountedWrite({ send: (body: PixelBody) => unwrap(api.POST('/api/pixel/add', { body })), refreshes: [queryKeys.pixels.all] })
}

export function useUpdatePixel() {
  return useWrite({
    send: ({ id, body }: { id: number; body: PixelChange }) => unwrap(api.PUT('/api/pixel/{id}/update', { params: { path: { id } }, body })),
    refreshes: [queryKeys.pixels.all],
  })
}

export function useDeletePixel() {
  return useCountedWrite({ send: (id: number) => unwrap(api.DELETE('/api/pixel/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.pixels.all] })
}
