// Tag endpoints (issue 23): list, rename or colour, delete. Tags are made by the items that name them.
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'
import { toTagRecord, type TagService } from './tag.service.js'
import { TagListResponse, TagUpdateBody, TagUpdatedResponse } from './tag.schemas.js'

const tags = ['tags']

/** What the routes use, handed over by app.ts. */
export interface TagRouteDependencies {
  tags: TagService
  listEnvelope: ListEnvelope
}

export function registerTagRoutes(app: App, { tags: service, listEnvelope }: TagRouteDependencies): void {
  app.get('/api/tags', {
    schema: { tags, summary: 'List tags (by name), with how many links, QR codes and bio pages carry each', querystring: PageQuery, response: { 200: TagListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await service.listTags(accountOf(request).id, page)
    return listEnvelope('tags', page, total, rows.map((row) => ({ ...toTagRecord(row), links: Number(row.links), qrs: Number(row.qrs), bios: Number(row.bios) })))
  })

  app.put('/api/tag/:id/update', {
    schema: { tags, summary: 'Rename a tag or change its color ("" for the default)', params: IdParams, body: TagUpdateBody, response: { 200: TagUpdatedResponse, ...errorResponses } },
  }, async (request) => {
    const tag = await service.updateTag(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'Tag has been updated successfully.', id: tag.id, name: tag.name, color: tag.color }
  })

  app.delete('/api/tag/:id/delete', {
    schema: { tags, summary: 'Delete a tag (it leaves every link, QR code and bio page)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await service.deleteTag(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Tag has been deleted successfully.' }
  })
}
