// A link's social card (issue 23): POST /api/url/{id}/card (multipart/form-data, one file field
// `image`) sets it, DELETE /api/url/{id}/card removes it. The image is checked and resized by the
// link service (link-card.ts); every refusal is a 400 naming `image`, a size beyond 1 MB included.
import multipart from '@fastify/multipart'
import type { FastifySchemaCompiler } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import { ErrorEnvelope, errorResponses } from '../../http/schemas.js'
import { validatorCompiler } from '../../http/validator.js'
import { IdParams, MessageResponse } from '../../core/schemas.js'
import { ValidationError } from '../../core/errors.js'
import type { LinkService } from './link.service.js'
import { CARD_MAX_BYTES } from './link-card.js'
import { LinkCardResponse } from './link.schemas.js'

const tags = ['links']

const LinkCardBody = Type.Object({
  image: Type.String({ format: 'binary', description: 'a PNG, JPEG or WebP image of at most 1 MB (resized to 1200×630, cropped to cover)' }),
})

// The body is a stream the handler reads itself (its schema only documents the form).
const skipBodyValidation: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? () => ({ value: undefined }) : (validatorCompiler as FastifySchemaCompiler<unknown>)(route)

const TOO_LARGE = new Set(['FST_REQ_FILE_TOO_LARGE'])
const TOO_MANY = new Set(['FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT'])

function refusalOf(error: unknown): unknown {
  if (error instanceof ValidationError) return error
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && TOO_LARGE.has(code)) return ValidationError.field('image', 'must be at most 1 MB')
  if (typeof code === 'string' && TOO_MANY.has(code)) return ValidationError.field('image', 'must be sent alone: one file field')
  return ValidationError.field('image', 'could not be read: send one file as multipart/form-data')
}

/** What the routes use, handed over by app.ts. */
export interface LinkCardRouteDependencies {
  links: LinkService
}

export function registerLinkCardRoutes(app: App, { links }: LinkCardRouteDependencies): void {
  // Multipart is parsed in this scope only: every other endpoint takes JSON alone (http/json-body.ts).
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: CARD_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50 },
      throwFileSizeLimit: true,
    })
    scope.post('/api/url/:id/card', {
      schema: {
        tags,
        summary: 'Set a link\'s social card (the image link-preview fetchers show)',
        description: 'multipart/form-data with one file field, `image`: a PNG, JPEG or WebP image of at most 1 MB, recognised by its ' +
          'content, stored as a 1200×630 JPEG (cropped to cover). Link-preview fetchers (Slack, X, LinkedIn, …) visiting the short link ' +
          'then get its Open Graph and Twitter card tags: the image with the link\'s meta title and description. People are redirected as before.',
        consumes: ['multipart/form-data'],
        params: IdParams,
        body: LinkCardBody,
        response: { 200: LinkCardResponse, 415: ErrorEnvelope, ...errorResponses },
      },
      validatorCompiler: skipBodyValidation,
    }, async (request) => {
      const account = accountOf(request)
      const id = (request.params as { id: number }).id
      // Another workspace's link is not found, whatever was sent.
      await links.getLinkOrThrow(account.id, id)
      if (!request.isMultipart()) throw ValidationError.field('image', 'must be sent as multipart/form-data')
      let bytes: Buffer | undefined
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file' && part.fieldname === 'image') bytes = await part.toBuffer()
          else if (part.type === 'file') await part.toBuffer()
        }
      } catch (error) {
        throw refusalOf(error)
      }
      if (!bytes) throw ValidationError.field('image', 'is required: attach a PNG, JPEG or WebP image')
      const card = await links.setCard(account, id, bytes)
      return { error: 0 as const, message: 'The social card has been set.', card }
    })
  })

  app.delete('/api/url/:id/card', {
    schema: { tags, summary: 'Remove a link\'s social card', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await links.removeCard(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'The social card has been removed.' }
  })
}
