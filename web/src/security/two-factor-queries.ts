// The signed-in person's second factor (ADR 025): whether it is on, recovery codes left, and
// whether the workspace requires one; setting it up, turning it off, requiring it.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useWrite } from '../api/write-queries'

export type TwoFactorStatus = paths['/api/auth/two-factor']['get']['responses'][200]['content']['application/json']['data']
export type Enrolment = paths['/api/auth/two-factor/setup']['post']['responses'][200]['content']['application/json']['data']

export function useTwoFactorStatus() {
  return useQuery({ queryKey: queryKeys.account.twoFactor, queryFn: async (): Promise<TwoFactorStatus> => (await unwrap(api.GET('/api/auth/two-factor'))).data })
}

/** A new secret and its QR code for the authenticator app; nothing is on until a code confirms it. */
export function useStartEnrolment() {
  return useWrite({ send: async (): Promise<Enrolment> => (await unwrap(api.POST('/api/auth/two-factor/setup'))).data, refreshes: [] })
}

/**
 * Turns the second factor on with a code from the app; answers the recovery codes. A workspace
 * that required it lets the session go everywhere now: the whole account is read again.
 */
export function useEnableTwoFactor() {
  return useWrite({
    send: async (code: string) => (await unwrap(api.POST('/api/auth/two-factor/enable', { body: { code } }))).data.recoverycodes,
    refreshes: [queryKeys.account.all],
  })
}

export function useDisableTwoFactor() {
  return useWrite({ send: (code: string) => unwrap(api.POST('/api/auth/two-factor/disable', { body: { code } })), refreshes: [queryKeys.account.twoFactor] })
}

/** Requires (or stops requiring) a second factor of every member; the members list shows who has one. */
export function useRequireTwoFactor() {
  return useWrite({
    send: (required: boolean) => unwrap(api.PUT('/api/workspace/two-factor', { body: { required } })),
    refreshes: [queryKeys.account.twoFactor, queryKeys.members.all],
  })
}
