// The signed-in account's server state: who is signed in (the session probe), its API keys, its
// signed-in browsers, and what it uses of its plan.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type Account = paths['/api/account']['get']['responses'][200]['content']['application/json']['data']
/** The probe's account, with what the session still has to do (ADR 025): `enrol` sets up a second factor first. */
export type SignedInAccount = Account & { step?: 'code' | 'enrol' }
export type PlanUsage = paths['/api/account/limits']['get']['responses'][200]['content']['application/json']['data']

export const accountQueryKey = ['account'] as const
export const keysQueryKey = ['account', 'keys'] as const
export const sessionsQueryKey = ['account', 'sessions'] as const
export const usageQueryKey = ['account', 'usage'] as const
export const settingsQueryKey = ['account', 'settings'] as const

/**
 * The signed-in account, or null when nobody is: GET /api/auth/session answers a visitor without a
 * session with a 200, so a first visit logs no refused request in the browser's console.
 */
export function useAccount() {
  return useQuery({
    queryKey: accountQueryKey,
    queryFn: async (): Promise<SignedInAccount | null> => {
      const probe = await unwrap(api.GET('/api/auth/session'))
      // A session that waits for its code is nobody yet: the sign-in page asks for the code.
      return probe.data === null ? null : { ...probe.data, ...(probe.step ? { step: probe.step } : {}) }
    },
    staleTime: 5 * 60_000,
  })
}

export function useApiKeys(enabled = true) {
  return useQuery({ queryKey: keysQueryKey, queryFn: async () => (await unwrap(api.GET('/api/keys'))).data, enabled })
}

/** The browsers signed in to the account. */
export function useAccountSessions() {
  return useQuery({ queryKey: sessionsQueryKey, queryFn: async () => (await unwrap(api.GET('/api/auth/sessions'))).data.sessions })
}

/** The account's limits and usage; `enabled` false waits (the shell asks once signed in). */
export function usePlanUsage(enabled = true) {
  return useQuery({
    queryKey: usageQueryKey,
    enabled,
    queryFn: async (): Promise<PlanUsage> => (await unwrap(api.GET('/api/account/limits'))).data,
    staleTime: 30_000,
  })
}

/** Call after creating or deleting a limited record: the counts change. */
export function useRefreshUsage(): () => Promise<void> {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: usageQueryKey })
}

/** The workspace's settings beyond the account: the time zone its statistics count days and hours in. */
export function useAccountSettings() {
  return useQuery({
    queryKey: settingsQueryKey,
    queryFn: async () => (await unwrap(api.GET('/api/account/settings'))).data,
    staleTime: 5 * 60_000,
  })
}
