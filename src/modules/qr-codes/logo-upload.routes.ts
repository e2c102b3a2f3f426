// POST /api/upload/logo: a logo sent from the dashboard as multipart/form-data, stored in the
// upload folder; answers the path a QR code's `logo` field takes.
import multipart from '@fastify/multipart'
import type { FastifySchemaCompiler } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../../http/app-instance.js'
import { ErrorEnvelope, errorResponses } from '../../http/schemas.js'
import { validatorCompiler } from '../../http/validator.js'
import type { LogoUploadService } from './logo-upload.service.js'
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
  path: Type.String({ description: 'the stored file, relative to the upload folder: pass it as a QR code\'s `logo`' }),
})

// The body is a stream the handler reads itself (its schema only documents the form); the other
// parts are checked as everywhere else.
const skipBodyValidation: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? () => ({ value: undefined }) : (validatorCompiler as FastifySchemaCompiler<unknown>)(route)

// Multipart errors of @fastify/multipart and busboy, in the envelope with a message a person can act on.
const TOO_LARGE = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT'])

function refusalOf(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && TOO_LARGE.has(code)) return new UploadRefusal(413, `The logo must be one file of at most ${LOGO_MAX_BYTES / 1024} KB.`)
  // Everything else the parser refuses (a malformed body, a missing boundary) is the client's.
  if (error instanceof Error && !(error instanceof ValidationError)) return new UploadRefusal(400, 'The upload could not be read: send one file as multipart/form-data.')
  return error
}

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface LogoUploadRouteDependencies {
  logoUploads: LogoUploadService
}

export function registerLogoUploadRoutes(app: App, { logoUploads }: LogoUploadRouteDependencies): void {
  // Multipart is parsed here only: every other endpoint takes JSON alone (http/json-body.ts).
  void app.register(async (scope) => {
    await scope.register(multipart, {
      // One file, a few small fields at most; anything larger is refused while it streams in.
      limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50 },
      throwFileSizeLimit: true,
    })
    scope.post('/api/upload/logo', {
      schema: {
        tags,
        summary: 'Upload a logo for QR codes',
        description: `multipart/form-data with one file field (\`file\`): a PNG or JPEG image of at most ${LOGO_MAX_BYTES / 1024} KB, ` +
          'recognised by its content. It is stored under a random name; the answer\'s `path` is what a QR code\'s `logo` takes.',
        consumes: ['multipart/form-data'],
        body: LogoUploadBody,
        response: { 201: LogoUploadResponse, 413: ErrorEnvelope, 415: ErrorEnvelope, ...errorResponses },
      },
      validatorCompiler: skipBodyValidation,
    }, async (request, reply) => {
      if (!request.isMultipart()) throw new UploadRefusal(415, 'Send the logo as multipart/form-data with one file field.')
      let bytes: Buffer | undefined
      try {
        // Read to the end, so a second file meets the `files` limit instead of being ignored.
        for await (const part of request.parts()) {
          if (part.type === 'file') bytes = await part.toBuffer()
        }
      } catch (error) {
        throw refusalOf(error)
      }
      if (!bytes) throw ValidationError.field('file', 'is required: attach a PNG or JPEG image')
      const path = await logoUploads.storeLogo(bytes)
      return reply.code(201).send({ error: 0 as const, path })
    })
  })
}
