// QR code endpoints (spec: QR codes): list, read with statistics, add, update, delete; and the
// dashboard's previews, which draw what a creation or an update would serve without storing it.
import type { FastifyReply } from 'fastify'
import type { Static } from 'typebox'
import type { App } from '../../http/app-instance.js'
import type { QrCodeService } from './qr-code.service.js'
import type { StatisticsService } from '../statistics/statistics.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { aliasDrawingErrorResponses, errorResponses } from '../../http/schemas.js'
import type { QrPreviewOptions } from './qr-code.service.js'
import { qrImageUrl, toQrDetailsResponse, toQrListEntry } from './qr-code.mapper.js'
import { QR_IMAGE_DEFAULT_SIZE, QrCreateBody, QrCreatedResponse, QrDetailsResponse, QrImageQuery, QrListQuery, QrListResponse, QrPreviewImage, QrUpdateBody } from './qr-code.schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { filterKeys } from '../tags/tag-names.js'
import { IdParams, MessageResponse } from '../../core/schemas.js'

const tags = ['qr codes']

function viewOf(query: Static<typeof QrImageQuery>): QrPreviewOptions {
  return { format: query.format ?? 'png', size: query.size ?? QR_IMAGE_DEFAULT_SIZE }
}

function sendPreview(reply: FastifyReply, image: { body: Buffer | string; contentType: string }) {
  // Drawn for one person's design: never kept by a cache, never run as a document.
  reply.headers({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
  return reply.type(image.contentType).send(image.body)
}

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface QrCodeRouteDependencies {
  qrCodes: QrCodeService
  statistics: StatisticsService
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
}

export function registerQrCodeRoutes(app: App, { qrCodes, statistics, publicUrl, listEnvelope }: QrCodeRouteDependencies): void {
  app.get('/api/qr', {
    schema: { tags, summary: 'List QR codes (`tag` narrows the list; several: all must match)', querystring: QrListQuery, response: { 200: QrListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await qrCodes.listQrCodes(accountOf(request).id, page, filterKeys(request.query.tag))
    return listEnvelope('qrs', page, total, rows.map(({ row, tags: tagNames }) => toQrListEntry(row, publicUrl, tagNames)))
  })

  app.get('/api/qr/:id', {
    schema: { tags, summary: 'Read a QR code and its scan statistics', params: IdParams, response: { 200: QrDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const qr = await qrCodes.getQrCodeOrThrow(accountOf(request).id, request.params.id)
    return toQrDetailsResponse(qr, publicUrl, await qrCodes.tagsOf(qr.id), await statistics.overall({ itemType: 'qr', itemId: qr.id }))
  })

  app.post('/api/qr/add', {
    schema: {
      tags,
      summary: 'Create a QR code',
      description: '`logo` is an http(s) URL of a PNG or JPEG (fetched once, at most 500 KB) or a path inside the upload folder.',
      body: QrCreateBody,
      response: { 201: QrCreatedResponse, ...aliasDrawingErrorResponses },
    },
  }, async (request, reply) => {
    const qr = await qrCodes.createQrCode(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, id: qr.id, link: qrImageUrl(publicUrl, qr.alias) })
  })

  app.post('/api/qr/preview', {
    schema: {
      tags,
      summary: 'Preview a new QR code: the image a creation with this body would serve, nothing stored',
      description: 'Checked like `POST /api/qr/add` (plan limits aside). Link codes encode a placeholder tracking address at least as long as the real one (the saved code is never denser than its preview).',
      querystring: QrImageQuery,
      body: QrCreateBody,
      response: { 200: QrPreviewImage, ...errorResponses },
    },
  }, async (request, reply) => {
    const image = await qrCodes.previewNewQrCode(accountOf(request).id, request.body, viewOf(request.query))
    return sendPreview(reply, image)
  })

  app.post('/api/qr/:id/preview', {
    schema: {
      tags,
      summary: 'Preview an update of a QR code: the image it would serve after `PUT /api/qr/{id}/update` with this body, nothing stored',
      params: IdParams,
      querystring: QrImageQuery,
      body: QrUpdateBody,
      response: { 200: QrPreviewImage, ...errorResponses },
    },
  }, async (request, reply) => {
    const image = await qrCodes.previewQrCodeUpdate(accountOf(request).id, request.params.id, request.body, viewOf(request.query))
    return sendPreview(reply, image)
  })

  app.put('/api/qr/:id/update', {
    schema: {
      tags,
      summary: 'Update a QR code (its type cannot change; an empty logo removes it)',
      params: IdParams,
      body: QrUpdateBody,
      response: { 200: MessageResponse, ...errorResponses },
    },
  }, async (request) => {
    await qrCodes.updateQrCode(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'QR has been updated successfully.' }
  })

  app.delete('/api/qr/:id/delete', {
    schema: { tags, summary: 'Delete a QR code (it leaves every channel)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await qrCodes.deleteQrCode(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'QR Code has been deleted successfully.' }
  })
}
