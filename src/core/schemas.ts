// Schemas shared by every module's payloads: ids, paging, dates, URLs, colors and the envelopes
// of the spec. One schema drives validation, the TypeScript type and the OpenAPI document.
import { Type, type TSchema } from 'typebox'
import { MAX_URL_LENGTH } from './urls.js'

/** Largest id we accept: PostgreSQL `integer`. */
export const MAX_ID = 2_147_483_647

/**
 * Marks a text schema (or a free-form value such as a QR code's data) whose strings may hold tab
 * and line breaks; every other string refuses them (http/validator.ts applies the rule).
 */
export const MULTILINE_KEYWORD = 'x-multiline'

/** Options of a multi-line text schema: `Type.String({ maxLength: 500, ...MULTILINE })`. */
export const MULTILINE = { [MULTILINE_KEYWORD]: true } as const

/** A positive integer id. */
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID, errorMessage: 'must be a positive whole number' })

/** An id inside a union, whose own message names every branch. */
export const PositiveId = Type.Integer({ minimum: 1, maximum: MAX_ID })

export const IdParams = Type.Object({ id: Id })

/** spec: list endpoints take optional `limit` and `page` (decisions §4). */
export const PageQuery = Type.Object({
  limit: Type.Optional(Id),
  page: Type.Optional(Id),
})

/** Date-time as the spec writes it: `YYYY-MM-DD HH:MM:SS` (UTC). */
export const DateTime = Type.String({ description: 'UTC date-time, `YYYY-MM-DD HH:MM:SS`' })

/** The form of an http(s) URL a client gives; services check it parses (core/urls.ts). */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$'

/** A URL given by a client: http or https only (decisions §5); services check it parses (core/urls.ts). */
export const HttpUrl = Type.String({
  maxLength: MAX_URL_LENGTH,
  pattern: HTTP_URL_PATTERN,
  errorMessage: 'must be an http or https URL',
})

/** A color as `#RGB` or `#RRGGBB`. */
export const HEX_COLOR_PATTERN = '^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$'

export const HexColor = Type.String({ pattern: HEX_COLOR_PATTERN, errorMessage: 'must be a HEX color like #1e90ff or #fff' })

/** The pattern of every alias and rotator slug: 3 to 64 of A-Z, a-z, 0-9, `_` and `-`. */
export const ALIAS_PATTERN = '^[A-Za-z0-9_-]{3,64}$'

export const Alias = Type.String({ pattern: ALIAS_PATTERN, errorMessage: 'must be 3 to 64 characters of letters, digits, _ and -' })

/** `{error: 0, message}`: what updates, deletes and assignments answer. */
export const MessageResponse = Type.Object({
  error: Type.Literal(0),
  message: Type.String(),
})

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
