// Pixel rows to API records.
import type { PixelRow } from '../../db/schema.js'

export function toPixelRecord(pixel: PixelRow) {
  return { id: pixel.id, type: pixel.type, name: pixel.name, tag: pixel.tag, date: pixel.created_at }
}

export function toPixelCreatedResponse(pixel: PixelRow) {
  return { error: 0 as const, ...toPixelRecord(pixel) }
}
