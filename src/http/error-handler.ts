// Maps every error to the spec's envelope and the status table of decisions §1.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isDatabaseUnavailable } from '../db/dialect.js'
import { sendNotFoundPage } from '../public/html.js'
import { isApiPath } from './auth.js'
import { AppError, NotFoundError, ServiceUnavailableError } from './errors.js'

interface ValidationIssue {
  instancePath?: string
  schemaPath?: string
  keyword?: string
  message?: string
  params?: Record<string, unknown>
}

const PART_NAMES: Record<string, string> = {
  body: 'field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
}

/**
 * The `errorMessage` a schema sets for the field an issue points at: the deepest one on the way
 * from the root to the failing node (so a union's own message covers its branches).
 */
function customMessageAt(schema: unknown, schemaPath: string | undefined): string | undefined {
  if (!schema || !schemaPath?.startsWith('#')) return undefined
  let node: unknown = schema
  let message: string | undefined
  for (const segment of schemaPath.slice(1).split('/').filter(Boolean)) {
    if (node === null || typeof node !== 'object') break
    node = (node as Record<string, unknown>)[decodeURIComponent(segment)]
    const custom = (node as { errorMessage?: unknown } | undefined)?.errorMessage
    if (typeof custom === 'string') message = custom
  }
  return message
}

/** Turns the first validation issue into one sentence that names the field and the rule. */
export function describeValidationIssue(part: string, issue: ValidationIssue, schema?: unknown): string {
  const path = (issue.instancePath ?? '').split('/').filter(Boolean).join('.')
  const missing = issue.keyword === 'required'
    ? ((issue.params?.requiredProperties as string[] | undefined)?.[0] ?? (issue.params?.missingProperty as string | undefined))
    : undefined
  const partName = PART_NAMES[part] ?? part
  if (missing) {
    return `The ${partName} "${path ? `${path}.` : ''}${missing}" is required.`
  }
  if (!path) {
    return part === 'body' ? 'The request body must be a JSON object.' : `Invalid ${partName}: ${issue.message ?? 'invalid value'}.`
  }
  const rule = customMessageAt(schema, issue.schemaPath) ?? issue.message ?? 'is invalid'
  return `The ${partName} "${path}" ${rule}.`.replace(/\.\.$/, '.')
}

function envelope(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: 1, message, code })
}

/** Installs the single error handler and the not-found handler. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      reply.headers(error.headers)
      return envelope(reply, error.statusCode, error.code, error.message)
    }
    if (error.validation && error.validation.length > 0) {
      const part = error.validationContext ?? 'body'
      const schema = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[part]
      return envelope(reply, 400, 'validation_failed', describeValidationIssue(part, error.validation[0] as ValidationIssue, schema))
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return envelope(reply, 400, 'invalid_json', 'The request body is not valid JSON.')
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return envelope(reply, 413, 'body_too_large', 'The request body is too large.')
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return envelope(reply, 415, 'unsupported_media_type', 'Request bodies must be sent as application/json.')
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return envelope(reply, 400, 'invalid_content_length', 'The Content-Length header does not match the body.')
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable')
      const unavailable = new ServiceUnavailableError()
      reply.header('retry-after', '5')
      return envelope(reply, unavailable.statusCode, unavailable.code, unavailable.message)
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      return envelope(reply, status, 'bad_request', error.message || 'The request could not be understood.')
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error')
    return envelope(reply, 500, 'internal_error', 'An unexpected error occurred. Please try again later.')
  })

  app.setNotFoundHandler((request, reply) => {
    // Visitors of unknown short addresses get a page; API clients get the envelope.
    if (!isApiPath(request.url)) return sendNotFoundPage(reply)
    const error = NotFoundError.endpoint()
    return envelope(reply, error.statusCode, error.code, error.message)
  })
}
