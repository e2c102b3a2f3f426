// The campaign pages' server state: a page of campaigns, one campaign, and its links.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type Campaign = paths['/api/campaign/{id}']['get']['responses'][200]['content']['application/json']['data']

export const CAMPAIGN_PAGE_SIZE = 15

export function useCampaignPage(page: number) {
  return useQuery({
    // Under ['campaigns'], so every change to a campaign refreshes the link builder's list too.
    queryKey: ['campaigns', 'page', page],
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/campaigns', { params: { query: { page, limit: CAMPAIGN_PAGE_SIZE } } }))).data,
  })
}

export function useCampaign(id: number) {
  return useQuery({
    queryKey: ['campaigns', 'one', id],
    enabled: Number.isInteger(id) && id > 0,
    queryFn: async () => (await unwrap(api.GET('/api/campaign/{id}', { params: { path: { id } } }))).data,
  })
}

/** The campaign's links (GET /api/urls?campaign=), most clicked first. */
export function useCampaignLinks(id: number, page: number) {
  return useQuery({
    queryKey: ['links', { campaign: String(id), page, order: 'clicks' }],
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/urls', { params: { query: { campaign: id, page, limit: CAMPAIGN_PAGE_SIZE, order: 'clicks' } } }))).data,
  })
}

/** The account's campaigns for a choice (the first 100, the API's largest page). */
export function useAllCampaigns() {
  return useQuery({ queryKey: ['campaigns'], queryFn: async () => (await unwrap(api.GET('/api/campaigns', { params: { query: { limit: 100 } } }))).data.campaigns, staleTime: 5 * 60_000 })
}
