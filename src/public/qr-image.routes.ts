// Public QR addresses (no API key): GET /qr/{alias} serves the image (decisions §6), and
// GET /qr/{alias}/scan, the address link codes encode, redirects to the stored URL and counts the scan.
import type { App, ModuleDeps } from '../app.js'
import { NotFoundError } from '../http/errors.js'
import { createQrCodeRepository } from '../modules/qr-codes/qr-code.repository.js'
import { QR_IMAGE_DEFAULT_SIZE, QrAliasParams, QrImageQuery } from '../modules/qr-codes/qr-code.schemas.js'
import { createQrImageService, matchesEntityTag } from '../modules/qr-codes/qr-image.service.js'
import { safeHttpUrl } from './safe-url.js'
import { clickOf } from './visitor.js'

const tags = ['public']
// Aliases are at most 64 of [A-Za-z0-9_-]; anything else needs no database lookup.
const SCAN_ALIAS_SHAPE = /^[A-Za-z0-9_-]{1,64}$/
// No response schemas: the answers are images and redirects, and errors go through the one
// error handler, which always writes the envelope.

export function registerQrImageRoutes(app: App, { db, config, clicks }: ModuleDeps): void {
  const qrCodes = createQrCodeRepository(db)
  const images = createQrImageService(qrCodes, config.publicUrl)

  /** The scan's target and what the click needs (owner, id), from one read. */
  async function scanOf(alias: string): Promise<{ target: string; accountId: number; qrId: number }> {
    const qr = SCAN_ALIAS_SHAPE.test(alias) ? await qrCodes.findByAlias(alias) : undefined
    if (!qr || qr.type !== 'link') throw NotFoundError.of('QR code')
    const target = safeHttpUrl(JSON.parse(qr.data) as string)
    if (!target) throw NotFoundError.of('QR code')
    return { target, accountId: qr.account_id, qrId: qr.id }
  }

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
    schema: { tags, summary: 'Tracking address of a link QR code: redirects to its URL and counts the scan', security: [], params: QrAliasParams },
  }, async (request, reply) => {
    const scan = await scanOf(request.params.alias)
    // decisions §7: HEAD is redirected but not counted; the recorder itself drops bots.
    if (request.method === 'GET') clicks.record(clickOf(request, { accountId: scan.accountId, itemType: 'qr', itemId: scan.qrId }))
    return reply.header('cache-control', 'private, max-age=0').redirect(scan.target, 302)
  })
}
