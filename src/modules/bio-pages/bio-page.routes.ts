// Bio page endpoints (decisions §6: Bio pages): list, read, add, update, delete. The page itself
// is served to visitors at `{base}/{alias}` (src/public/bio-page.view.ts); the preview of a draft
// is with the other previews in src/public/preview.routes.ts.
import type { App } from '../../http/app-instance.js'
import type { BioPageService } from './bio-page.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { aliasDrawingErrorResponses, errorResponses } from '../../http/schemas.js'
import { bioPageUrl, toBioPageDetails, toBioPageListEntry } from './bio-page.mapper.js'
import { BioPageCreateBody, BioPageCreatedResponse, BioPageDetailsResponse, BioPageListQuery, BioPageListResponse, BioPageUpdateBody } from './bio-page.schemas.js'
import { filterKeys } from '../tags/tag-names.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse } from '../../core/schemas.js'

const tags = ['bio pages']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface BioPageRouteDependencies {
  bioPages: BioPageService
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
}

export function registerBioPageRoutes(app: App, { bioPages, publicUrl, listEnvelope }: BioPageRouteDependencies): void {
  app.get('/api/bio', {
    schema: { tags, summary: 'List bio pages (`tag` narrows the list; several: all must match)', querystring: BioPageListQuery, response: { 200: BioPageListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await bioPages.listBioPages(accountOf(request).id, page, filterKeys(request.query.tag))
    return listEnvelope('bio', page, total, rows.map(({ row, tags: tagNames }) => toBioPageListEntry(row, publicUrl, tagNames)))
  })

  app.get('/api/bio/:id', {
    schema: { tags, summary: 'Get a bio page with its blocks', params: IdParams, response: { 200: BioPageDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const page = await bioPages.getBioPageOrThrow(accountOf(request).id, request.params.id)
    return { error: 0 as const, data: toBioPageDetails(page, publicUrl, await bioPages.tagsOf(page.id)) }
  })

  app.post('/api/bio/add', {
    schema: { tags, summary: 'Create a bio page', body: BioPageCreateBody, response: { 201: BioPageCreatedResponse, ...aliasDrawingErrorResponses } },
  }, async (request, reply) => {
    const page = await bioPages.createBioPage(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, id: page.id, url: bioPageUrl(publicUrl, page.alias) })
  })

  app.put('/api/bio/:id/update', {
    schema: { tags, summary: 'Update a bio page (blocks replace the whole list)', params: IdParams, body: BioPageUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await bioPages.updateBioPage(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'Bio page has been updated successfully.' }
  })

  app.delete('/api/bio/:id/delete', {
    schema: { tags, summary: 'Delete a bio page (it leaves every channel)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await bioPages.deleteBioPage(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Bio page has been deleted successfully.' }
  })
}
