// UTM template endpoints (issue 23): list, add, update, delete.
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'
import type { UtmTemplateService } from './utm-template.service.js'
import { toUtmTemplateRecord } from './utm-template.mapper.js'
import { UtmTemplateCreateBody, UtmTemplateCreatedResponse, UtmTemplateListResponse, UtmTemplateUpdateBody } from './utm-template.schemas.js'

const tags = ['links']

/** What the routes use, handed over by app.ts. */
export interface UtmTemplateRouteDependencies {
  utmTemplates: UtmTemplateService
  listEnvelope: ListEnvelope
}

export function registerUtmTemplateRoutes(app: App, { utmTemplates, listEnvelope }: UtmTemplateRouteDependencies): void {
  app.get('/api/utm-templates', {
    schema: { tags, summary: 'List UTM templates (newest first)', querystring: PageQuery, response: { 200: UtmTemplateListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await utmTemplates.listTemplates(accountOf(request).id, page)
    return listEnvelope('templates', page, total, rows.map(toUtmTemplateRecord))
  })

  app.post('/api/utm-template/add', {
    schema: { tags, summary: 'Create a UTM template (a name and at least one UTM parameter)', body: UtmTemplateCreateBody, response: { 201: UtmTemplateCreatedResponse, ...errorResponses } },
  }, async (request, reply) => {
    const template = await utmTemplates.createTemplate(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, ...template })
  })

  app.put('/api/utm-template/:id/update', {
    schema: { tags, summary: 'Rename a UTM template or replace its parameters', params: IdParams, body: UtmTemplateUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await utmTemplates.updateTemplate(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'UTM template has been updated successfully.' }
  })

  app.delete('/api/utm-template/:id/delete', {
    schema: { tags, summary: 'Delete a UTM template (links keep the parameters they were given)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await utmTemplates.deleteTemplate(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'UTM template has been deleted successfully.' }
  })
}
