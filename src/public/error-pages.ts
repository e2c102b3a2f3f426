// Errors on visitors' addresses become HTML pages, never the API's JSON envelope: a person in a
// browser followed a short link, scanned a code or opened an image (the API keeps the envelope).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../core/errors.js'
import { describeValidationIssue, type ValidationIssue } from '../core/validation-messages.js'
import { isDatabaseUnavailable } from '../db/errors.js'
import { isApiPath } from '../http/auth.js'
import { routePathOf } from '../http/route-path.js'
import { answerAfterBody, STATUS_OF } from '../http/error-handler.js'
import { sendNoticePage, sendNotFoundPage } from './html.js'

// Visitor-facing wording for the client errors Fastify raises before a handler runs.
const CLIENT_ERROR_TEXT: Record<number, string> = {
  413: 'The form you sent is too large.',
  415: 'This address accepts web forms only.',
}

/** The public scope's error handler. */
export function sendPublicError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> {
  // The scope's `/:alias` also matches `/api`: the API gate's answers there stay envelopes.
  if (isApiPath(routePathOf(request))) throw error
  if (error instanceof AppError) {
    if (error.code === 'not_found') return sendNotFoundPage(reply)
    return sendNoticePage(reply, STATUS_OF[error.code], 'Request not accepted', error.message)
  }
  if (error.validation && error.validation.length > 0) {
    const part = error.validationContext ?? 'querystring'
    const schema = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[part]
    return sendNoticePage(reply, 400, 'Request not accepted', describeValidationIssue(part, error.validation[0] as ValidationIssue, schema))
  }
  const status = error.statusCode ?? 500
  // No short address is that long: the router refused a path segment past its limit.
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendNotFoundPage(reply)
  if ((error.code?.startsWith('FST_ERR_CTP_') || error.code === 'FST_ERR_BAD_URL') && status >= 400 && status < 500) {
    const answer = () => sendNoticePage(reply, status, 'Request not accepted', CLIENT_ERROR_TEXT[status] ?? 'The request could not be understood.')
    return error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? answerAfterBody(request, reply, answer) : answer()
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable')
    reply.header('retry-after', '5')
    return sendNoticePage(reply, 503, 'Temporarily unavailable', 'This address cannot be served right now. Please try again in a few seconds.')
  }
  request.log.error({ err: error, reqId: request.id }, 'unhandled error')
  return sendNoticePage(reply, 500, 'Something went wrong', 'This address cannot be served right now. Please try again later.')
}
