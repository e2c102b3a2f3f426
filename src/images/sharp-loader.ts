// sharp (libvips) is loaded when the first image needs it, not at start: it adds ~28 MB of
// resident memory and a measurable part of the start-up time, and most instances spend their
// days answering redirects, not drawing QR codes.
import type sharpFunction from 'sharp'

let loading: Promise<typeof sharpFunction> | undefined

/** sharp, imported on the first call. */
export function loadSharp(): Promise<typeof sharpFunction> {
  loading ??= import('sharp').then((module) => module.default)
  return loading
}
