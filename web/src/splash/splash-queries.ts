// The splash pages' server state: a page of them, one, every one (the link builder's choice), and
// the page a link would show for unsaved fields (the editor's preview); creating, changing and
// deleting a splash page.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useCountedWrite, useWrite } from '../api/write-queries'
import { useSettled } from '../components/use-settled'

export type SplashEntry = paths['/api/splash']['get']['responses'][200]['content']['application/json']['data']['splash'][number]

export const SPLASH_PAGE_SIZE = 20

export function useSplashPage(page: number) {
  return useQuery({
    queryKey: queryKeys.splash.page(page),
    queryFn: async () => (await unwrap(api.GET('/api/splash', { params: { query: { page, limit: SPLASH_PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  })
}

export function useSplash(id: number) {
  return useQuery({
    queryKey: queryKeys.splash.one(id),
    queryFn: async () => (await unwrap(api.GET('/api/splash/{id}', { params: { path: { id } } }))).data,
    enabled: Number.isInteger(id) && id > 0,
  })
}

/** The account's splash pages for a choice (the first 100, the API's largest page). */
export function useAllSplashPages() {
  return useQuery({ queryKey: queryKeys.splash.choices, queryFn: async () => (await unwrap(api.GET('/api/splash', { params: { query: { limit: 100 } } }))).data.splash, staleTime: 5 * 60_000 })
}

export type SplashPreviewBody = paths['/api/splash/preview']['post']['requestBody']['content']['application/json']

/** The page a splash link would show for these fields, as the server renders it (HTML), a moment after they stop changing. */
export function useSplashPreview(body: SplashPreviewBody) {
  const settled = useSettled(body)
  return useQuery({
    queryKey: queryKeys.splash.preview(settled),
    queryFn: () => unwrap(api.POST('/api/splash/preview', { body: settled, parseAs: 'text' })),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  })
}

type SplashBody = paths['/api/splash/add']['post']['requestBody']['content']['application/json']
type SplashChange = NonNullable<paths['/api/splash/{id}/update']['put']['requestBody']>['content']['application/json']

export function useCreateSplashPage() {
  return useCountedWrite({ send: (body: SplashBody) => unwrap(api.POST('/api/splash/add', { body })), refreshes: [queryKeys.splash.all] })
}

export function useUpdateSplashPage() {
  return useWrite({
    send: ({ id, body }: { id: number; body: SplashChange }) => unwrap(api.PUT('/api/splash/{id}/update', { params: { path: { id } }, body })),
    refreshes: [queryKeys.splash.all],
  })
}

export function useDeleteSplashPage() {
  return useCountedWrite({ send: (id: number) => unwrap(api.DELETE('/api/splash/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.splash.all] })
}
