// The QR codes' data: one page of GET /api/qr, one code with its statistics (GET /api/qr/{id}),
// and the designer's preview as the server draws it; creating, changing and deleting a code, and
// uploading a logo.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useCountedWrite, useWrite } from '../api/write-queries'
import type { QrCreateBody, QrUpdateBody } from './qr-design'

export type QrEntry = paths['/api/qr']['get']['responses'][200]['content']['application/json']['data']['qrs'][number]

export type QrDetails = paths['/api/qr/{id}']['get']['responses'][200]['content']['application/json']['details']

export const QR_PAGE_SIZE = 15

/** A page of codes; `tags`: only those carrying every one. */
export function useQrPage(page: number, tags: string[] = []) {
  return useQuery({
    queryKey: queryKeys.qr.page(page, tags),
    queryFn: async () => (await unwrap(api.GET('/api/qr', { params: { query: { limit: QR_PAGE_SIZE, page, ...(tags.length > 0 ? { tag: tags } : {}) } } }))).data,
    placeholderData: keepPreviousData,
  })
}

export function useQrCode(id: number) {
  return useQuery({
    queryKey: queryKeys.qr.one(id),
    queryFn: () => unwrap(api.GET('/api/qr/{id}', { params: { path: { id } } })),
    enabled: Number.isInteger(id) && id > 0,
  })
}

// A saved code goes back to the list: it is asked again before the list shows (hidden as it is
// under the designer), so the list never flashes its old page.
export function useCreateQrCode() {
  return useCountedWrite({ send: (body: QrCreateBody) => unwrap(api.POST('/api/qr/add', { body })), refreshes: [queryKeys.qr.all], refreshHidden: [queryKeys.qr.pages] })
}

export function useUpdateQrCode() {
  return useWrite({
    send: ({ id, body }: { id: number; body: QrUpdateBody }) => unwrap(api.PUT('/api/qr/{id}/update', { params: { path: { id } }, body })),
    refreshes: [queryKeys.qr.all],
    refreshHidden: ({ id }) => [queryKeys.qr.pages, queryKeys.qr.one(id)],
  })
}

export function useDeleteQrCode() {
  return useCountedWrite({ send: (id: number) => unwrap(api.DELETE('/api/qr/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.qr.all] })
}

/** Uploads a logo (a record the plan counts); answers the path a design names it by. */
export function useUploadLogo() {
  return useCountedWrite({
    send: async (file: File) => {
      const form = new FormData()
      form.append('file', file)
      // The browser sets the multipart Content-Type (with its boundary) for a FormData body.
      return (await unwrap(api.POST('/api/upload/logo', { body: form as never, bodySerializer: (body: unknown) => body as FormData }))).path
    },
    refreshes: [],
  })
}

/** What the designer's preview draws: a new code's body, or a saved code's changes. */
export type PreviewRequest =
  | { kind: 'new'; body: QrCreateBody }
  | { kind: 'update'; id: number; body: QrUpdateBody }

/** The image of `request` at `size` px, as the server draws it (qr-preview.ts asks, a moment after the last change). */
export async function fetchQrPreview(request: PreviewRequest, size: number, signal: AbortSignal): Promise<Blob> {
  const query = { size }
  return request.kind === 'new'
    ? unwrap(api.POST('/api/qr/preview', { params: { query }, body: request.body, parseAs: 'blob', signal }))
    : unwrap(api.POST('/api/qr/{id}/preview', { params: { path: { id: request.id }, query }, body: request.body, parseAs: 'blob', signal }))
}
