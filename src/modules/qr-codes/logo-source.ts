// Turns a client's `logo` (decisions §6: an http(s) URL or a path inside the upload folder) into
// the normalised PNG stored with the QR code: a path the workspace's own upload answered is read
// from the database (logo-upload.service.ts), any other from the folder. Nothing else on the
// server's disk is ever read.
import { constants as fsConstants } from 'node:fs'
import { open, realpath } from 'node:fs/promises'
import path from 'node:path'
import { loadSharp } from '../../images/sharp-loader.js'
import { fetchLogo, isPngOrJpeg, LOGO_MAX_BYTES, logoFetchError, type LogoFetchOptions } from './logo-fetch.js'
import { ValidationError } from '../../core/errors.js'

/** Longest side of a stored logo; the QR image never shows it larger. */
export const STORED_LOGO_SIZE = 256

export interface LogoLoaderOptions {
  uploadDir: string
  fetch?: LogoFetchOptions
  /** The workspace's uploaded logos (POST /api/upload/logo); undefined reads only the folder. */
  uploads?: { take(accountId: number, source: string): Promise<Buffer | undefined> }
}

/** Reads a logo for the account's QR code from its uploads, the upload folder or the web, checks it and returns it as a PNG. */
export type LogoLoader = (source: string, accountId: number) => Promise<Buffer>

function logoReadError(reason: string): ValidationError {
  return new ValidationError(`The logo could not be read: ${reason}.`, 'logo')
}

function isInside(folder: string, candidate: string): boolean {
  return candidate.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep)
}

/**
 * Reads a file of the upload folder. The path is checked twice: as written (so nothing outside the
 * folder is even looked at) and after resolving symbolic links (so a link cannot lead out).
 */
export async function readUploadedLogo(uploadDir: string, relativePath: string): Promise<Buffer> {
  if (relativePath.includes('\0')) throw logoReadError('the path is not valid')
  const root = path.resolve(uploadDir)
  const candidate = path.resolve(root, relativePath)
  if (!isInside(root, candidate)) throw logoReadError('the path is outside the upload folder')
  let realRoot: string
  let realFile: string
  try {
    realRoot = await realpath(root)
    realFile = await realpath(candidate)
  } catch {
    throw logoReadError('there is no such file in the upload folder')
  }
  if (!isInside(realRoot, realFile)) throw logoReadError('the path is outside the upload folder')

  // O_NOFOLLOW: the file cannot be swapped for a link between the check above and the read.
  const file = await open(realFile, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW).catch(() => {
    throw logoReadError('the file cannot be opened')
  })
  try {
    const stats = await file.stat()
    if (!stats.isFile()) throw logoReadError('the path is not a file')
    if (stats.size > LOGO_MAX_BYTES) throw logoReadError(`the image is larger than ${LOGO_MAX_BYTES / 1024} KB`)
    const bytes = await file.readFile()
    if (!isPngOrJpeg(bytes)) throw logoReadError('the file is not a PNG or JPEG image')
    return bytes
  } finally {
    await file.close()
  }
}

/** True for a value the client meant as a web address (anything with a URL scheme). */
export function looksLikeUrl(source: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(source)
}

/** Decodes a PNG or JPEG, applies its EXIF orientation and shrinks it to a small PNG. */
export async function normaliseLogo(bytes: Buffer): Promise<Buffer> {
  const sharp = await loadSharp()
  return sharp(bytes, { limitInputPixels: 40_000_000 })
    .rotate()
    .resize(STORED_LOGO_SIZE, STORED_LOGO_SIZE, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer()
}

/** A LogoLoader bound to the upload folder and the fetch rules. */
export function createLogoLoader(options: LogoLoaderOptions): LogoLoader {
  return async (source, accountId) => {
    const fromWeb = looksLikeUrl(source)
    const uploaded = fromWeb ? undefined : await options.uploads?.take(accountId, source)
    if (uploaded) return uploaded
    const bytes = fromWeb ? await fetchLogo(source, options.fetch) : await readUploadedLogo(options.uploadDir, source)
    try {
      return await normaliseLogo(bytes)
    } catch {
      const reason = 'the image could not be decoded'
      throw fromWeb ? logoFetchError(reason) : logoReadError(reason)
    }
  }
}
