// Pixel endpoints (spec: Pixels; decisions §6): list, the providers and their tag forms, add, update, delete.
import type { App } from '../../http/app-instance.js'
import type { PixelService } from './pixel.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toPixelCreatedResponse, toPixelRecord } from './pixel.mapper.js'
import { PixelCreateBody, PixelCreatedResponse, PixelListResponse, PixelProvidersResponse, PixelUpdateBody } from './pixel.schemas.js'
import { listPixelProviders } from './pixel-tags.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'

const tags = ['pixels']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface PixelRouteDependencies {
  pixels: PixelService
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
}

export function registerPixelRoutes(app: App, { pixels, listEnvelope }: PixelRouteDependencies): void {
  app.get('/api/pixels', {
    schema: { tags, summary: 'List tracking pixels', querystring: PageQuery, response: { 200: PixelListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await pixels.listPixels(accountOf(request).id, page)
    return listEnvelope('pixels', page, total, rows.map(toPixelRecord))
  })

  // The one definition of each provider's tag form, so the dashboard checks tags as the server does.
  app.get('/api/pixels/providers', {
    schema: { tags, summary: 'The pixel providers and the form of each one’s tag', response: { 200: PixelProvidersResponse, ...errorResponses } },
  }, async () => ({ error: 0 as const, providers: listPixelProviders() }))

  app.post('/api/pixel/add', {
    schema: { tags, summary: 'Create a tracking pixel', body: PixelCreateBody, response: { 201: PixelCreatedResponse, ...errorResponses } },
  }, async (request, reply) => {
    const pixel = await pixels.createPixel(accountOf(request), request.body)
    return reply.code(201).send(toPixelCreatedResponse(pixel))
  })

  app.put('/api/pixel/:id/update', {
    schema: { tags, summary: 'Rename a pixel or change its tag', params: IdParams, body: PixelUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await pixels.updatePixel(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'Pixel has been updated successfully.' }
  })

  app.delete('/api/pixel/:id/delete', {
    schema: { tags, summary: 'Delete a tracking pixel', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await pixels.deletePixel(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Pixel has been deleted successfully.' }
  })
}
