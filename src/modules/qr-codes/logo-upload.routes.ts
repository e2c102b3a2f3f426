// POST /api/upload/logo: a logo sent from the dashboard as multipart/form-data, kept for the
// workspace (logo-upload.service.ts); answers the path a QR code's `logo` field takes.
import { Type } from 'typebox'
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import { ErrorEnvelope, errorResponses } from '../../http/schemas.js'
import { readUploadedFile, registerUploadScope, skipBodyValidation, type UploadProblem } from '../../http/uploads.js'
import { LOGO_UPLOAD_KEEP_DAYS, type LogoUploadService } from './logo-upload.service.js'
import { LOGO_MAX_BYTES } from './logo-fetch.js'
import { ValidationError } from '../../core/errors.js'

const tags = ['qr codes']

/** A refusal of the transport (size, media type) with its HTTP status; answered in the envelope. */
class UploadRefusal extends Error {
  constructor(readonly statusCode: number, message: string) {
    super(message)
  }
}

const LogoUploadBody = Type.Object({
  file: Type.String({ format: 'binary', description: `a PNG or JPEG image of at most ${LOGO_MAX_BYTES / 1024} KB` }),
})

const LogoUploadResponse = Type.Object({
  error: Type.Literal(0),
  path: Type.String({ description: `the upload's path: pass it as a QR code's \`logo\` (this workspace's codes only; kept ${LOGO_UPLOAD_KEEP_DAYS} days after its last use, each code keeping its own copy)` }),
})

/** The parser's refusals, in the envelope with a message a person can act on. */
function refusalOf(problem: UploadProblem): UploadRefusal {
  if (problem === 'unreadable') return new UploadRefusal(400, 'The upload could not be read: send one file as multipart/form-data.')
  return new UploadRefusal(413, `The logo must be one file of at most ${LOGO_MAX_BYTES / 1024} KB.`)
}

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface LogoUploadRouteDependencies {
  logoUploads: LogoUploadService
}

export function registerLogoUploadRoutes(app: App, { logoUploads }: LogoUploadRouteDependencies): void {
  registerUploadScope(app, { fileSize: LOGO_MAX_BYTES, fieldSize: 1024 }, (scope) => {
    scope.post('/api/upload/logo', {
      schema: {
        tags,
        summary: 'Upload a logo for QR codes',
        description: `multipart/form-data with one file field (\`file\`): a PNG or JPEG image of at most ${LOGO_MAX_BYTES / 1024} KB, ` +
          'recognised by its content. It is kept for the workspace (counted against its plan\'s `logos`) under a random path; the answer\'s `path` is what a QR code\'s `logo` takes.',
        consumes: ['multipart/form-data'],
        body: LogoUploadBody,
        response: { 201: LogoUploadResponse, 413: ErrorEnvelope, 415: ErrorEnvelope, ...errorResponses },
      },
      validatorCompiler: skipBodyValidation,
    }, async (request, reply) => {
      if (!request.isMultipart()) throw new UploadRefusal(415, 'Send the logo as multipart/form-data with one file field.')
      const bytes = await readUploadedFile(request, undefined, refusalOf)
      if (!bytes) throw ValidationError.field('file', 'is required: attach a PNG or JPEG image')
      const path = await logoUploads.storeLogo(accountOf(request), bytes)
      return reply.code(201).send({ error: 0 as const, path })
    })
  })
}
