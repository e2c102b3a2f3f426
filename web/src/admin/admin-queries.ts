// Reading the administration lists: accounts and people (a page at a time) and every plan.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export const usersQueryKey = ['admin', 'users'] as const
export const plansQueryKey = ['admin', 'plans'] as const
export const peopleQueryKey = ['admin', 'people'] as const

export function useUsers(page: number) {
  return useQuery({
    queryKey: [...usersQueryKey, page],
    queryFn: async () => (await unwrap(api.GET('/api/users', { params: { query: { page, limit: 25 } } }))).data,
  })
}

export type UserEntry = paths['/api/users']['get']['responses'][200]['content']['application/json']['data']['users'][number]

/** A page of the people who sign in, each with their workspaces and roles. */
export function usePeople(page: number) {
  return useQuery({
    queryKey: [...peopleQueryKey, page],
    queryFn: async () => (await unwrap(api.GET('/api/admin/people', { params: { query: { page, limit: 25 } } }))).data,
  })
}

/** Every plan (a service has a handful; the API's largest page is 100). */
export function usePlans() {
  return useQuery({
    queryKey: plansQueryKey,
    queryFn: async () => (await unwrap(api.GET('/api/plans', { params: { query: { limit: 100 } } }))).data.plans,
  })
}

export type PlanEntry = paths['/api/plans']['get']['responses'][200]['content']['application/json']['data']['plans'][number]
