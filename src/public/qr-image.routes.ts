// Public QR addresses (no API key): GET /qr/{alias} serves the image (decisions §6), and
// GET /qr/{alias}/scan, the address link codes encode, redirects to the stored URL.
import type { App, ModuleDeps } from '../app.js'
import { createQrCodeRepository } from '../modules/qr-codes/qr-code.repository.js'
import { QR_IMAGE_DEFAULT_SIZE, QrAliasParams, QrImageQuery } from '../modules/qr-codes/qr-code.schemas.js'
import { createQrImageService, matchesEntityTag } from '../modules/qr-codes/qr-image.service.js'

const tags = ['public']
// No response schemas: the answers are images and redirects, and errors go through the one
// error handler, which always writes the envelope.

export function registerQrImageRoutes(app: App, { db, config }: ModuleDeps): void {
  const images = createQrImageService(createQrCodeRepository(db), config.publicUrl)

  app.get('/qr/:alias', {
    schema: {
      tags,
      summary: 'The QR code image: PNG, or SVG with format=svg; size in pixels (100-1000, default 300)',
      security: [],
      params: QrAliasParams,
      querystring: QrImageQuery,
    },
  }, async (request, reply) => {
    const image = await images.imageOf(request.params.alias, request.query.format ?? 'png', request.query.size ?? QR_IMAGE_DEFAULT_SIZE)
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
    schema: { tags, summary: 'Tracking address of a link QR code: redirects to its URL', security: [], params: QrAliasParams },
  }, async (request, reply) => {
    const target = await images.scanTargetOf(request.params.alias)
    // Scan counting arrives with click analytics; it will skip HEAD requests (decisions §7).
    return reply.header('cache-control', 'private, max-age=0').redirect(target, 302)
  })
}
