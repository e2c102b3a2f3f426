// Response schemas of the errors every authenticated endpoint may answer (decisions §1).
import { Type, type Static } from 'typebox'
import { ERROR_CODES } from '../core/errors.js'

/** The error envelope, registered once (app.ts addSchema) and referenced by every endpoint's error statuses. */
export const ErrorResponse = Type.Object({
  error: Type.Literal(1),
  message: Type.String(),
  code: Type.Union(ERROR_CODES.map((code) => Type.Literal(code)), { description: 'stable machine code (core/errors.ts)' }),
  field: Type.Optional(Type.String({ description: 'the request field the error is about, as a dotted path (`custom`, `geotarget.0.location`), when one is' })),
}, { $id: 'ErrorEnvelope', title: 'ErrorEnvelope' })

/** A reference to the registered envelope: the OpenAPI document describes it once, in its components. */
export const ErrorEnvelope = Type.Unsafe<Static<typeof ErrorResponse>>({ $ref: 'ErrorEnvelope#' })

/** Response schemas for the error statuses every authenticated endpoint may answer. */
export const errorResponses = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  429: ErrorEnvelope,
}

/** The error statuses of endpoints that draw an alias: 409 when the namespace has no free alias left. */
export const aliasDrawingErrorResponses = { ...errorResponses, 409: ErrorEnvelope }
