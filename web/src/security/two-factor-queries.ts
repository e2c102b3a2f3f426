// The signed-in person's second factor (ADR 025): whether it is on, recovery codes left, and
// whether the workspace requires one.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type TwoFactorStatus = paths['/api/auth/two-factor']['get']['responses'][200]['content']['application/json']['data']
export type Enrolment = paths['/api/auth/two-factor/setup']['post']['responses'][200]['content']['application/json']['data']

export const twoFactorQueryKey = ['account', 'two-factor'] as const

export function useTwoFactorStatus() {
  return useQuery({ queryKey: twoFactorQueryKey, queryFn: async (): Promise<TwoFactorStatus> => (await unwrap(api.GET('/api/auth/two-factor'))).data })
}
