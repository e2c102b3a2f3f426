// Signing in without a session (issue 38): what the sign-in page offers (GET /api/auth/options),
// forgotten passwords, sign-up and its confirmation, a new address confirmed from its mailed link.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useWrite } from '../api/write-queries'

export type AuthOptions = paths['/api/auth/options']['get']['responses'][200]['content']['application/json']['data']
type SignUpBody = paths['/api/auth/signup']['post']['requestBody']['content']['application/json']
type EmailChangeBody = paths['/api/account/email']['post']['requestBody']['content']['application/json']

/** Whether sign-up is open here (and for which domains) and whether the server can mail. */
export function useAuthOptions() {
  return useQuery({ queryKey: queryKeys.auth.options, queryFn: async (): Promise<AuthOptions> => (await unwrap(api.GET('/api/auth/options'))).data, staleTime: 5 * 60_000 })
}

/** Asks for a reset link; the answer is the same whoever the login names. */
export function useForgotPassword() {
  return useMutation({ mutationFn: async (login: string) => (await unwrap(api.POST('/api/auth/password/forgot', { body: { login } }))).message })
}

export function useResetPassword() {
  return useMutation({ mutationFn: async (body: { token: string; password: string }) => (await unwrap(api.POST('/api/auth/password/reset', { body }))).message })
}

export function useSignUp() {
  return useMutation({ mutationFn: async (body: SignUpBody) => (await unwrap(api.POST('/api/auth/signup', { body }))).message })
}

/** Confirms a sign-up: the new account is signed in, and becomes the cached one. */
export function useConfirmSignUp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (token: string) => (await unwrap(api.POST('/api/auth/signup/confirm', { body: { token } }))).data,
    onSuccess: (account) => {
      queryClient.clear()
      if (account) queryClient.setQueryData(queryKeys.account.all, account)
    },
  })
}

/** Confirms a new sign-in address from its link; the account shown (its e-mail) is asked again. */
export function useConfirmEmail() {
  return useWrite({ send: async (token: string) => (await unwrap(api.POST('/api/auth/email/confirm', { body: { token } }))).message, refreshes: [queryKeys.account.all] })
}

/** Asks for a new sign-in address (the current password confirms who asks); changed once its mailed link is opened. */
export function useRequestEmailChange() {
  return useWrite({ send: async (body: EmailChangeBody) => (await unwrap(api.POST('/api/account/email', { body }))).message, refreshes: [] })
}

/** The token of a mailed link: `#token=…` (the fragment never reaches a server's log). */
export function tokenOfHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? ''
}
