// Campaign endpoints (spec: Campaigns): list, read one, add, update, delete, assign and remove a link.
import type { App } from '../../http/app-instance.js'
import type { CampaignService } from './campaign.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toCampaignRecord, toCampaignSavedResponse } from './campaign.mapper.js'
import { CampaignAssignParams, CampaignCreateBody, CampaignDetailsResponse, CampaignListResponse, CampaignSavedResponse, CampaignUpdateBody } from './campaign.schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'

const tags = ['campaigns']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface CampaignRouteDependencies {
  campaigns: CampaignService
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
}

export function registerCampaignRoutes(app: App, { campaigns, publicUrl, listEnvelope }: CampaignRouteDependencies): void {
  app.get('/api/campaigns', {
    schema: { tags, summary: 'List campaigns', querystring: PageQuery, response: { 200: CampaignListResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    const page = toPageRequest(request.query)
    const { rows, total } = await campaigns.listCampaigns(account.id, page)
    return listEnvelope('campaigns', page, total, rows.map((row) => toCampaignRecord(row, publicUrl, account.username)))
  })

  app.get('/api/campaign/:id', {
    schema: { tags, summary: 'Read one campaign', params: IdParams, response: { 200: CampaignDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    const campaign = await campaigns.getCampaignOrThrow(account.id, request.params.id)
    return { error: 0 as const, data: toCampaignRecord(campaign, publicUrl, account.username) }
  })

  app.post('/api/campaign/add', {
    schema: { tags, summary: 'Create a campaign', body: CampaignCreateBody, response: { 201: CampaignSavedResponse, ...errorResponses } },
  }, async (request, reply) => {
    const account = accountOf(request)
    const campaign = await campaigns.createCampaign(account, request.body)
    return reply.code(201).send(toCampaignSavedResponse(campaign, publicUrl, account.username))
  })

  app.put('/api/campaign/:id/update', {
    schema: { tags, summary: 'Update a campaign', params: IdParams, body: CampaignUpdateBody, response: { 200: CampaignSavedResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    const campaign = await campaigns.updateCampaign(account, request.params.id, request.body)
    return toCampaignSavedResponse(campaign, publicUrl, account.username)
  })

  app.delete('/api/campaign/:id/delete', {
    schema: { tags, summary: 'Delete a campaign (its links are unassigned)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await campaigns.deleteCampaign(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Campaign has been deleted successfully.' }
  })

  app.post('/api/campaign/:campaignid/assign/:linkid', {
    schema: { tags, summary: 'Assign a short link to a campaign', params: CampaignAssignParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await campaigns.assignLink(accountOf(request), request.params.campaignid, request.params.linkid)
    return { error: 0 as const, message: 'Link successfully added to the campaign.' }
  })

  app.delete('/api/campaign/:campaignid/assign/:linkid', {
    schema: { tags, summary: 'Remove a short link from a campaign (the link itself stays)', params: CampaignAssignParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await campaigns.removeLink(accountOf(request), request.params.campaignid, request.params.linkid)
    return { error: 0 as const, message: 'Link successfully removed from the campaign.' }
  })
}
