// Pixel endpoints (spec: Pixels; decisions §6): list, add, update, delete.
import type { App, ModuleDeps } from '../../app.js'
import { PIXEL_TOPIC } from '../../cache/topics.js'
import { accountOf } from '../../http/auth.js'
import { listEnvelope, toPageRequest } from '../../http/list.js'
import { errorResponses, IdParams, MessageResponse, PageQuery } from '../../http/schemas.js'
import { toPixelCreatedResponse, toPixelRecord } from './pixel.mapper.js'
import { createPixelRepository } from './pixel.repository.js'
import { PixelCreateBody, PixelCreatedResponse, PixelListResponse, PixelUpdateBody } from './pixel.schemas.js'
import { createPixelService } from './pixel.service.js'

const tags = ['pixels']

export function registerPixelRoutes(app: App, { db, invalidation }: ModuleDeps): void {
  const pixels = createPixelService(createPixelRepository(db), (id) => invalidation.publish(PIXEL_TOPIC, id))

  app.get('/api/pixels', {
    schema: { tags, summary: 'List tracking pixels', querystring: PageQuery, response: { 200: PixelListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await pixels.listPixels(accountOf(request).id, page)
    return listEnvelope('pixels', page, total, rows.map(toPixelRecord))
  })

  app.post('/api/pixel/add', {
    schema: { tags, summary: 'Create a tracking pixel', body: PixelCreateBody, response: { 201: PixelCreatedResponse, ...errorResponses } },
  }, async (request, reply) => {
    const pixel = await pixels.createPixel(accountOf(request), request.body)
    return reply.code(201).send(toPixelCreatedResponse(pixel))
  })

  app.put('/api/pixel/:id/update', {
    schema: { tags, summary: 'Rename a pixel or change its tag', params: IdParams, body: PixelUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await pixels.updatePixel(accountOf(request).id, request.params.id, request.body)
    return { error: 0 as const, message: 'Pixel has been updated successfully.' }
  })

  app.delete('/api/pixel/:id/delete', {
    schema: { tags, summary: 'Delete a tracking pixel', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await pixels.deletePixel(accountOf(request).id, request.params.id)
    return { error: 0 as const, message: 'Pixel has been deleted successfully.' }
  })
}
