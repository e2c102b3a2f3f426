// Reading the administration lists: accounts (a page at a time) and every plan.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'

export const usersQueryKey = ['admin', 'users'] as const
export const plansQueryKey = ['admin', 'plans'] as const

export function useUsers(page: number) {
  return useQuery({
    queryKey: [...usersQueryKey, page],
    queryFn: async () => (await unwrap(api.GET('/api/users', { params: { query: { page, limit: 25 } } }))).data,
  })
}

export type UserEntry = NonNullable<ReturnType<typeof useUsers>['data']>['users'][number]

/** Every plan (a service has a handful; the API's largest page is 100). */
export function usePlans() {
  return useQuery({
    queryKey: plansQueryKey,
    queryFn: async () => (await unwrap(api.GET('/api/plans', { params: { query: { limit: 100 } } }))).data.plans,
  })
}

export type PlanEntry = NonNullable<ReturnType<typeof usePlans>['data']>[number]
