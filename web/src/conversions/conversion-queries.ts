// The conversions' server state (issue 39): the funnel of a view (GET /api/conversions/funnel) and
// its rows by link, campaign, channel or tag (GET /api/conversions/top), under the same range and
// filters as the workspace's statistics; the latest sales of the range (its days in the workspace's
// zone as UTC bounds), of the workspace or of one link (GET /api/conversions/sales). A view reaching today is asked again every 10 s:
// a lead or a sale a site reports shows within seconds.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import type { StatisticsQuery } from '../analytics/statistics-view'

export type Funnel = paths['/api/conversions/funnel']['get']['responses'][200]['content']['application/json']['data']
type TopQuery = NonNullable<paths['/api/conversions/top']['get']['parameters']['query']>
export type TopBy = NonNullable<TopQuery['by']>
export type TopSort = NonNullable<TopQuery['sort']>
export type TopRow = paths['/api/conversions/top']['get']['responses'][200]['content']['application/json']['data']['rows'][number]
export type SalesPage = paths['/api/conversions/sales']['get']['responses'][200]['content']['application/json']['data']
export type Sale = SalesPage['sales'][number]

const REFRESH_MS = 10_000

/** What a conversions query asks: the view's range and filters (no granularity: the funnel has no series). */
export type ConversionQuery = Omit<StatisticsQuery, 'granularity' | 'compare'>

function refreshWhileToday(query: ConversionQuery, today: string) {
  return (state: { state: { status: string } }) => (state.state.status !== 'error' && query.to >= today ? REFRESH_MS : false)
}

export function useFunnel(query: ConversionQuery, today: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.conversions.funnel(query),
    queryFn: async (): Promise<Funnel> => (await unwrap(api.GET('/api/conversions/funnel', { params: { query } }))).data,
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: refreshWhileToday(query, today),
  })
}

export function useTopConversions(query: ConversionQuery & { by: TopBy; sort: TopSort }, today: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.conversions.top(query),
    queryFn: async (): Promise<TopRow[]> => (await unwrap(api.GET('/api/conversions/top', { params: { query: { ...query, limit: 10 } } }))).data.rows,
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: refreshWhileToday(query, today),
  })
}

/** The latest sales (and refunds) between two UTC times, newest first, a page of 10: the workspace's, or `link`'s. */
export function useRecentSales(link: number | undefined, bounds: { from: string; to: string }, page: number) {
  const query = { page, limit: 10, from: bounds.from, to: bounds.to, ...(link === undefined ? {} : { link }) }
  return useQuery({
    queryKey: queryKeys.conversions.sales(query),
    queryFn: async (): Promise<SalesPage> => (await unwrap(api.GET('/api/conversions/sales', { params: { query } }))).data,
    placeholderData: keepPreviousData,
    refetchInterval: (state) => (state.state.status !== 'error' ? REFRESH_MS : false),
  })
}
