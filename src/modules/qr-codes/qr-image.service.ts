// What visitors of a QR code's public addresses get: its image (PNG or SVG) and, for link codes,
// where the tracking address the symbol encodes redirects. Drawing a large PNG takes a good part
// of a core for a moment (135-180 ms at 1000 px), and anyone may ask: sizes are rounded to a few
// steps, and drawn images are kept in a bounded cache by their entity tag (equal tags, equal bytes),
// so asking again, at any size, costs a lookup instead of a drawing.
import { createHash } from 'node:crypto'
import type { QrCodeRow } from '../../db/schema.js'
import type { QrCodeRepository } from './qr-code.repository.js'
import { payloadOf } from './qr-code.service.js'
import { renderQrImage, type QrImageFormat } from '../../images/qr-render.js'
import { NotFoundError } from '../../core/errors.js'
import { safeHttpUrl } from '../../core/urls.js'
import { createLruCache, type CacheCounts } from '../../core/lru-cache.js'


/** Bump when the drawing changes, so cached images are not reused across versions. */
const RENDERER_VERSION = '1'
// Generated aliases are 8 of [a-z2-9]; anything far from that shape needs no database lookup.
const ALIAS_SHAPE = /^[A-Za-z0-9_-]{1,64}$/

/** The sizes the public image is drawn at; a size asked for (100-1000) is drawn at the nearest. */
export const QR_IMAGE_SIZES = [100, 150, 200, 250, 300, 400, 500, 600, 800, 1000] as const

/** The step of QR_IMAGE_SIZES nearest to `size` (the larger one of two as near). */
export function nearestQrImageSize(size: number): number {
  return QR_IMAGE_SIZES.reduce((best, step) => (Math.abs(step - size) <= Math.abs(best - size) ? step : best), QR_IMAGE_SIZES[0])
}

/** Images kept drawn: at most ~100 KB each (a 1000 px PNG with a logo), a few MB in all. */
const IMAGE_CACHE_ENTRIES = 64
/** A tag names its bytes for ever; the time only lets images nobody asks for again go. */
const IMAGE_CACHE_MS = 60 * 60 * 1000

type RenderedImage = { body: Buffer | string; contentType: string }

export interface QrImage {
  /** Quoted strong entity tag of the exact bytes `render` produces. */
  etag: string
  render(): Promise<RenderedImage>
}

/** True when an If-None-Match header names `etag` (or `*`). */
export function matchesEntityTag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '')
    return tag === '*' || tag === etag
  })
}

export interface QrImageServiceOptions {
  /** Finds a code by its alias (any account's: the images are public). */
  qrCodes: QrCodeRepository
  /** The base of the codes' tracking addresses, which their symbols encode. */
  publicUrl: string
}

export function createQrImageService({ qrCodes, publicUrl }: QrImageServiceOptions) {
  // Promises, so that visitors asking at once for an image not drawn yet wait for one drawing.
  const drawn = createLruCache<string, Promise<RenderedImage>>(IMAGE_CACHE_ENTRIES, IMAGE_CACHE_MS)
  const imageCache: CacheCounts = { hits: 0, misses: 0 }

  function renderCached(etag: string, drawing: () => Promise<RenderedImage>): Promise<RenderedImage> {
    const cached = drawn.get(etag)
    if (cached) {
      imageCache.hits += 1
      return cached
    }
    imageCache.misses += 1
    const image = drawing()
    drawn.set(etag, image)
    // A drawing that failed is not kept: the next visitor tries again.
    image.catch(() => drawn.delete(etag))
    return image
  }

  async function findByAliasOrThrow(alias: string): Promise<QrCodeRow> {
    const qr = ALIAS_SHAPE.test(alias) ? await qrCodes.findByAlias(alias) : undefined
    if (!qr) throw NotFoundError.of('QR code')
    return qr
  }

  return {
    /** Drawings of the cache (misses) and images answered from it (hits), for the metrics. */
    imageCache: imageCache as Readonly<CacheCounts>,

    /** The image of a QR code at the step nearest `size` pixels; its tag is known before anything is drawn. */
    async imageOf(alias: string, format: QrImageFormat, requestedSize: number): Promise<QrImage> {
      const size = nearestQrImageSize(requestedSize)
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
        render: () => renderCached(etag, () => renderQrImage(input, format, size)),
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
