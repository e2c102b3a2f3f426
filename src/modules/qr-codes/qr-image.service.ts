// What visitors of a QR code's public addresses get: its image (PNG or SVG) and, for link codes,
// where the tracking address the symbol encodes redirects.
import { createHash } from 'node:crypto'
import type { QrCodeRow } from '../../db/schema.js'
import type { QrCodeRepository } from './qr-code.repository.js'
import { payloadOf } from './qr-code.service.js'
import { renderQrImage, type QrImageFormat } from './qr-render.js'
import { NotFoundError } from '../../core/errors.js'
import { safeHttpUrl } from '../../core/urls.js'


/** Bump when the drawing changes, so cached images are not reused across versions. */
const RENDERER_VERSION = '1'
// Generated aliases are 8 of [a-z2-9]; anything far from that shape needs no database lookup.
const ALIAS_SHAPE = /^[A-Za-z0-9_-]{1,64}$/

export interface QrImage {
  /** Quoted strong entity tag of the exact bytes `render` produces. */
  etag: string
  render(): Promise<{ body: Buffer | string; contentType: string }>
}

/** True when an If-None-Match header names `etag` (or `*`). */
export function matchesEntityTag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '')
    return tag === '*' || tag === etag
  })
}

export function createQrImageService(qrCodes: QrCodeRepository, publicUrl: string) {
  async function findByAliasOrThrow(alias: string): Promise<QrCodeRow> {
    const qr = ALIAS_SHAPE.test(alias) ? await qrCodes.findByAlias(alias) : undefined
    if (!qr) throw NotFoundError.of('QR code')
    return qr
  }

  return {
    /** The image of a QR code at `size` pixels; its tag is known before anything is drawn. */
    async imageOf(alias: string, format: QrImageFormat, size: number): Promise<QrImage> {
      const qr = await findByAliasOrThrow(alias)
      // Everything the drawing depends on, so equal tags mean equal bytes.
      const hash = createHash('sha256')
      for (const part of [RENDERER_VERSION, publicUrl, qr.alias, qr.updated_at, qr.type, qr.data, qr.background, qr.foreground, format, String(size)]) {
        hash.update(part).update('\0')
      }
      hash.update(qr.logo ?? Buffer.alloc(0))
      const etag = `"${hash.digest('base64url').slice(0, 27)}"`
      const input = { payload: payloadOf(qr, publicUrl), background: qr.background, foreground: qr.foreground, logo: qr.logo }
      return {
        etag,
        render: () => renderQrImage(input, format, size),
      }
    },

    /** Where a scan of a link code's tracking address goes, and what its click needs (owner, id). */
    async scanOrThrow(alias: string): Promise<{ target: string; accountId: number; qrId: number }> {
      const qr = await findByAliasOrThrow(alias)
      const target = qr.type === 'link' ? safeHttpUrl(JSON.parse(qr.data) as string) : null
      if (!target) throw NotFoundError.of('QR code')
      return { target, accountId: qr.account_id, qrId: qr.id }
    },
  }
}

export type QrImageService = ReturnType<typeof createQrImageService>
