// The bio pages' server state: the list, one page with its blocks, and a draft as the server
// renders it; creating, changing and deleting a page.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useCountedWrite, useWrite } from '../api/write-queries'
import { useSettled } from '../components/use-settled'

type BioCreateBody = paths['/api/bio/add']['post']['requestBody']['content']['application/json']
type BioUpdateBody = NonNullable<paths['/api/bio/{id}/update']['put']['requestBody']>['content']['application/json']

/** A page of bio pages; `tags`: only those carrying every one. */
export function useBioPageList(page: number, tags: string[] = []) {
  return useQuery({
    queryKey: queryKeys.bio.list(page, tags),
    queryFn: async () => (await unwrap(api.GET('/api/bio', { params: { query: { page, limit: 20, ...(tags.length > 0 ? { tag: tags } : {}) } } }))).data,
  })
}

export type BioListEntry = paths['/api/bio']['get']['responses'][200]['content']['application/json']['data']['bio'][number]

export function useBioPage(id: number) {
  return useQuery({
    queryKey: queryKeys.bio.one(id),
    queryFn: async () => (await unwrap(api.GET('/api/bio/{id}', { params: { path: { id } } }))).data,
    enabled: Number.isInteger(id) && id > 0,
  })
}

type BioPreviewBody = paths['/api/bio/preview']['post']['requestBody']['content']['application/json']

/** The public page of a draft as the server renders it (POST /api/bio/preview), a moment after it stops changing. */
export function useBioPreview(body: BioPreviewBody) {
  const settled = useSettled(body)
  return useQuery({
    queryKey: queryKeys.bio.preview(settled),
    queryFn: () => unwrap(api.POST('/api/bio/preview', { body: settled, parseAs: 'text' })),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  })
}

/** Creates a bio page; answers its id and public address. */
export function useCreateBioPage() {
  return useCountedWrite({ send: (body: BioCreateBody) => unwrap(api.POST('/api/bio/add', { body })), refreshes: [queryKeys.bio.all] })
}

export function useUpdateBioPage() {
  return useWrite({ send: ({ id, body }: { id: number; body: BioUpdateBody }) => unwrap(api.PUT('/api/bio/{id}/update', { params: { path: { id } }, body })), refreshes: [queryKeys.bio.all] })
}

export function useDeleteBioPage() {
  return useCountedWrite({ send: (id: number) => unwrap(api.DELETE('/api/bio/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.bio.all] })
}
