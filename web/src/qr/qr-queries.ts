// The QR codes' data: one page of GET /api/qr, and one code with its statistics (GET /api/qr/{id}).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type QrEntry = paths['/api/qr']['get']['responses'][200]['content']['application/json']['data']['qrs'][number]

export type QrDetails = paths['/api/qr/{id}']['get']['responses'][200]['content']['application/json']['details']

export const QR_PAGE_SIZE = 15

/** A page of codes; `tags`: only those carrying every one. */
export function useQrPage(page: number, tags: string[] = []) {
  return useQuery({
    queryKey: ['qrs', page, tags],
    queryFn: async () => (await unwrap(api.GET('/api/qr', { params: { query: { limit: QR_PAGE_SIZE, page, ...(tags.length > 0 ? { tag: tags } : {}) } } }))).data,
    placeholderData: keepPreviousData,
  })
}

export function useQrCode(id: number) {
  return useQuery({
    queryKey: ['qr', id],
    queryFn: () => unwrap(api.GET('/api/qr/{id}', { params: { path: { id } } })),
    enabled: Number.isInteger(id) && id > 0,
  })
}
