// Schemas shared by every module's payloads: ids, paging, dates, URLs, colors and the envelopes
// of the spec. One schema drives validation, the TypeScript type and the OpenAPI document.
import { IsOptional, Type, type TObject, type TObjectOptions, type TProperties, type TSchema } from 'typebox'
import { ALIAS_PATTERN } from './link-limits.js'
import { TIMESTAMP_INPUT_PATTERN } from './time.js'
import { HTTP_URL_PATTERN, MAX_URL_LENGTH } from './urls.js'

/** Largest id we accept: PostgreSQL `integer`. */
export const MAX_ID = 2_147_483_647

/**
 * Marks a text schema (or a free-form value such as a QR code's data) whose strings may hold tab
 * and line breaks; every other string refuses them (http/validator.ts applies the rule).
 */
export const MULTILINE_KEYWORD = 'x-multiline'

/** Options of a multi-line text schema: `Type.String({ maxLength: 500, ...MULTILINE })`. */
export const MULTILINE = { [MULTILINE_KEYWORD]: true } as const

/**
 * Null and empty optional fields (ADR 013). `core/optional-fields.ts` reads these before the
 * schema check: an optional field's `null` is "not given" unless its schema accepts null
 * (`NullMeans`); its `""` (or blank text) is "not given" too, except in an update body
 * (`UpdateBody`), where it clears a `Clearable` field and is refused for any other.
 */
export const UPDATE_KEYWORD = 'x-update'
export const CLEARS_KEYWORD = 'x-clears'

/** Whether `schema` takes null as a value: it is the null type or a union with a null branch. */
export function acceptsNull(schema: unknown): boolean {
  const node = schema as { type?: unknown; anyOf?: unknown[] } | undefined
  if (!node) return false
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true
  return (node.anyOf ?? []).some(acceptsNull)
}

/** An optional field `""` clears on an update (`meaning`: what is left, e.g. "no redirect"); on a create, `""` is the default anyway. */
export function Clearable<T extends TSchema>(schema: T, meaning: string, options: { errorMessage?: string } = {}) {
  return Type.Union([schema, Type.Literal('')], { ...options, [CLEARS_KEYWORD]: true, description: `\`""\`: ${meaning}` })
}

/** A field whose `null` is a value (`meaning`: what it stands for), not "not given". */
export function NullMeans<T extends TSchema>(schema: T, meaning: string, options: { errorMessage?: string; description?: string } = {}) {
  const { description, ...rest } = options
  return Type.Union([schema, Type.Null()], { ...rest, description: description ? `${description}; null: ${meaning}` : `null: ${meaning}` })
}

/** `schema` with `text` appended to its description; the schema's hidden TypeBox keys (kind, optional) kept. */
function describedAs<T extends TSchema>(schema: T, text: string): T {
  const own = (schema as { description?: unknown }).description
  const description = typeof own === 'string' && own !== '' ? `${own}; ${text}` : text
  return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(schema), description: { value: description, enumerable: true, writable: true, configurable: true } }) as T
}

/** What an update does with an optional field given as null, `""` or not at all, as its description says. */
function updateMeaning(field: TSchema): string {
  const node = field as Record<string, unknown>
  if (node[CLEARS_KEYWORD] === true) return 'null or left out: unchanged'
  if (acceptsNull(node)) return 'left out: unchanged'
  return 'null or left out: unchanged; `""` is refused'
}

/**
 * The body of an update: a field left out or sent as null keeps its value, `""` clears a
 * `Clearable` field and is refused for any other (ADR 013). Each optional field's OpenAPI
 * description says which.
 */
export function UpdateBody<P extends TProperties>(properties: P, options: TObjectOptions = {}): TObject<P> {
  const described = Object.fromEntries(
    Object.entries(properties).map(([name, field]) => [name, IsOptional(field) ? describedAs(field, updateMeaning(field)) : field]),
  ) as P
  return Type.Object(described, { ...options, [UPDATE_KEYWORD]: true })
}

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

/**
 * One end of a time range a list takes (`from`, `to`; read by core/time.ts `readTimeRange`): UTC,
 * `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`; a date alone means its `end` (first or last second).
 */
export const TimeBound = (end: string) => Type.String({
  pattern: TIMESTAMP_INPUT_PATTERN,
  errorMessage: 'must be a date YYYY-MM-DD or a date-time YYYY-MM-DD HH:MM:SS',
  description: `UTC, \`YYYY-MM-DD\` or \`YYYY-MM-DD HH:MM:SS\`; a date alone means its ${end}; left out, no bound`,
})

/** A URL given by a client: http or https only (decisions §5); services check it parses (core/urls.ts). */
export const HttpUrl = Type.String({
  maxLength: MAX_URL_LENGTH,
  pattern: HTTP_URL_PATTERN,
  errorMessage: 'must be an http or https URL',
})

/** A color as `#RGB` or `#RRGGBB`. */
export const HEX_COLOR_PATTERN = '^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$'

export const HexColor = Type.String({ pattern: HEX_COLOR_PATTERN, errorMessage: 'must be a HEX color like #1e90ff or #fff' })

export const Alias = Type.String({ pattern: ALIAS_PATTERN, errorMessage: 'must be 3 to 64 characters of letters, digits, _ and -' })

/** `{error: 0, message}`: what updates, deletes and assignments answer. */
export const MessageResponse = Type.Object({
  error: Type.Literal(0),
  message: Type.String(),
})

/**
 * `error` of a list answer: the string "0" as the spec says, or the integer 0 on a server set to
 * LIST_ERROR_FORMAT=integer (http/list.ts).
 */
export const ListError = Type.Union([Type.Literal('0'), Type.Literal(0)], {
  description: 'the string "0" (the spec\'s list answer), or the integer 0 where the server sets LIST_ERROR_FORMAT=integer for clients that test `error` for truthiness',
})

/** The list envelope: `{error: "0", data: {result, perpage, currentpage, nextpage, maxpage, <key>: [...]}}`. */
export function listResponse<K extends string, T extends TSchema>(key: K, item: T) {
  return Type.Object({
    error: ListError,
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
