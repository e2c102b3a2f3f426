// The CTA overlays' server state: a page of them, one, every one (the link builder's choice),
// the contacts a contact overlay collected (a page, or all of them for the CSV), and the overlay
// for unsaved fields (the editor's preview); creating, changing and deleting an overlay.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useCountedWrite, useWrite } from '../api/write-queries'
import { useSettled } from '../components/use-settled'

export type OverlayEntry = paths['/api/overlay']['get']['responses'][200]['content']['application/json']['data']['cta'][number]

export const OVERLAY_PAGE_SIZE = 20
export const CONTACT_PAGE_SIZE = 20
/** The API's largest page: the export reads every page at this size. */
const EXPORT_PAGE_SIZE = 100

export function useOverlayPage(page: number) {
  return useQuery({
    queryKey: queryKeys.overlays.page(page),
    queryFn: async () => (await unwrap(api.GET('/api/overlay', { params: { query: { page, limit: OVERLAY_PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  })
}

export function useOverlay(id: number) {
  return useQuery({
    queryKey: queryKeys.overlays.one(id),
    queryFn: async () => (await unwrap(api.GET('/api/overlay/{id}', { params: { path: { id } } }))).data,
    enabled: Number.isInteger(id) && id > 0,
  })
}

/** The account's overlays for a choice (the first 100, the API's largest page). */
export function useAllOverlays() {
  return useQuery({ queryKey: queryKeys.overlays.choices, queryFn: async () => (await unwrap(api.GET('/api/overlay', { params: { query: { limit: 100 } } }))).data.cta, staleTime: 5 * 60_000 })
}

async function fetchContactsPage(id: number, page: number, limit: number) {
  return (await unwrap(api.GET('/api/overlay/{id}/contacts', { params: { path: { id }, query: { page, limit } } }))).data
}

export type ContactEntry = Awaited<ReturnType<typeof fetchContactsPage>>['contacts'][number]

export function useOverlayContacts(id: number, page: number) {
  return useQuery({
    queryKey: queryKeys.overlays.contacts(id, page),
    queryFn: () => fetchContactsPage(id, page, CONTACT_PAGE_SIZE),
    placeholderData: keepPreviousData,
    enabled: Number.isInteger(id) && id > 0,
  })
}

/** Every contact of the overlay, asked for on demand (the CSV holds them all, not the page on screen). */
export function useAllContacts() {
  return useMutation({ mutationFn: fetchAllContacts })
}

async function fetchAllContacts(id: number): Promise<ContactEntry[]> {
  const all: ContactEntry[] = []
  for (let page = 1; ; page++) {
    const data = await fetchContactsPage(id, page, EXPORT_PAGE_SIZE)
    all.push(...data.contacts)
    if (data.nextpage === null) return all
  }
}

export type OverlayPreviewBody = paths['/api/overlay/preview']['post']['requestBody']['content']['application/json']

/** The overlay over a stand-in page for these fields, as the server renders it (HTML), a moment after they stop changing. */
export function useOverlayPreview(body: OverlayPreviewBody) {
  const settled = useSettled(body)
  return useQuery({
    queryKey: queryKeys.overlays.preview(settled),
    queryFn: () => unwrap(api.POST('/api/overlay/preview', { body: settled, parseAs: 'text' })),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  })
}

type OverlayBody = paths['/api/overlay/add']['post']['requestBody']['content']['application/json']
type OverlayChange = NonNullable<paths['/api/overlay/{id}/update']['put']['requestBody']>['content']['application/json']

export function useCreateOverlay() {
  return useCountedWrite({ send: (body: OverlayBody) => unwrap(api.POST('/api/overlay/add', { body })), refreshes: [queryKeys.overlays.all] })
}

export function useUpdateOverlay() {
  return useWrite({
    send: ({ id, body }: { id: number; body: OverlayChange }) => unwrap(api.PUT('/api/overlay/{id}/update', { params: { path: { id } }, body })),
    refreshes: [queryKeys.overlays.all],
  })
}

export function useDeleteOverlay() {
  return useCountedWrite({ send: (id: number) => unwrap(api.DELETE('/api/overlay/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.overlays.all] })
}
