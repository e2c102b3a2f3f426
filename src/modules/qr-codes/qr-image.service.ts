// What visitors of a QR code's public addresses get: its image (PNG or SVG) and, for link codes,
// the redirect of the tracking address the symbol encodes.
import { createHash } from 'node:crypto'
import type { QrCodeRow } from '../../db/schema.js'
import { NotFoundError } from '../../http/errors.js'
import type { QrCodeRepository } from './qr-code.repository.js'
import { payloadOf } from './qr-code.service.js'
import { renderQrPng, renderQrSvg } from './qr-render.js'

export type QrImageFormat = 'png' | 'svg'

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
        async render() {
          return format === 'svg'
            ? { body: await renderQrSvg(input, size), contentType: 'image/svg+xml; charset=utf-8' }
            : { body: await renderQrPng(input, size), contentType: 'image/png' }
        },
      }
    },
  }
}

export type QrImageService = ReturnType<typeof createQrImageService>
