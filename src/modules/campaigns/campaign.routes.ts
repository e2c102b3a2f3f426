// Campaign endpoints (spec: Campaigns): list, add, update, delete, assign a link.
import type { App, ModuleDeps } from '../../app.js'
import { CAMPAIGN_TOPIC } from '../../cache/topics.js'
import { accountOf } from '../../http/auth.js'
import { listEnvelope, toPageRequest } from '../../http/list.js'
import { errorResponses, IdParams, MessageResponse, PageQuery } from '../../http/schemas.js'
import { createLinkMembership } from '../links/link-membership.js'
import { toCampaignRecord, toCampaignSavedResponse } from './campaign.mapper.js'
import { createCampaignRepository } from './campaign.repository.js'
import { CampaignAssignParams, CampaignCreateBody, CampaignListResponse, CampaignSavedResponse, CampaignUpdateBody } from './campaign.schemas.js'
import { createCampaignService } from './campaign.service.js'

const tags = ['campaigns']

export function registerCampaignRoutes(app: App, { db, config, invalidation }: ModuleDeps): void {
  const campaigns = createCampaignService(createCampaignRepository(db), createLinkMembership(db), (id) => invalidation.publish(CAMPAIGN_TOPIC, id))

  app.get('/api/campaigns', {
    schema: { tags, summary: 'List campaigns', querystring: PageQuery, response: { 200: CampaignListResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    const page = toPageRequest(request.query)
    const { rows, total } = await campaigns.listCampaigns(account.id, page)
    return listEnvelope('campaigns', page, total, rows.map((row) => toCampaignRecord(row, config.publicUrl, account.username)))
  })

  app.post('/api/campaign/add', {
    schema: { tags, summary: 'Create a campaign', body: CampaignCreateBody, response: { 201: CampaignSavedResponse, ...errorResponses } },
  }, async (request, reply) => {
    const account = accountOf(request)
    const campaign = await campaigns.createCampaign(account, request.body)
    return reply.code(201).send(toCampaignSavedResponse(campaign, config.publicUrl, account.username))
  })

  app.put('/api/campaign/:id/update', {
    schema: { tags, summary: 'Update a campaign', params: IdParams, body: CampaignUpdateBody, response: { 200: CampaignSavedResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    const campaign = await campaigns.updateCampaign(account.id, request.params.id, request.body)
    return toCampaignSavedResponse(campaign, config.publicUrl, account.username)
  })

  app.delete('/api/campaign/:id/delete', {
    schema: { tags, summary: 'Delete a campaign (its links are unassigned)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await campaigns.deleteCampaign(accountOf(request).id, request.params.id)
    return { error: 0 as const, message: 'Campaign has been deleted successfully.' }
  })

  app.post('/api/campaign/:campaignid/assign/:linkid', {
    schema: { tags, summary: 'Assign a short link to a campaign', params: CampaignAssignParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await campaigns.assignLink(accountOf(request).id, request.params.campaignid, request.params.linkid)
    return { error: 0 as const, message: 'Link successfully added to the campaign.' }
  })
}
