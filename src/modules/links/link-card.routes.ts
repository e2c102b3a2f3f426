// A link's social card (issue 23): POST /api/url/{id}/card (multipart/form-data, one file field
// `image`) sets it, DELETE /api/url/{id}/card removes it. The image is checked and resized by the
// card service (link-card.service.ts, link-card.ts); every refusal is a 400 naming `image`, a size beyond 1 MB included.
import { Type } from 'typebox'
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import { ErrorEnvelope, errorResponses } from '../../http/schemas.js'
import { readUploadedFile, registerUploadScope, skipBodyValidation, type UploadProblem } from '../../http/uploads.js'
import { IdParams, MessageResponse } from '../../core/schemas.js'
import { ValidationError } from '../../core/errors.js'
import type { LinkService } from './link.service.js'
import type { LinkCardService } from './link-card.service.js'
import { CARD_MAX_BYTES } from './link-card.js'
import { LinkCardResponse } from './link.schemas.js'

const tags = ['links']

const LinkCardBody = Type.Object({
  image: Type.String({ format: 'binary', description: 'a PNG, JPEG or WebP image of at most 1 MB (resized to 1200×630, cropped to cover)' }),
})

/** The parser's refusals, in the envelope naming the field. */
function refusalOf(problem: UploadProblem): ValidationError {
  if (problem === 'too_large') return ValidationError.field('image', 'must be at most 1 MB')
  if (problem === 'too_many') return ValidationError.field('image', 'must be sent alone: one file field')
  return ValidationError.field('image', 'could not be read: send one file as multipart/form-data')
}

/** What the routes use, handed over by app.ts. */
export interface LinkCardRouteDependencies {
  links: Pick<LinkService, 'getLinkOrThrow'>
  cards: LinkCardService
}

export function registerLinkCardRoutes(app: App, { links, cards }: LinkCardRouteDependencies): void {
  registerUploadScope(app, { fileSize: CARD_MAX_BYTES, fieldSize: 1024 }, (scope) => {
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
      const bytes = await readUploadedFile(request, 'image', refusalOf)
      if (!bytes) throw ValidationError.field('image', 'is required: attach a PNG, JPEG or WebP image')
      const card = await cards.setCard(account, id, bytes)
      return { error: 0 as const, message: 'The social card has been set.', card }
    })
  })

  app.delete('/api/url/:id/card', {
    schema: { tags, summary: 'Remove a link\'s social card', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await cards.removeCard(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'The social card has been removed.' }
  })
}
