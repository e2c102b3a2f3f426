// Reading bio pages: the list and one page with its blocks.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'

export const bioQueryKey = ['bio'] as const

export function useBioPageList(page: number) {
  return useQuery({
    queryKey: [...bioQueryKey, 'list', page],
    queryFn: async () => (await unwrap(api.GET('/api/bio', { params: { query: { page, limit: 20 } } }))).data,
  })
}

export type BioListEntry = NonNullable<ReturnType<typeof useBioPageList>['data']>['bio'][number]

export function useBioPage(id: number) {
  return useQuery({
    queryKey: [...bioQueryKey, 'page', id],
    queryFn: async () => (await unwrap(api.GET('/api/bio/{id}', { params: { path: { id } } }))).data,
    enabled: Number.isInteger(id) && id > 0,
  })
}
