// Multipart uploads (QR logos, social cards, import files), parsed only in the scope of a route
// that takes one: every other endpoint takes JSON alone (http/json-body.ts). One file and a few
// small fields; a file over its limit is refused while it streams in.
import multipart from '@fastify/multipart'
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify'
import { ValidationError } from '../core/errors.js'
import type { App } from './app-instance.js'
import { validatorCompiler } from './validator.js'

/** Why the multipart parser refused an upload: the file too large, too many files, fields or parts, or a body it could not read. */
export type UploadProblem = 'too_large' | 'too_many' | 'unreadable'

const TOO_MANY = new Set(['FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT'])

/** The parser's refusal (of @fastify/multipart or busboy) as one of the problems. */
export function uploadProblemOf(error: unknown): UploadProblem {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return 'too_large'
  if (typeof code === 'string' && TOO_MANY.has(code)) return 'too_many'
  return 'unreadable'
}

/**
 * The body is a stream the handler reads itself: its schema only documents the form, while the
 * route's params and query are checked as everywhere else.
 */
export const skipBodyValidation: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? () => ({ value: undefined }) : (validatorCompiler as FastifySchemaCompiler<unknown>)(route)

/** Registers `routes` in a scope of `app` that parses multipart bodies of one file of at most `fileSize` bytes, fields of at most `fieldSize`. */
export function registerUploadScope(app: App, limits: { fileSize: number; fieldSize: number }, routes: (scope: App) => void): void {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: limits.fileSize, files: 1, fields: 5, fieldSize: limits.fieldSize, parts: 6, headerPairs: 50 },
      throwFileSizeLimit: true,
    })
    routes(scope)
  })
}

/**
 * Reads an upload to its end (so that a second file meets the `files` limit instead of being
 * ignored) and answers the bytes of its file field `field` (any file field when undefined), or
 * undefined when none came. The parser's refusals are thrown as `refuse` words them; a
 * ValidationError passes as it is.
 */
export async function readUploadedFile(request: FastifyRequest, field: string | undefined, refuse: (problem: UploadProblem) => Error): Promise<Buffer | undefined> {
  let bytes: Buffer | undefined
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue
      const content = await part.toBuffer()
      if (field === undefined || part.fieldname === field) bytes = content
    }
  } catch (error) {
    if (error instanceof ValidationError) throw error
    throw refuse(uploadProblemOf(error))
  }
  return bytes
}
