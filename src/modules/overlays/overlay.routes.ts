// CTA overlay endpoints (spec: CTA overlays; decisions §6 adds create, update and delete).
import type { App } from '../../http/app-instance.js'
import type { OverlayService } from './overlay.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toContactRecord, toOverlayDetails, toOverlayRecord } from './overlay.mapper.js'
import { ContactListResponse, OverlayCreateBody, OverlayCreatedResponse, OverlayDetailsResponse, OverlayListResponse, OverlayUpdateBody } from './overlay.schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'

const tags = ['overlays']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface OverlayRouteDependencies {
  overlays: OverlayService
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
}

export function registerOverlayRoutes(app: App, { overlays, listEnvelope }: OverlayRouteDependencies): void {
  app.get('/api/overlay', {
    schema: { tags, summary: 'List CTA overlays', querystring: PageQuery, response: { 200: OverlayListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await overlays.listOverlays(accountOf(request).id, page)
    return listEnvelope('cta', page, total, rows.map(toOverlayRecord))
  })

  app.get('/api/overlay/:id', {
    schema: { tags, summary: 'Get one CTA overlay with the fields of its type', params: IdParams, response: { 200: OverlayDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const overlay = await overlays.getOverlayOrThrow(accountOf(request).id, request.params.id)
    return { error: 0 as const, data: toOverlayDetails(overlay) }
  })

  app.get('/api/overlay/:id/contacts', {
    schema: { tags, summary: 'What visitors sent through a contact overlay, newest first', params: IdParams, querystring: PageQuery, response: { 200: ContactListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await overlays.listContacts(accountOf(request).id, request.params.id, page)
    return listEnvelope('contacts', page, total, rows.map(toContactRecord))
  })

  app.post('/api/overlay/add', {
    schema: {
      tags,
      summary: 'Create a CTA overlay: `message` (message, label, link, color, bg) or `contact` (email, title, description, label)',
      body: OverlayCreateBody,
      response: { 201: OverlayCreatedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const overlay = await overlays.createOverlay(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, id: overlay.id })
  })

  app.put('/api/overlay/:id/update', {
    schema: { tags, summary: 'Update a CTA overlay (its type cannot change)', params: IdParams, body: OverlayUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await overlays.updateOverlay(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'CTA overlay has been updated successfully.' }
  })

  app.delete('/api/overlay/:id/delete', {
    schema: { tags, summary: 'Delete a CTA overlay', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await overlays.deleteOverlay(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'CTA overlay has been deleted successfully.' }
  })
}
