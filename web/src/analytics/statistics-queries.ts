// The statistics' server state: the account's totals and last 30 days (GET /api/stats), one
// item's statistics over a range of days under the view's filters (GET /api/{url|qr|campaign|bio}/{id}/stats),
// and the last 60 minutes, polled for the live counter (GET …/stats/live).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import type { RangeStatistics } from './statistics-csv'
import type { FilterDimension, StatisticsQuery } from './statistics-view'

export type StatisticsItem = 'url' | 'qr' | 'campaign' | 'bio'
/** What a statistics page is about: one item, or the whole workspace (all its links). */
export type StatisticsScope = StatisticsItem | 'workspace'

type AccountStatistics = paths['/api/stats']['get']['responses'][200]['content']['application/json']['data']
export type TopLink = AccountStatistics['topLinks'][number]
/** An item's statistics, or the workspace's with its top links. */
export type ViewStatistics = RangeStatistics & { topLinks?: TopLink[] }

/** How often the live counter asks for the last 60 minutes. */
export const LIVE_INTERVAL_MS = 5000

export function useAccountStatistics() {
  // Under the links' keys, so that creating, changing or deleting a link refreshes it too.
  return useQuery({ queryKey: queryKeys.links.statistics, queryFn: async () => (await unwrap(api.GET('/api/stats'))).data })
}

function fetchStatistics(item: StatisticsItem, id: number, query: StatisticsQuery) {
  const options = { params: { path: { id }, query } }
  switch (item) {
    case 'url': return unwrap(api.GET('/api/url/{id}/stats', options))
    case 'qr': return unwrap(api.GET('/api/qr/{id}/stats', options))
    case 'campaign': return unwrap(api.GET('/api/campaign/{id}/stats', options))
    case 'bio': return unwrap(api.GET('/api/bio/{id}/stats', options))
  }
}

const NO_SOCIAL = { facebook: 0, twitter: 0, instagram: 0, linkedin: 0 }

/** The workspace's answer in an item's shape (its top lists are there when asked from the raw clicks). */
async function fetchWorkspaceStatistics(query: StatisticsQuery): Promise<ViewStatistics> {
  const data = (await unwrap(api.GET('/api/stats', { params: { query } }))).data
  const { totals: _totals, ...rest } = data
  return {
    ...rest,
    topCountries: data.topCountries ?? {},
    topReferrers: data.topReferrers ?? {},
    topBrowsers: data.topBrowsers ?? {},
    topOs: data.topOs ?? {},
    topDevices: data.topDevices ?? {},
    topLanguages: data.topLanguages ?? {},
    socialCount: data.socialCount ?? NO_SOCIAL,
  }
}

/**
 * One item's (or the workspace's) statistics as `query` asks (range, filters, granularity, comparison); a range
 * reaching `today` (the workspace's) is refreshed every 5 s. `enabled` false waits (for the
 * workspace's time zone). While a new view loads, the last one stays on screen.
 */
export function useItemStatistics(item: StatisticsScope, id: number, query: StatisticsQuery, today: string, enabled = true) {
  return useQuery({
    // The workspace's under the links' keys, so that creating, changing or deleting a link refreshes it.
    queryKey: item === 'workspace' ? queryKeys.links.statisticsView(query) : queryKeys.statistics.item(item, id, query),
    queryFn: async (): Promise<ViewStatistics> => (item === 'workspace' ? fetchWorkspaceStatistics(query) : (await fetchStatistics(item, id, query)).data),
    enabled,
    placeholderData: keepPreviousData,
    // The click recorder writes in batches: a fresh click shows within seconds. Past ranges are final.
    refetchInterval: (state) => (state.state.status !== 'error' && query.to >= today ? 5000 : false),
    staleTime: 0,
  })
}

type LiveFilters = Partial<Record<FilterDimension, string>>

function fetchLive(item: StatisticsItem | 'workspace', id: number, query: LiveFilters) {
  const options = { params: { path: { id }, query } }
  switch (item) {
    case 'url': return unwrap(api.GET('/api/url/{id}/stats/live', options))
    case 'qr': return unwrap(api.GET('/api/qr/{id}/stats/live', options))
    case 'campaign': return unwrap(api.GET('/api/campaign/{id}/stats/live', options))
    case 'bio': return unwrap(api.GET('/api/bio/{id}/stats/live', options))
    case 'workspace': return unwrap(api.GET('/api/stats/live', { params: { query } }))
  }
}

/**
 * The last 60 minutes per minute of an item (or, for 'workspace', of all the account's links)
 * under the chips' filters, asked again every 5 s; after a refusal it stops asking (a retry button does).
 */
export function useLiveStatistics(item: StatisticsItem | 'workspace', id: number, filters: LiveFilters) {
  return useQuery({
    queryKey: item === 'workspace' ? queryKeys.links.live(filters) : queryKeys.statistics.live(item, id, filters),
    queryFn: async () => (await fetchLive(item, id, filters)).data,
    placeholderData: keepPreviousData,
    refetchInterval: (state) => (state.state.status === 'error' ? false : LIVE_INTERVAL_MS),
    refetchIntervalInBackground: false,
    staleTime: 0,
  })
}
