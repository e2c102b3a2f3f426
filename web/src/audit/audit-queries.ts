// The audit log's server state: a page of the account's audit log under filters (the "who"
// filter names the account's keys from account-queries.ts, useApiKeys).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'

export type AuditQuery = NonNullable<paths['/api/audit']['get']['parameters']['query']>
export type AuditEntry = paths['/api/audit']['get']['responses'][200]['content']['application/json']['data']['entries'][number]

export const AUDIT_PAGE_SIZE = 25

export function useAuditPage(query: AuditQuery) {
  return useQuery({
    queryKey: queryKeys.audit.page(query),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/audit', { params: { query: { ...query, limit: AUDIT_PAGE_SIZE } } }))).data,
  })
}
