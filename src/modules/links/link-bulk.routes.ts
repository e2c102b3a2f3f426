// POST /api/urls/bulk (issue 21): up to 1,000 links in one request, each row checked as
// `POST /api/url/add` checks its body (the same schema and validator) and its answer given in order.
import type { FastifySchema } from 'fastify'
import { Type, type TSchema } from 'typebox'
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import { aliasDrawingErrorResponses } from '../../http/schemas.js'
import { validatorCompiler } from '../../http/validator.js'
import { shortUrl } from '../aliases/alias-namespace.js'
import { LinkCreateBody, type LinkCreateInput } from './link.schemas.js'
import type { BatchOutcome, LinkBatchWriter } from './link-batch.js'
import { describeValidationIssue, fieldOfIssue, type ValidationIssue } from '../../core/validation-messages.js'
import { ERROR_CODES, type AppError } from '../../core/errors.js'

const tags = ['links']
export const MAX_BULK_LINKS = 1_000

const BulkBody = Type.Object({
  urls: Type.Array(Type.Record(Type.String(), Type.Unknown(), { description: 'a link as `POST /api/url/add` takes it (`url`, `custom`, `domain`, …)' }), {
    minItems: 1,
    maxItems: MAX_BULK_LINKS,
    errorMessage: `must be a list of 1 to ${MAX_BULK_LINKS} links`,
  }),
})

const RowResult = Type.Union([
  Type.Object({ error: Type.Literal(0), id: Type.Integer(), shorturl: Type.String() }),
  Type.Object({
    error: Type.Literal(1),
    message: Type.String(),
    code: Type.String({ description: `stable machine code: ${ERROR_CODES.join(', ')}` }),
    field: Type.Optional(Type.String({ description: 'the row\'s field at fault (`url`, `custom`, …)' })),
  }),
])

const BulkResponse = Type.Object({
  error: Type.Literal(0),
  created: Type.Integer({ description: 'rows whose link was created' }),
  results: Type.Array(RowResult, { description: 'one per row, in the order sent: the new link, or the row\'s own error envelope' }),
})

/** The check of `POST /api/url/add`'s body, for one row. */
const checkRow = validatorCompiler({ schema: LinkCreateBody, httpPart: 'body', method: 'POST', url: '/api/urls/bulk' } as FastifySchema & { schema: TSchema; httpPart: string; method: string; url: string }) as unknown as (value: unknown) => { value?: LinkCreateInput; error?: ValidationIssue[] }

function refusal(error: Pick<AppError, 'code' | 'message' | 'field'>) {
  return { error: 1 as const, message: error.message, code: error.code, ...(error.field ? { field: error.field } : {}) }
}

export interface LinkBulkRouteDependencies {
  linkBatch: LinkBatchWriter
  publicUrl: string
}

export function registerLinkBulkRoutes(app: App, { linkBatch, publicUrl }: LinkBulkRouteDependencies): void {
  app.post('/api/urls/bulk', {
    schema: {
      tags,
      summary: `Create up to ${MAX_BULK_LINKS} short links at once`,
      description: 'Each row is checked as `POST /api/url/add` checks its body and answered in order: the new link, or its own error envelope ' +
        '(a taken alias, a bad URL). Rows are written in chunks, each in one transaction. The plan\'s link limit counts the request as a whole: ' +
        'when the new links do not all fit, none is created (403).',
      body: BulkBody,
      response: { 200: BulkResponse, ...aliasDrawingErrorResponses },
    },
  }, async (request) => {
    const checked = request.body.urls.map((row) => checkRow(row))
    const valid = checked.flatMap((result) => (result.error ? [] : [{ input: result.value! }]))
    const outcomes = await linkBatch.writeLinks(accountOf(request), valid, { onConflict: 'skip' })
    let next = 0
    const results = checked.map((result) => {
      if (result.error) {
        const issue = result.error[0]!
        return refusal({ code: 'validation_failed', message: describeValidationIssue('body', issue, LinkCreateBody), field: fieldOfIssue(issue) })
      }
      const outcome = outcomes[next++] as BatchOutcome
      if (outcome.status === 'refused') return refusal(outcome.error)
      if (outcome.status === 'existing') return { error: 0 as const, id: outcome.id, shorturl: shortUrl(publicUrl, null, outcome.alias) }
      return { error: 0 as const, id: outcome.id, shorturl: shortUrl(publicUrl, outcome.origin, outcome.alias) }
    })
    return { error: 0 as const, created: outcomes.filter((outcome) => outcome.status === 'created').length, results }
  })
}
