// The bio pages' server state: the list, one page with its blocks, and a draft as the server renders it.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'
import { useSettled } from '../components/use-settled'

export const bioQueryKey = ['bio'] as const

/** A page of bio pages; `tags`: only those carrying every one. */
export function useBioPageList(page: number, tags: string[] = []) {
  return useQuery({
    queryKey: [...bioQueryKey, 'list', page, tags],
    queryFn: async () => (await unwrap(api.GET('/api/bio', { params: { query: { page, limit: 20, ...(tags.length > 0 ? { tag: tags } : {}) } } }))).data,
  })
}

export type BioListEntry = paths['/api/bio']['get']['responses'][200]['content']['application/json']['data']['bio'][number]

export function useBioPage(id: number) {
  return useQuery({
    queryKey: [...bioQueryKey, 'page', id],
    queryFn: async () => (await unwrap(api.GET('/api/bio/{id}', { params: { path: { id } } }))).data,
    enabled: Number.isInteger(id) && id > 0,
  })
}

type BioPreviewBody = paths['/api/bio/preview']['post']['requestBody']['content']['application/json']

/** The public page of a draft as the server renders it (POST /api/bio/preview), a moment after it stops changing. */
export function useBioPreview(body: BioPreviewBody) {
  const settled = useSettled(body)
  return useQuery({
    queryKey: [...bioQueryKey, 'preview', settled],
    queryFn: () => unwrap(api.POST('/api/bio/preview', { body: settled, parseAs: 'text' })),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  })
}
