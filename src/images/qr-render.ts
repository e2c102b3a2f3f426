// Draws QR symbols as PNG (qrcode, then sharp for the logo) or SVG. With a logo the symbol uses
// error correction level H (30 % of it may be hidden and still read), otherwise M. Infrastructure,
// not a module: QR codes' images and a second factor's setup (modules/accounts) both draw here.
import QRCode, { type QRCodeErrorCorrectionLevel } from 'qrcode'
import type { Sharp } from 'sharp'
import { loadSharp } from './sharp-loader.js'
import { ValidationError } from '../core/errors.js'

/** Modules of blank border around the symbol: the quiet zone ISO/IEC 18004 asks for. */
const QUIET_ZONE = 4
/** Largest side of the logo's pad as a share of the image side; small enough for level H to recover. */
const LOGO_SHARE = 0.22
/** Pad around the logo as a share of the pad's side. */
const LOGO_PADDING_SHARE = 0.1

export interface Rgb {
  r: number
  g: number
  b: number
}

export interface QrRenderInput {
  payload: string
  /** `rgb(r,g,b)` */
  background: string
  foreground: string
  /** PNG bytes, or null for no logo. */
  logo: Buffer | null
}

/** Reads `rgb(r,g,b)` (spaces allowed) into numbers; undefined when it is not that form. */
export function parseRgb(color: string): Rgb | undefined {
  const match = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/.exec(color)
  if (!match) return undefined
  const [r, g, b] = match.slice(1).map(Number) as [number, number, number]
  return r <= 255 && g <= 255 && b <= 255 ? { r, g, b } : undefined
}

/** The canonical stored form `rgb(r,g,b)` without spaces. */
export function formatRgb({ r, g, b }: Rgb): string {
  return `rgb(${r},${g},${b})`
}

function rgbOf(color: string): Rgb {
  // Stored colors were validated on the way in; black is only a guard against a hand-edited row.
  return parseRgb(color) ?? { r: 0, g: 0, b: 0 }
}

function hexOf(color: string): string {
  const { r, g, b } = rgbOf(color)
  return `#${[r, g, b].map((value) => value.toString(16).padStart(2, '0')).join('')}ff`
}

export function errorCorrectionFor(hasLogo: boolean): QRCodeErrorCorrectionLevel {
  return hasLogo ? 'H' : 'M'
}

/** Throws a 400 naming `data` when the payload is too long for a QR symbol at the level used. */
export function assertPayloadFits(payload: string, hasLogo: boolean): void {
  try {
    QRCode.create(payload, { errorCorrectionLevel: errorCorrectionFor(hasLogo) })
  } catch {
    throw ValidationError.field('data', hasLogo ? 'is too long to fit in a QR code with a logo' : 'is too long to fit in a QR code')
  }
}

function qrOptions(input: QrRenderInput) {
  return {
    margin: QUIET_ZONE,
    errorCorrectionLevel: errorCorrectionFor(input.logo !== null),
    color: { dark: hexOf(input.foreground), light: hexOf(input.background) },
  }
}

/** Side of the symbol plus its quiet zone, in modules. */
function unitsOf(input: QrRenderInput): number {
  return QRCode.create(input.payload, { errorCorrectionLevel: errorCorrectionFor(input.logo !== null) }).modules.size + 2 * QUIET_ZONE
}

/**
 * Side of the logo's pad in whole modules: the largest odd number within LOGO_SHARE of the image,
 * so that the pad is centred on the module grid and hides whole modules, never slivers of them.
 */
function logoPadModules(units: number): number {
  const largest = Math.floor(units * LOGO_SHARE)
  return largest % 2 === 1 ? largest : largest - 1
}

/** The logo flattened onto the background color, centred on a square pad of `side` pixels. */
async function logoPad(logo: Buffer, side: number, background: Rgb): Promise<Buffer> {
  const padding = Math.max(1, Math.round(side * LOGO_PADDING_SHARE))
  const inner = Math.max(1, side - 2 * padding)
  const colour = { ...background, alpha: 1 }
  const sharp = await loadSharp()
  const fitted = await sharp(logo)
    .flatten({ background })
    .resize(inner, inner, { fit: 'contain', background: colour })
    .png()
    .toBuffer()
  return sharp(fitted)
    .extend({ top: padding, bottom: side - inner - padding, left: padding, right: side - inner - padding, background: colour })
    .png()
    .toBuffer()
}

/**
 * A PNG of exactly `size` × `size` pixels. Modules are drawn a whole number of pixels wide (uneven
 * modules are much harder to scan); the pixels left over widen the quiet zone.
 */
export async function renderQrPng(input: QrRenderInput, size: number): Promise<Buffer> {
  const units = unitsOf(input)
  const scale = Math.max(1, Math.floor(size / units))
  const symbol = await QRCode.toBuffer(input.payload, { type: 'png', scale, ...qrOptions(input) })
  const sharp = await loadSharp()
  const drawn = units * scale
  const background = rgbOf(input.background)
  let image: Sharp
  let offset: number
  if (drawn <= size) {
    offset = Math.floor((size - drawn) / 2)
    image = sharp(symbol).extend({ top: offset, left: offset, bottom: size - drawn - offset, right: size - drawn - offset, background: { ...background, alpha: 1 } })
  } else {
    // More modules than pixels: unreadable whatever we do, but still the size asked for.
    offset = 0
    image = sharp(symbol).resize(size, size, { kernel: 'nearest' })
  }
  if (!input.logo) return image.png().toBuffer()
  const flat = await image.png().toBuffer()
  const padModules = logoPadModules(units)
  const moduleSide = Math.min(drawn, size) / units
  const side = Math.round(padModules * moduleSide)
  const origin = offset + Math.round(((units - padModules) / 2) * moduleSide)
  // A pad this small could not show the logo anyway.
  if (side < 3) return flat
  const pad = await logoPad(input.logo, side, background)
  return sharp(flat).composite([{ input: pad, left: origin, top: origin }]).png().toBuffer()
}

/** An SVG of `size` pixels; a logo is embedded as a PNG data URI on a background-colored pad. */
export async function renderQrSvg(input: QrRenderInput, size: number): Promise<string> {
  const svg = await QRCode.toString(input.payload, { type: 'svg', width: size, ...qrOptions(input) })
  if (!input.logo) return svg
  // The SVG's user units are modules: the viewBox is the symbol plus its quiet zone.
  const units = unitsOf(input)
  const side = logoPadModules(units)
  const origin = (units - side) / 2
  const padding = side * LOGO_PADDING_SHARE
  const { r, g, b } = rgbOf(input.background)
  const round = (value: number) => Number(value.toFixed(3))
  const overlay =
    `<rect x="${origin}" y="${origin}" width="${side}" height="${side}" fill="rgb(${r},${g},${b})"/>` +
    `<image x="${round(origin + padding)}" y="${round(origin + padding)}" width="${round(side - 2 * padding)}" height="${round(side - 2 * padding)}" ` +
    `preserveAspectRatio="xMidYMid meet" href="data:image/png;base64,${input.logo.toString('base64')}"/>`
  return svg.replace('</svg>', `${overlay}</svg>`)
}

export type QrImageFormat = 'png' | 'svg'

/** The image of a QR code in `format`, with its content type: what `/qr/{alias}` and the preview answer. */
export async function renderQrImage(input: QrRenderInput, format: QrImageFormat, size: number): Promise<{ body: Buffer | string; contentType: string }> {
  return format === 'svg'
    ? { body: await renderQrSvg(input, size), contentType: 'image/svg+xml; charset=utf-8' }
    : { body: await renderQrPng(input, size), contentType: 'image/png' }
}
