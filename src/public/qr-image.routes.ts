// Public QR addresses (no API key): GET /qr/{alias} serves the image (decisions §6), and
// GET /qr/{alias}/scan, the address link codes encode, redirects to the stored URL and counts the scan.
import type { App } from '../http/app-instance.js'
import { QR_IMAGE_DEFAULT_SIZE, QrAliasParams, QrImageQuery } from '../modules/qr-codes/qr-code.schemas.js'
import { matchesEntityTag } from '../modules/qr-codes/qr-image.service.js'
import type { QrImageService } from '../modules/qr-codes/qr-image.service.js'
import type { VisitService } from '../modules/visits/visit.service.js'
import { sendRedirect } from './redirect-reply.js'

const tags = ['public']
// No response schemas: the answers are images and redirects; errors are the visitor-facing pages
// of the public scope (public/error-pages.ts).

export function registerQrImageRoutes(app: App, { qrImages, visits }: { qrImages: QrImageService; visits: Pick<VisitService, 'countItem'> }): void {
  app.get('/qr/:alias', {
    schema: {
      tags,
      summary: 'The QR code image: PNG, or SVG with format=svg; size in pixels (100-1000, default 300), drawn at the nearest of 100, 150, 200, 250, 300, 400, 500, 600, 800, 1000',
      security: [],
      params: QrAliasParams,
      querystring: QrImageQuery,
    },
  }, async (request, reply) => {
    const image = await qrImages.imageOf(request.params.alias, request.query.format ?? 'png', request.query.size ?? QR_IMAGE_DEFAULT_SIZE)
    reply.headers({
      'cache-control': 'public, max-age=300',
      etag: image.etag,
      // The SVG is ours (paths and a data-URI PNG); even so, nothing in it may run or load.
      'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
    })
    if (matchesEntityTag(request.headers['if-none-match'], image.etag)) return reply.code(304).send()
    const { body, contentType } = await image.render()
    return reply.type(contentType).send(body)
  })

  app.get('/qr/:alias/scan', {
    schema: { tags, summary: 'Tracking address of a link QR code: redirects to its URL and counts the scan', security: [], params: QrAliasParams },
  }, async (request, reply) => {
    const scan = await qrImages.scanOrThrow(request.params.alias)
    // decisions §7: HEAD is redirected but not counted; the recorder itself drops bots.
    if (request.method === 'GET') visits.countItem(request, { accountId: scan.accountId, itemType: 'qr', itemId: scan.qrId })
    return sendRedirect(reply, scan.target)
  })
}
