// A link's social card image (issue 23, ADR 023 "Social cards"): what an upload may be (PNG, JPEG
// or WebP by its content, at most 1 MB) and what is stored (1200×630 JPEG, cropped to cover),
// and its public address.
import { randomBytes } from 'node:crypto'
import { ValidationError } from '../../core/errors.js'
import { loadSharp } from '../../images/sharp-loader.js'

export const CARD_MAX_BYTES = 1024 * 1024
export const CARD_WIDTH = 1200
export const CARD_HEIGHT = 630
/** Largest image an upload may describe: decoding a bomb of a PNG stops here. */
const CARD_MAX_PIXELS = 40_000_000
/** A card's token: 16 characters of base64url (96 random bits). */
export const CARD_TOKEN_PATTERN = '^[A-Za-z0-9_-]{16}$'

type ImageFormat = 'png' | 'jpeg' | 'webp'

/** The format the bytes start like (the client's name and media type are not trusted). */
export function imageFormatOf(bytes: Buffer): ImageFormat | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'jpeg'
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp'
  return null
}

function cardError(reason: string): ValidationError {
  return ValidationError.field('image', reason)
}

/** Checks an upload and answers the card to store: a 1200×630 JPEG. 400s name the field `image`. */
export async function prepareCardImage(bytes: Buffer): Promise<Buffer> {
  if (bytes.length === 0) throw cardError('is empty: attach a PNG, JPEG or WebP image')
  if (bytes.length > CARD_MAX_BYTES) throw cardError('must be at most 1 MB')
  const format = imageFormatOf(bytes)
  if (format === null) throw cardError('must be a PNG, JPEG or WebP image')
  const sharp = await loadSharp()
  try {
    return await sharp(bytes, { limitInputPixels: CARD_MAX_PIXELS })
      .rotate()
      .resize(CARD_WIDTH, CARD_HEIGHT, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer()
  } catch {
    throw cardError(`could not be read as a ${format.toUpperCase()} image`)
  }
}

/** A new card's public name. */
export function newCardToken(): string {
  return randomBytes(12).toString('base64url')
}

/** Where a card's image is served. */
export function cardImageUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/card/${token}.jpg`
}
