// Maps every error to the spec's envelope `{error: 1, message, code}` and the status table of
// decisions §1. Services throw coded errors without statuses (core/errors.ts); this is the one
// place a code becomes an HTTP status.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, NotFoundError, RateLimitError, ServiceUnavailableError, type ErrorCode } from '../core/errors.js'
import { describeValidationIssue, type ValidationIssue } from '../core/validation-messages.js'
import { isDatabaseUnavailable } from '../db/dialect.js'

/** decisions §1: the status of every error code. */
export const STATUS_OF: Record<ErrorCode, number> = {
  validation_failed: 400,
  duplicate: 400,
  domain_not_pointing: 400,
  domain_has_links: 400,
  // Like a domain with links: the request is refused until the data changes (decisions §1 has no 409 for it).
  plan_in_use: 400,
  invalid_api_key: 401,
  expired_api_key: 401,
  invalid_session: 401,
  invalid_credentials: 401,
  wrong_password: 400,
  csrf_failed: 403,
  forbidden: 403,
  plan_limit_reached: 403,
  not_found: 404,
  // 409, not 503: the namespace is too crowded for random draws, a state of the data rather than a
  // server unable to answer. A 503 would read as an outage to monitors and invite blind retries;
  // a 409 tells the client to retry once or to choose its own alias.
  aliases_exhausted: 409,
  rate_limited: 429,
  service_unavailable: 503,
}

function envelope(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: 1, message, code })
}

/** Answers an AppError in the envelope with its status (and Retry-After where it has one). */
export function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error instanceof RateLimitError) reply.header('retry-after', String(error.retryAfterSeconds))
  if (error instanceof ServiceUnavailableError) reply.header('retry-after', '5')
  return envelope(reply, STATUS_OF[error.code], error.code, error.message)
}

/** The API's answer to a path no route matches. */
export function sendEndpointNotFound(reply: FastifyReply): FastifyReply {
  return sendAppError(reply, NotFoundError.endpoint())
}

/** Installs the single error handler of the application. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(sendApiError)
}

/** Answers any error of an API request in the envelope (also the router's, through frameworkErrors). */
export function sendApiError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof AppError) return sendAppError(reply, error)
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
    // The router's own refusals (Fastify's frameworkErrors), before any route is chosen.
    case 'FST_ERR_BAD_URL':
      return envelope(reply, 400, 'validation_failed', 'The address contains a malformed percent-encoded sequence.')
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return envelope(reply, 400, 'validation_failed', 'A path parameter of the address is too long.')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return envelope(reply, 400, 'invalid_content_length', 'The Content-Length header does not match the body.')
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable')
    return sendAppError(reply, new ServiceUnavailableError())
  }
  const status = error.statusCode ?? 500
  if (status >= 400 && status < 500) {
    return envelope(reply, status, 'bad_request', error.message || 'The request could not be understood.')
  }
  request.log.error({ err: error, reqId: request.id }, 'unhandled error')
  return envelope(reply, 500, 'internal_error', 'An unexpected error occurred. Please try again later.')
}
