// The campaign pages' server state: a page of campaigns, one campaign, and its links; creating,
// changing and deleting a campaign, adding links to it and taking them out.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useCountedWrite, useWrite } from '../api/write-queries'

export type Campaign = paths['/api/campaign/{id}']['get']['responses'][200]['content']['application/json']['data']

export const CAMPAIGN_PAGE_SIZE = 15

export function useCampaignPage(page: number) {
  return useQuery({
    queryKey: queryKeys.campaigns.page(page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/campaigns', { params: { query: { page, limit: CAMPAIGN_PAGE_SIZE } } }))).data,
  })
}

export function useCampaign(id: number) {
  return useQuery({
    queryKey: queryKeys.campaigns.one(id),
    enabled: Number.isInteger(id) && id > 0,
    queryFn: async () => (await unwrap(api.GET('/api/campaign/{id}', { params: { path: { id } } }))).data,
  })
}

/** The campaign's links (GET /api/urls?campaign=), most clicked first. */
export function useCampaignLinks(id: number, page: number) {
  return useQuery({
    queryKey: queryKeys.links.ofCampaign(id, page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/urls', { params: { query: { campaign: id, page, limit: CAMPAIGN_PAGE_SIZE, order: 'clicks' } } }))).data,
  })
}

/** The account's campaigns for a choice (the first 100, the API's largest page). */
export function useAllCampaigns() {
  return useQuery({ queryKey: queryKeys.campaigns.choices, queryFn: async () => (await unwrap(api.GET('/api/campaigns', { params: { query: { limit: 100 } } }))).data.campaigns, staleTime: 5 * 60_000 })
}

type CampaignCreateBody = paths['/api/campaign/add']['post']['requestBody']['content']['application/json']
type CampaignUpdateBody = NonNullable<paths['/api/campaign/{id}/update']['put']['requestBody']>['content']['application/json']

/** Creates a campaign; answers its id. */
export function useCreateCampaign() {
  return useCountedWrite({ send: (body: CampaignCreateBody) => unwrap(api.POST('/api/campaign/add', { body })), refreshes: [queryKeys.campaigns.all] })
}

export function useUpdateCampaign() {
  return useWrite({
    send: ({ id, body }: { id: number; body: CampaignUpdateBody }) => unwrap(api.PUT('/api/campaign/{id}/update', { params: { path: { id } }, body })),
    refreshes: [queryKeys.campaigns.all],
  })
}

/** Deletes a campaign; its links stay and only leave it. */
export function useDeleteCampaign() {
  return useCountedWrite({ send: (id: number) => unwrap(api.DELETE('/api/campaign/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.campaigns.all, queryKeys.links.all] })
}

/** Puts a link in the campaign (a link is in one campaign at most: one in another moves). */
export function useAddToCampaign() {
  return useWrite({
    send: ({ campaign, link }: { campaign: number; link: number }) => unwrap(api.POST('/api/campaign/{campaignid}/assign/{linkid}', { params: { path: { campaignid: campaign, linkid: link } } })),
    refreshes: [queryKeys.links.all],
  })
}

export function useRemoveFromCampaign() {
  return useWrite({
    send: ({ campaign, link }: { campaign: number; link: number }) => unwrap(api.DELETE('/api/campaign/{campaignid}/assign/{linkid}', { params: { path: { campaignid: campaign, linkid: link } } })),
    refreshes: [queryKeys.links.all],
  })
}
