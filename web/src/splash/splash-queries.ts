// The splash pages' server state: a page of them, one, every one (the link builder's choice), and
// the page a link would show for unsaved fields (the editor's preview).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'
import { useSettled } from '../components/use-settled'

export type SplashEntry = paths['/api/splash']['get']['responses'][200]['content']['application/json']['data']['splash'][number]

export const SPLASH_PAGE_SIZE = 20

export function useSplashPage(page: number) {
  return useQuery({
    // Under ['splash'], so every change refreshes the link builder's list too.
    queryKey: ['splash', 'page', page],
    queryFn: async () => (await unwrap(api.GET('/api/splash', { params: { query: { page, limit: SPLASH_PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  })
}

export function useSplash(id: number) {
  return useQuery({
    queryKey: ['splash', 'one', id],
    queryFn: async () => (await unwrap(api.GET('/api/splash/{id}', { params: { path: { id } } }))).data,
    enabled: Number.isInteger(id) && id > 0,
  })
}

/** The account's splash pages for a choice (the first 100, the API's largest page). */
export function useAllSplashPages() {
  return useQuery({ queryKey: ['splash'], queryFn: async () => (await unwrap(api.GET('/api/splash', { params: { query: { limit: 100 } } }))).data.splash, staleTime: 5 * 60_000 })
}

export type SplashPreviewBody = paths['/api/splash/preview']['post']['requestBody']['content']['application/json']

/** The page a splash link would show for these fields, as the server renders it (HTML), a moment after they stop changing. */
export function useSplashPreview(body: SplashPreviewBody) {
  const settled = useSettled(body)
  return useQuery({
    queryKey: ['splash', 'preview', settled],
    queryFn: () => unwrap(api.POST('/api/splash/preview', { body: settled, parseAs: 'text' })),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  })
}
