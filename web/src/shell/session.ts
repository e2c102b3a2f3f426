// The signed-in account, read once and shared through the query cache.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'

export const accountQueryKey = ['account'] as const

export function useAccount() {
  return useQuery({
    queryKey: accountQueryKey,
    queryFn: async () => (await unwrap(api.GET('/api/account'))).data,
    staleTime: 5 * 60_000,
  })
}
