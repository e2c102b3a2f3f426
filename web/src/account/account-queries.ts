// The signed-in account's server state: who is signed in (the session probe), its API keys, its
// signed-in browsers, and what it uses of its plan; signing in and out, and the account's writes.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useWrite } from '../api/write-queries'

export type Account = paths['/api/account']['get']['responses'][200]['content']['application/json']['data']
/** The probe's account, with what the session still has to do (ADR 025): `enrol` sets up a second factor first. */
export type SignedInAccount = Account & { step?: 'code' | 'enrol' }
export type PlanUsage = paths['/api/account/limits']['get']['responses'][200]['content']['application/json']['data']
/** What a sign-in answers: the account, or null while a second factor's code is still to come (`step`). */
export interface SignedIn {
  data: Account | null
  step?: 'code' | 'enrol'
}
type KeyBody = paths['/api/key/add']['post']['requestBody']['content']['application/json']
type AccountChange = NonNullable<paths['/api/account/update']['put']['requestBody']>['content']['application/json']
type PasswordChangeBody = paths['/api/account/password']['put']['requestBody']['content']['application/json']

/**
 * The signed-in account, or null when nobody is: GET /api/auth/session answers a visitor without a
 * session with a 200, so a first visit logs no refused request in the browser's console.
 */
export function useAccount() {
  return useQuery({
    queryKey: queryKeys.account.all,
    queryFn: async (): Promise<SignedInAccount | null> => {
      const probe = await unwrap(api.GET('/api/auth/session'))
      // A session that waits for its code is nobody yet: the sign-in page asks for the code.
      return probe.data === null ? null : { ...probe.data, ...(probe.step ? { step: probe.step } : {}) }
    },
    staleTime: 5 * 60_000,
  })
}

export function useApiKeys(enabled = true) {
  return useQuery({ queryKey: queryKeys.account.keys, queryFn: async () => (await unwrap(api.GET('/api/keys'))).data, enabled })
}

/** The browsers signed in to the account. */
export function useAccountSessions() {
  return useQuery({ queryKey: queryKeys.account.sessions, queryFn: async () => (await unwrap(api.GET('/api/auth/sessions'))).data.sessions })
}

/** The account's limits and usage; `enabled` false waits (the shell asks once signed in). */
export function usePlanUsage(enabled = true) {
  return useQuery({
    queryKey: queryKeys.account.usage,
    enabled,
    queryFn: async (): Promise<PlanUsage> => (await unwrap(api.GET('/api/account/limits'))).data,
    staleTime: 30_000,
  })
}

/** The workspace's settings beyond the account: the time zone its statistics count days and hours in. */
export function useAccountSettings() {
  return useQuery({
    queryKey: queryKeys.account.settings,
    queryFn: async () => (await unwrap(api.GET('/api/account/settings'))).data,
    staleTime: 5 * 60_000,
  })
}

/** Creates an API key; answers it with its secret, shown once. */
export function useCreateKey() {
  return useWrite({ send: async (body: KeyBody) => unwrap(api.POST('/api/key/add', { body })), refreshes: [queryKeys.account.keys] })
}

export function useRevokeKey() {
  return useWrite({ send: (id: number) => unwrap(api.DELETE('/api/key/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.account.keys] })
}

export function useRevokeSession() {
  return useWrite({ send: (id: string) => unwrap(api.DELETE('/api/auth/session/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.account.sessions] })
}

/** Changes the password; the account's other sessions are signed out, so their list is asked again. */
export function useChangePassword() {
  return useWrite({ send: (body: PasswordChangeBody) => unwrap(api.PUT('/api/account/password', { body })), refreshes: [queryKeys.account.sessions] })
}

/** Changes the account's e-mail address or the workspace's time zone. */
export function useUpdateAccount() {
  return useWrite({ send: (body: AccountChange) => unwrap(api.PUT('/api/account/update', { body })), refreshes: [queryKeys.account.all] })
}

/** A finished sign-in's account becomes the cached one (the shell shows it without asking again). */
function useRememberSignedIn(): (signedIn: SignedIn) => void {
  const queryClient = useQueryClient()
  return (signedIn) => {
    if (signedIn.data === null || signedIn.step === 'code') return
    queryClient.setQueryData<SignedInAccount>(queryKeys.account.all, { ...signedIn.data, ...(signedIn.step ? { step: signedIn.step } : {}) })
  }
}

/** Signs in with a login and a password; with a second factor on, the answer asks for its code (`step: 'code'`). */
export function useSignIn() {
  const remember = useRememberSignedIn()
  return useMutation({
    mutationFn: async (body: { login: string; password: string }): Promise<SignedIn> => unwrap(api.POST('/api/auth/login', { body })),
    onSuccess: remember,
  })
}

/** The second step of a sign-in: a code from the authenticator app, or a recovery code. */
export function useVerifyCode() {
  const remember = useRememberSignedIn()
  return useMutation({
    mutationFn: async (code: string): Promise<SignedIn> => unwrap(api.POST('/api/auth/two-factor/verify', { body: { code } })),
    onSuccess: remember,
  })
}

/**
 * Forgets everything cached: it belonged to a session that ended or to a workspace left behind.
 * Called once the page that showed it has gone (cleared under a mounted page, it would be asked
 * again); `account`, given, becomes the signed-in one.
 */
export function useForgetAll(): (account?: Account) => void {
  const queryClient = useQueryClient()
  return useCallback((account) => {
    queryClient.clear()
    if (account) queryClient.setQueryData(queryKeys.account.all, account)
  }, [queryClient])
}

/**
 * Ends the session, then `leave`s (to the sign-in page), then forgets the cache. Whatever the
 * server answers, the person leaves: the sign-in page is where to try again. No mutation: its
 * state would render the shell once more on the way out, and a shell rendered over an emptied
 * cache asks who is signed in again.
 */
export function useSignOut(): (leave: () => Promise<void> | void) => Promise<void> {
  const forgetAll = useForgetAll()
  return useCallback(async (leave) => {
    await unwrap(api.POST('/api/auth/logout')).catch(() => undefined)
    await leave()
    forgetAll()
  }, [forgetAll])
}
