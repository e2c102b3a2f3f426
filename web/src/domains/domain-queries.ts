// The branded domains' server state: a page of them, one, every one (the link builder's choice),
// the DNS records this server needs and what a domain resolves to now; adding, changing, checking
// and deleting a domain.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useCountedWrite, useRefresh, useWrite } from '../api/write-queries'
import { parseServerTime } from '../components/format'

export type DomainEntry = paths['/api/domains']['get']['responses'][200]['content']['application/json']['data']['domains'][number]
export type DomainSetup = paths['/api/domains/setup']['get']['responses'][200]['content']['application/json']['data']

export const DOMAIN_PAGE_SIZE = 20

export function useDomainPage(page: number) {
  return useQuery({
    queryKey: queryKeys.domains.page(page),
    queryFn: async () => (await unwrap(api.GET('/api/domains', { params: { query: { page, limit: DOMAIN_PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  })
}

/** While a check or a certificate is on its way, the domain page asks again this often. */
const WATCH_MS = 5_000

/** One domain; `watch`: asked again every few seconds while its proof or certificate is still to come. */
export function useDomain(id: number, { watch = false } = {}) {
  return useQuery({
    queryKey: queryKeys.domains.one(id),
    queryFn: async () => (await unwrap(api.GET('/api/domain/{id}', { params: { path: { id } } }))).data,
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: (query) => {
      const domain = query.state.data
      if (!watch || !domain) return false
      // Just verified: the certificate is ordered within seconds (when this server holds its own).
      const justVerified = domain.status === 'verified' && domain.certificate.status === 'none' && domain.verification.verified !== null &&
        Date.now() - parseServerTime(domain.verification.verified).getTime() < 2 * 60_000
      const waiting = domain.status === 'pending' || domain.certificate.status === 'pending' || justVerified
      return waiting ? WATCH_MS : false
    },
  })
}

/** The account's domains for a choice (the first 100, the API's largest page). */
export function useAllDomains() {
  return useQuery({ queryKey: queryKeys.domains.choices, queryFn: async () => (await unwrap(api.GET('/api/domains', { params: { query: { limit: 100 } } }))).data.domains, staleTime: 5 * 60_000 })
}

export function useDomainSetup() {
  return useQuery({ queryKey: queryKeys.domains.setup, queryFn: async (): Promise<DomainSetup> => (await unwrap(api.GET('/api/domains/setup'))).data, staleTime: 10 * 60_000 })
}

/** What `domain` resolves to now (the resolver the add check uses). */
export function useDnsCheck(domain: string) {
  return useQuery({
    queryKey: queryKeys.domains.dns(domain),
    queryFn: async () => (await unwrap(api.GET('/api/domains/dns', { params: { query: { domain } } }))).data,
    // Every click asks DNS again: the point is to see a change as soon as it is live.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  })
}

type DomainBody = paths['/api/domain/add']['post']['requestBody']['content']['application/json']
type DomainChange = NonNullable<paths['/api/domain/{id}/update']['put']['requestBody']>['content']['application/json']

/** Adds a branded domain; answers its id (its ownership is proven next, on its own page). */
export function useAddDomain() {
  return useCountedWrite({ send: (body: DomainBody) => unwrap(api.POST('/api/domain/add', { body })), refreshes: [queryKeys.domains.all] })
}

/** Changes a domain's redirects (an empty one is cleared). */
export function useUpdateDomain() {
  return useWrite({
    send: ({ id, body }: { id: number; body: DomainChange }) => unwrap(api.PUT('/api/domain/{id}/update', { params: { path: { id } }, body })),
    refreshes: [queryKeys.domains.all],
  })
}

export function useDeleteDomain() {
  return useCountedWrite({ send: (id: number) => unwrap(api.DELETE('/api/domain/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.domains.all] })
}

/** Checks the domain's proof now; its answer is the domain as it stands (shown at once), and the lists are asked again. */
export function useVerifyDomain() {
  const queryClient = useQueryClient()
  const refresh = useRefresh()
  return useMutation({
    mutationFn: async (id: number) => (await unwrap(api.POST('/api/domain/{id}/verify', { params: { path: { id } } }))).data,
    onSuccess: async (record, id) => {
      queryClient.setQueryData(queryKeys.domains.one(id), record)
      await refresh([queryKeys.domains.pages])
    },
  })
}
