// QR code endpoints (spec: QR codes): list, read with statistics, add, update, delete.
import type { App, ModuleDeps } from '../../app.js'
import { accountOf } from '../../http/auth.js'
import { listEnvelope, toPageRequest } from '../../http/list.js'
import { errorResponses, IdParams, MessageResponse, PageQuery } from '../../http/schemas.js'
import { createLogoLoader } from './logo-source.js'
import { qrImageUrl, toQrDetailsResponse, toQrListEntry } from './qr-code.mapper.js'
import { createQrCodeRepository } from './qr-code.repository.js'
import { QrCreateBody, QrCreatedResponse, QrDetailsResponse, QrListResponse, QrUpdateBody } from './qr-code.schemas.js'
import { createQrCodeService } from './qr-code.service.js'
import { createStatisticsRepository } from '../statistics/statistics.repository.js'
import { createStatisticsService } from '../statistics/statistics.service.js'

const tags = ['qr codes']

export function registerQrCodeRoutes(app: App, { db, config }: ModuleDeps): void {
  const statistics = createStatisticsService(createStatisticsRepository(db))
  const qrCodes = createQrCodeService(createQrCodeRepository(db), {
    publicUrl: config.publicUrl,
    loadLogo: createLogoLoader({ uploadDir: config.uploadDir }),
  })

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
      response: { 201: QrCreatedResponse, ...errorResponses },
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
