// Logos uploaded from the dashboard (decisions §6: PNG or JPEG, at most 500 KB), stored in the
// upload folder under a random name, and answered as the path a QR code's `logo` field takes.
import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isPngOrJpeg, LOGO_MAX_BYTES } from './logo-fetch.js'
import { loadSharp } from './sharp-loader.js'
import { ValidationError } from '../../core/errors.js'

/** The folder of uploaded logos inside the upload folder. */
export const LOGO_UPLOAD_FOLDER = 'logos'

/** Largest image a logo may describe: decoding a bomb of a PNG stops here. */
const LOGO_MAX_PIXELS = 40_000_000

function uploadError(reason: string): ValidationError {
  return new ValidationError(`The logo cannot be used: ${reason}.`, 'file')
}

export function createLogoUploadService(uploadDir: string) {
  return {
    /**
     * Checks the bytes (PNG or JPEG by their signature, never by the client's name or type; small
     * enough; decodable) and writes them under a new random name. Answers the path relative to the
     * upload folder; nothing the client sent takes part in it.
     */
    async storeLogo(bytes: Buffer): Promise<string> {
      if (bytes.length === 0) throw uploadError('the file is empty')
      if (bytes.length > LOGO_MAX_BYTES) throw uploadError(`the file is larger than ${LOGO_MAX_BYTES / 1024} KB`)
      if (!isPngOrJpeg(bytes)) throw uploadError('the file is not a PNG or JPEG image')
      const sharp = await loadSharp()
      const extension = await sharp(bytes, { limitInputPixels: LOGO_MAX_PIXELS }).metadata().then(
        (metadata) => (metadata.format === 'png' ? 'png' : metadata.format === 'jpeg' ? 'jpg' : undefined),
        () => undefined,
      )
      if (!extension) throw uploadError('the image could not be decoded')
      const folder = path.join(path.resolve(uploadDir), LOGO_UPLOAD_FOLDER)
      await mkdir(folder, { recursive: true })
      const name = `${randomBytes(16).toString('hex')}.${extension}`
      // wx: a name drawn twice (it will not be) never overwrites another logo.
      await writeFile(path.join(folder, name), bytes, { flag: 'wx', mode: 0o644 })
      return `${LOGO_UPLOAD_FOLDER}/${name}`
    },
  }
}

export type LogoUploadService = ReturnType<typeof createLogoUploadService>
