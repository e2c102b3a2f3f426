// Single sign-on as the dashboard reads and writes it (ADR 033): the providers the sign-in page
// offers (each with whether it answers now), a workspace's requirement and group mapping, and the
// providers the instance administrator keeps.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useWrite } from '../api/write-queries'

export type OfferedProvider = paths['/api/auth/oidc/providers']['get']['responses'][200]['content']['application/json']['data'][number]
export type WorkspaceSso = paths['/api/workspace/sso']['get']['responses'][200]['content']['application/json']['data']
export type WorkspaceSsoInput = paths['/api/workspace/sso']['put']['requestBody']['content']['application/json']
export type AdminProviders = paths['/api/admin/sso/providers']['get']['responses'][200]['content']['application/json']['data']
export type ProviderInput = paths['/api/admin/sso/provider/add']['post']['requestBody']['content']['application/json']

/** The sign-in page's buttons; none when the instance has no provider (or the list cannot be read: the password form stays). */
export function useSsoProviders() {
  return useQuery({ queryKey: queryKeys.sso.providers, queryFn: async (): Promise<OfferedProvider[]> => (await unwrap(api.GET('/api/auth/oidc/providers'))).data, retry: false })
}

export function useWorkspaceSso() {
  return useQuery({ queryKey: queryKeys.sso.workspace, queryFn: async (): Promise<WorkspaceSso> => (await unwrap(api.GET('/api/workspace/sso'))).data })
}

/** Saves the workspace's provider, requirement and mapping; the members list changes at their next sign-in. */
export function useSaveWorkspaceSso() {
  return useWrite({ send: async (input: WorkspaceSsoInput) => (await unwrap(api.PUT('/api/workspace/sso', { body: input }))).data, refreshes: [queryKeys.sso.workspace] })
}

export function useAdminProviders() {
  return useQuery({ queryKey: queryKeys.sso.adminProviders, queryFn: async (): Promise<AdminProviders> => (await unwrap(api.GET('/api/admin/sso/providers'))).data })
}

export function useAddProvider() {
  return useWrite({ send: async (input: ProviderInput) => (await unwrap(api.POST('/api/admin/sso/provider/add', { body: input }))).data, refreshes: [queryKeys.sso.adminProviders, queryKeys.sso.providers] })
}

export function useDeleteProvider() {
  return useWrite({ send: (id: number) => unwrap(api.DELETE('/api/admin/sso/provider/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.sso.adminProviders, queryKeys.sso.providers] })
}
