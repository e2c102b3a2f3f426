// The statistics' server state: the account's totals and last 30 days (GET /api/stats), and one
// item's statistics over a range of days (GET /api/{url|qr|campaign|bio}/{id}/stats).
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { utcDay } from '../components/format'

export type StatisticsItem = 'url' | 'qr' | 'campaign' | 'bio'

export function useAccountStatistics() {
  // Under 'links' so that creating, changing or deleting a link refreshes it too.
  return useQuery({ queryKey: ['links', 'stats'], queryFn: async () => (await unwrap(api.GET('/api/stats'))).data })
}

function fetchStatistics(item: StatisticsItem, id: number, query: { from: string; to: string }) {
  const options = { params: { path: { id }, query } }
  switch (item) {
    case 'url': return unwrap(api.GET('/api/url/{id}/stats', options))
    case 'qr': return unwrap(api.GET('/api/qr/{id}/stats', options))
    case 'campaign': return unwrap(api.GET('/api/campaign/{id}/stats', options))
    case 'bio': return unwrap(api.GET('/api/bio/{id}/stats', options))
  }
}

/** One item's statistics from `from` to `to` (UTC days); a range reaching today is refreshed every 5 s. */
export function useItemStatistics(item: StatisticsItem, id: number, from: string, to: string) {
  return useQuery({
    queryKey: [item, id, 'stats', from, to],
    queryFn: async () => (await fetchStatistics(item, id, { from, to })).data,
    // The click recorder writes in batches: a fresh click shows within seconds. Past ranges are final.
    refetchInterval: (query) => (query.state.status !== 'error' && to >= utcDay(new Date()) ? 5000 : false),
    staleTime: 0,
  })
}
