// Logos uploaded from the dashboard or the API (decisions §6: PNG or JPEG, at most 500 KB), kept
// as the other QR logos are: a normalised PNG in the database, with the workspace that sent it
// (migration 032). The answer is the path a QR code's `logo` field takes; only the workspace that
// uploaded it can use it, its plan's `logos` caps how many it keeps at once, and one no code has
// taken for LOGO_UPLOAD_KEEP_DAYS is collected (a code keeps its own copy of the image). Files an
// earlier version wrote to the upload folder's `logos/` are read as before and collected alike.
import { randomBytes } from 'node:crypto'
import { readdir, stat, unlink } from 'node:fs/promises'
import path from 'node:path'
import { isPngOrJpeg, LOGO_MAX_BYTES } from './logo-fetch.js'
import { normaliseLogo } from './logo-source.js'
import type { LogoUploadRepository } from './logo-upload.repository.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { ForbiddenError, ValidationError } from '../../core/errors.js'
import { nowTimestamp } from '../../core/time.js'

/** The folder of uploaded logos inside the upload folder (the paths answered start with it). */
export const LOGO_UPLOAD_FOLDER = 'logos'

/** Days an upload is kept after it was sent or last taken by a QR code. */
export const LOGO_UPLOAD_KEEP_DAYS = 7

/** A path this service answers (or an earlier version wrote to the folder). */
const UPLOAD_PATH = /^logos\/[0-9a-f]{32}\.(?:png|jpg)$/

/** The collection runs at most this often, on an upload. */
const COLLECT_EVERY_MS = 60 * 60_000

function uploadError(reason: string): ValidationError {
  return new ValidationError(`The logo cannot be used: ${reason}.`, 'file')
}

export interface LogoUploadServiceOptions {
  /** The uploaded logos' rows (the files themselves are in `uploadDir`). */
  uploads: LogoUploadRepository
  uploadDir: string
  /** Now, in milliseconds (tests). */
  now?: () => number
  /** Reports what went wrong collecting old files (never fails an upload). */
  onCollectError?: (error: unknown) => void
}

export function createLogoUploadService(options: LogoUploadServiceOptions) {
  const { uploads } = options
  const now = options.now ?? Date.now
  let collectedAt = -Infinity

  /** The timestamp `days` before now, in the database's form. */
  const daysAgo = (days: number) => nowTimestamp(new Date(now() - days * 86_400_000))

  /** Files of the upload folder's `logos/` an earlier version wrote and nothing has touched for the keep period. */
  async function collectFiles(): Promise<number> {
    const folder = path.join(path.resolve(options.uploadDir), LOGO_UPLOAD_FOLDER)
    const names = await readdir(folder).catch(() => [] as string[])
    let removed = 0
    for (const name of names) {
      if (!UPLOAD_PATH.test(`${LOGO_UPLOAD_FOLDER}/${name}`)) continue
      const file = path.join(folder, name)
      const stats = await stat(file).catch(() => undefined)
      if (!stats?.isFile() || stats.mtimeMs > now() - LOGO_UPLOAD_KEEP_DAYS * 86_400_000) continue
      if (await unlink(file).then(() => true, () => false)) removed += 1
    }
    return removed
  }

  const service = {
    /**
     * Checks the bytes (PNG or JPEG by their signature, never by the client's name or type; small
     * enough; decodable), counts them against the plan and keeps the normalised image under a new
     * random path. Nothing the client sent takes part in the path.
     */
    async storeLogo(account: AuthenticatedAccount, bytes: Buffer): Promise<string> {
      if (bytes.length === 0) throw uploadError('the file is empty')
      if (bytes.length > LOGO_MAX_BYTES) throw uploadError(`the file is larger than ${LOGO_MAX_BYTES / 1024} KB`)
      if (!isPngOrJpeg(bytes)) throw uploadError('the file is not a PNG or JPEG image')
      if (now() - collectedAt >= COLLECT_EVERY_MS) await service.collect().catch((error: unknown) => options.onCollectError?.(error))
      const limit = account.limits.logos
      if (limit !== undefined && (await uploads.count(account.id)) >= limit) {
        throw new ForbiddenError(`Your plan keeps at most ${limit} uploaded logos at once; one no QR code has used for ${LOGO_UPLOAD_KEEP_DAYS} days is removed. Use a logo you uploaded before, or upgrade your plan.`, 'plan_limit_reached')
      }
      // Decoded once, here (normaliseLogo stops at 40 megapixels: a PNG bomb goes no further).
      const image = await normaliseLogo(bytes).catch(() => {
        throw uploadError('the image could not be decoded')
      })
      const uploadPath = `${LOGO_UPLOAD_FOLDER}/${randomBytes(16).toString('hex')}.png`
      await uploads.insert(account.id, uploadPath, image, nowTimestamp(new Date(now())))
      return uploadPath
    },

    /** The account's upload at `source` (marked used), or undefined when it is not one of the account's uploads. */
    async take(accountId: number, source: string): Promise<Buffer | undefined> {
      if (!UPLOAD_PATH.test(source)) return undefined
      return uploads.take(accountId, source, nowTimestamp(new Date(now())))
    },

    /** Deletes the uploads and old upload files no code has used for the keep period; answers how many went. */
    async collect(): Promise<{ uploads: number; files: number }> {
      collectedAt = now()
      const removed = await uploads.deleteUnusedSince(daysAgo(LOGO_UPLOAD_KEEP_DAYS))
      return { uploads: removed, files: await collectFiles() }
    },
  }
  return service
}

export type LogoUploadService = ReturnType<typeof createLogoUploadService>
