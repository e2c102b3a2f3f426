// Response schemas of the errors every authenticated endpoint may answer (decisions §1).
import { Type } from 'typebox'

export const ErrorResponse = Type.Object({
  error: Type.Literal(1),
  message: Type.String(),
  code: Type.String(),
})

/** Response schemas for the error statuses every authenticated endpoint may answer. */
export const errorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
}

/** The error statuses of endpoints that draw an alias: 409 when the namespace has no free alias left. */
export const aliasDrawingErrorResponses = { ...errorResponses, 409: ErrorResponse }
