// Maps every error to the spec's envelope `{error: 1, message, code}` and the status table of
// decisions §1. Services throw coded errors without statuses (core/errors.ts); this is the one
// place a code becomes an HTTP status.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, NotFoundError, RateLimitError, ServiceUnavailableError, type ErrorCode } from '../core/errors.js'
import { describeValidationIssue, fieldOfIssue, type ValidationIssue } from '../core/validation-messages.js'
import { isDatabaseUnavailable } from '../db/errors.js'

/** decisions §1: the status of every error code (core/errors.ts ERROR_CODES). */
export const STATUS_OF: Record<ErrorCode, number> = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_content_length: 400,
  // A client error Fastify raised that no other code describes.
  bad_request: 400,
  duplicate: 400,
  domain_not_pointing: 400,
  domain_has_links: 400,
  // Like a domain with links: the request is refused until the data changes (decisions §1 has no 409 for it).
  plan_in_use: 400,
  // A test or retry of a webhook that is switched off: refused until it is switched on again.
  webhook_disabled: 400,
  last_owner: 400,
  // Deleting the administration's workspace, or its owner's only one: refused while that holds.
  workspace_kept: 400,
  // A reset or confirmation link that is none of ours (altered, cut short): a bad request.
  link_invalid: 400,
  // One that was ours and is spent or out of date: gone for good, ask for a new one (issue 38, ADR 036).
  link_expired: 410,
  invalid_api_key: 401,
  expired_api_key: 401,
  invalid_session: 401,
  invalid_metrics_token: 401,
  invalid_credentials: 401,
  wrong_password: 400,
  wrong_code: 400,
  csrf_failed: 403,
  forbidden: 403,
  // A session whose password was right but whose second factor is still to come (or to be set up).
  second_factor_needed: 403,
  sso_required: 403,
  plan_limit_reached: 403,
  not_found: 404,
  // 409, not 503: the namespace is too crowded for random draws, a state of the data rather than a
  // server unable to answer. A 503 would read as an outage to monitors and invite blind retries;
  // a 409 tells the client to retry once or to choose its own alias.
  aliases_exhausted: 409,
  body_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
}

/** The envelope; `field` names the request field at fault, when one is (an addition clients may ignore, like `code`). */
function envelope(reply: FastifyReply, code: ErrorCode, message: string, field?: string, status = STATUS_OF[code]) {
  const body = field === undefined ? { error: 1, message, code } : { error: 1, message, code, field }
  return reply.code(status).type('application/json; charset=utf-8').send(body)
}

/** How long a refused body may keep arriving before the answer is sent anyway (and the connection closed). */
const DISCARD_BODY_MS = 10_000

/**
 * Sends `answer()` once the client has finished sending the body Fastify refused, reading and
 * throwing away the rest of it. Fastify answers at once and closes the connection; a client still
 * sending (one that does not wait for `100 Continue`, e.g. Node's own http client) then meets a
 * reset in mid-write and never reads the answer. After DISCARD_BODY_MS the answer goes out and the
 * connection closes as before; otherwise it stays usable.
 */
export function answerAfterBody(request: FastifyRequest, reply: FastifyReply, answer: () => FastifyReply): FastifyReply | Promise<FastifyReply> {
  const body = request.raw
  if (body.readableEnded || body.destroyed) return answer()
  return new Promise((resolve) => {
    let settled = false
    const settle = (keepAlive: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      body.off('end', ended)
      body.off('close', closed)
      if (keepAlive) reply.removeHeader('connection')
      resolve(answer())
    }
    const ended = () => settle(true)
    const closed = () => settle(false)
    const timer = setTimeout(() => settle(false), DISCARD_BODY_MS)
    body.on('end', ended)
    body.on('close', closed)
    body.resume()
  })
}

/** Answers an AppError in the envelope with its status (and Retry-After where it has one). */
export function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error instanceof RateLimitError) reply.header('retry-after', String(error.retryAfterSeconds))
  if (error instanceof ServiceUnavailableError) reply.header('retry-after', '5')
  return envelope(reply, error.code, error.message, error.field)
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
export function sendApiError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> {
  if (error instanceof AppError) return sendAppError(reply, error)
  if (error.validation && error.validation.length > 0) {
    const part = error.validationContext ?? 'body'
    const schema = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[part]
    const issue = error.validation[0] as ValidationIssue
    return envelope(reply, 'validation_failed', describeValidationIssue(part, issue, schema), fieldOfIssue(issue))
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return envelope(reply, 'invalid_json', 'The request body is not valid JSON.')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return answerAfterBody(request, reply, () => envelope(reply, 'body_too_large', 'The request body is too large.'))
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return envelope(reply, 'unsupported_media_type', 'Request bodies must be sent as application/json.')
    // The router's own refusals (Fastify's frameworkErrors), before any route is chosen.
    case 'FST_ERR_BAD_URL':
      return envelope(reply, 'validation_failed', 'The address contains a malformed percent-encoded sequence.')
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return envelope(reply, 'validation_failed', 'A path parameter of the address is too long.')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return envelope(reply, 'invalid_content_length', 'The Content-Length header does not match the body.')
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable')
    return sendAppError(reply, new ServiceUnavailableError())
  }
  const status = error.statusCode ?? 500
  if (status >= 400 && status < 500) {
    return envelope(reply, 'bad_request', error.message || 'The request could not be understood.', undefined, status)
  }
  request.log.error({ err: error, reqId: request.id }, 'unhandled error')
  return envelope(reply, 'internal_error', 'An unexpected error occurred. Please try again later.')
}
