// Schemas shared by every module: path ids, paging, the success and error envelopes.
import { Type, type TSchema } from 'typebox'

/** Largest id we accept: PostgreSQL `integer`. */
export const MAX_ID = 2_147_483_647

/** A positive integer path id. */
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID, errorMessage: 'must be a positive whole number' })

export const IdParams = Type.Object({ id: Id })

/** spec: list endpoints take optional `limit` and `page` (decisions §4). */
export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, errorMessage: 'must be a positive whole number' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, errorMessage: 'must be a positive whole number' })),
})

/** Date-time as the spec writes it: `YYYY-MM-DD HH:MM:SS` (UTC). */
export const DateTime = Type.String({ description: 'UTC date-time, `YYYY-MM-DD HH:MM:SS`' })

/** A URL given by a client: http or https only (decisions §5). */
export const HttpUrl = Type.String({
  maxLength: 2048,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$',
  errorMessage: 'must be an http or https URL',
})

/** A color as `#RGB` or `#RRGGBB`. */
export const HEX_COLOR_PATTERN = '^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$'

export const HexColor = Type.String({ pattern: HEX_COLOR_PATTERN, errorMessage: 'must be a HEX color like #1e90ff or #fff' })

export const ErrorResponse = Type.Object({
  error: Type.Literal(1),
  message: Type.String(),
  code: Type.String(),
})

export const MessageResponse = Type.Object({
  error: Type.Literal(0),
  message: Type.String(),
})

/** Response schemas for the error statuses every authenticated endpoint may answer. */
export const errorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
}

/** The list envelope: `{error: "0", data: {result, perpage, currentpage, nextpage, maxpage, <key>: [...]}}`. */
export function listResponse<K extends string, T extends TSchema>(key: K, item: T) {
  return Type.Object({
    // spec: list responses carry error as the string "0"
    error: Type.Literal('0'),
    data: Type.Object({
      result: Type.Integer(),
      perpage: Type.Integer(),
      currentpage: Type.Integer(),
      nextpage: Type.Union([Type.Integer(), Type.Null()]),
      maxpage: Type.Integer(),
      [key]: Type.Array(item),
    } as Record<K | 'result' | 'perpage' | 'currentpage' | 'nextpage' | 'maxpage', TSchema>),
  })
}
