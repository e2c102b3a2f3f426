// Which field of a small form a server refusal is about, so its message shows beside that field.
// ApiError.field knows the link builder's words; the campaign, channel and pixel forms add theirs
// ("You already have a channel with this name." is about the name).
import { ApiError, messageOf, ruleOfMessage } from '../api/client'

/** A refusal placed on one of `fields`, or left for the form's own error line. */
export interface PlacedError<Field extends string> {
  field?: Field
  /** Beside the field: the rule ("Must be …"); otherwise the whole message. */
  message: string
}

/**
 * `hints`: message patterns that name a field without quoting it, tried when the message quotes
 * none of `fields`.
 */
export function placeServerError<Field extends string>(error: unknown, fields: readonly Field[], hints: Array<[RegExp, Field]> = []): PlacedError<Field> {
  const message = messageOf(error)
  if (!(error instanceof ApiError) || error.status !== 400) return { message }
  const quoted = /\b(?:field|parameter) "([^"]+)"/.exec(message)?.[1]
  const field = fields.find((name) => name === quoted) ?? (quoted ? undefined : hints.find(([pattern]) => pattern.test(message))?.[1])
  return field ? { field, message: ruleOfMessage(message) } : { message }
}
