// The CTA overlays' server state: a page of them, one, every one (the link builder's choice),
// the contacts a contact overlay collected, and the overlay for unsaved fields (the editor's preview).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'
import { useSettled } from '../components/use-settled'

export type OverlayEntry = paths['/api/overlay']['get']['responses'][200]['content']['application/json']['data']['cta'][number]

export const OVERLAY_PAGE_SIZE = 20
export const CONTACT_PAGE_SIZE = 20
/** The API's largest page: the export reads every page at this size. */
const EXPORT_PAGE_SIZE = 100

export function useOverlayPage(page: number) {
  return useQuery({
    // Under ['overlays'], so every change refreshes the link builder's list too.
    queryKey: ['overlays', 'page', page],
    queryFn: async () => (await unwrap(api.GET('/api/overlay', { params: { query: { page, limit: OVERLAY_PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  })
}

export function useOverlay(id: number) {
  return useQuery({
    queryKey: ['overlays', 'one', id],
    queryFn: async () => (await unwrap(api.GET('/api/overlay/{id}', { params: { path: { id } } }))).data,
    enabled: Number.isInteger(id) && id > 0,
  })
}

/** The account's overlays for a choice (the first 100, the API's largest page). */
export function useAllOverlays() {
  return useQuery({ queryKey: ['overlays'], queryFn: async () => (await unwrap(api.GET('/api/overlay', { params: { query: { limit: 100 } } }))).data.cta, staleTime: 5 * 60_000 })
}

async function fetchContactsPage(id: number, page: number, limit: number) {
  return (await unwrap(api.GET('/api/overlay/{id}/contacts', { params: { path: { id }, query: { page, limit } } }))).data
}

export type ContactEntry = Awaited<ReturnType<typeof fetchContactsPage>>['contacts'][number]

export function useOverlayContacts(id: number, page: number) {
  return useQuery({
    queryKey: ['overlays', 'contacts', id, page],
    queryFn: () => fetchContactsPage(id, page, CONTACT_PAGE_SIZE),
    placeholderData: keepPreviousData,
    enabled: Number.isInteger(id) && id > 0,
  })
}

/** Every contact of the overlay, page by page (the CSV holds them all, not the page on screen). */
export async function fetchAllContacts(id: number): Promise<ContactEntry[]> {
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
    queryKey: ['overlays', 'preview', settled],
    queryFn: () => unwrap(api.POST('/api/overlay/preview', { body: settled, parseAs: 'text' })),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  })
}
