// The administration's server state: accounts and people (a page at a time) and every plan; an
// administrator's writes to accounts and plans.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useWrite } from '../api/write-queries'

export type UserEntry = paths['/api/users']['get']['responses'][200]['content']['application/json']['data']['users'][number]
export type PlanEntry = paths['/api/plans']['get']['responses'][200]['content']['application/json']['data']['plans'][number]
type PlanBody = paths['/api/plan/add']['post']['requestBody']['content']['application/json']
type UserBody = paths['/api/user/add']['post']['requestBody']['content']['application/json']
/** What an administrator may do to an account besides moving it to another plan. */
export type UserAction = 'suspend' | 'unsuspend' | 'delete'

export function useUsers(page: number) {
  return useQuery({
    queryKey: queryKeys.admin.usersPage(page),
    queryFn: async () => (await unwrap(api.GET('/api/users', { params: { query: { page, limit: 25 } } }))).data,
  })
}

/** A page of the people who sign in, each with their workspaces and roles. */
export function usePeople(page: number) {
  return useQuery({
    queryKey: queryKeys.admin.peoplePage(page),
    queryFn: async () => (await unwrap(api.GET('/api/admin/people', { params: { query: { page, limit: 25 } } }))).data,
  })
}

export type SystemStatus = paths['/api/admin/system']['get']['responses'][200]['content']['application/json']['data']

/** Which engine answers statistics, and how far it is (the system page). */
export function useSystem() {
  return useQuery({
    queryKey: queryKeys.admin.system,
    queryFn: async () => (await unwrap(api.GET('/api/admin/system'))).data,
  })
}

/** Every plan (a service has a handful; the API's largest page is 100). */
export function usePlans() {
  return useQuery({
    queryKey: queryKeys.admin.plans,
    queryFn: async () => (await unwrap(api.GET('/api/plans', { params: { query: { limit: 100 } } }))).data.plans,
  })
}

/** Creates a plan, or (with `id`) changes one; answers the plan. Its accounts' limits change at once: the signed-in admin's own may be among them. */
export function useSavePlan() {
  return useWrite({
    send: async ({ id, body }: { id?: number; body: PlanBody }): Promise<PlanEntry> => (id === undefined
      ? await unwrap(api.POST('/api/plan/add', { body }))
      : await unwrap(api.PUT('/api/plan/{id}/update', { params: { path: { id } }, body }))).data,
    refreshes: [queryKeys.admin.plans, queryKeys.admin.users, queryKeys.account.usage],
  })
}

export function useDeletePlan() {
  return useWrite({ send: (id: number) => unwrap(api.DELETE('/api/plan/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.admin.plans] })
}

/** Creates an account (and its first person); answers its username and API key, shown once. */
export function useCreateUser() {
  return useWrite({ send: (body: UserBody) => unwrap(api.POST('/api/user/add', { body })), refreshes: [queryKeys.admin.users, queryKeys.admin.people] })
}

export function useAssignPlan() {
  return useWrite({
    send: ({ user, plan }: { user: number; plan: number }) => unwrap(api.PUT('/api/plan/{id}/user/{userid}', { params: { path: { id: plan, userid: user } } })),
    refreshes: [queryKeys.admin.users],
  })
}

/** Suspends, unsuspends or deletes the account of `id`. */
export function useUserAction(action: UserAction) {
  return useWrite({
    send: (id: number) => {
      const params = { params: { path: { id } } }
      if (action === 'delete') return unwrap(api.DELETE('/api/user/{id}/delete', params))
      return action === 'suspend' ? unwrap(api.PUT('/api/user/{id}/suspend', params)) : unwrap(api.PUT('/api/user/{id}/unsuspend', params))
    },
    refreshes: [queryKeys.admin.users, queryKeys.admin.people],
  })
}
