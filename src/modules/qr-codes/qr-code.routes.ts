// QR code endpoints (spec: QR codes): list, read with statistics, add, update, delete.
import type { App } from '../../http/app-instance.js'
import type { Services } from '../../services.js'
import { accountOf } from '../../http/auth.js'
import { listEnvelope } from '../../http/list.js'
import { aliasDrawingErrorResponses, errorResponses } from '../../http/schemas.js'
import { qrImageUrl, toQrDetailsResponse, toQrListEntry } from './qr-code.mapper.js'
import { QrCreateBody, QrCreatedResponse, QrDetailsResponse, QrListResponse, QrUpdateBody } from './qr-code.schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'

const tags = ['qr codes']

export function registerQrCodeRoutes(app: App, { qrCodes, statistics, config }: Services): void {
  app.get('/api/qr', {
    schema: { tags, summary: 'List QR codes', querystring: PageQuery, response: { 200: QrListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await qrCodes.listQrCodes(accountOf(request).id, page)
    return listEnvelope('qrs', page, total, rows.map((row) => toQrListEntry(row, config.publicUrl)))
  })

  app.get('/api/qr/:id', {
    schema: { tags, summary: 'Read a QR code and its scan statistics', params: IdParams, response: { 200: QrDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const qr = await qrCodes.getQrCodeOrThrow(accountOf(request).id, request.params.id)
    return toQrDetailsResponse(qr, config.publicUrl, await statistics.overall({ itemType: 'qr', itemId: qr.id }))
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
    return reply.code(201).send({ error: 0 as const, id: qr.id, link: qrImageUrl(config.publicUrl, qr.alias) })
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
    await qrCodes.updateQrCode(accountOf(request).id, request.params.id, request.body)
    return { error: 0 as const, message: 'QR has been updated successfully.' }
  })

  app.delete('/api/qr/:id/delete', {
    schema: { tags, summary: 'Delete a QR code (it leaves every channel)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await qrCodes.deleteQrCode(accountOf(request).id, request.params.id)
    return { error: 0 as const, message: 'QR Code has been deleted successfully.' }
  })
}
