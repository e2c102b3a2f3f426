// Which field of a form a server refusal is about, so its message shows beside that field. The
// server names the field in the envelope (`field`: `custom`, `geotarget.0.location`); a form says
// which of those names it shows, and under which of its own names.
import { ApiError, messageOf } from '../api/client'

/** A refusal placed on one of the form's fields, or left for the form's own error line. */
export interface PlacedError<Field extends string> {
  field?: Field
  /** Beside the field: the rule ("Must be …"); otherwise the whole message. */
  message: string
}

/**
 * The fields a form shows for the server's field names: the list of names it shares with the
 * request body, or a function from the server's name to the form's (undefined: not shown here).
 */
export type ServerFields<Field extends string> = readonly Field[] | ((serverField: string) => Field | undefined)

/** Every field the server names is one of the form's, under the same name (forms keyed by request paths). */
export const sameNames = (serverField: string): string => serverField

/** Places `error` beside the field its envelope names, when the form shows that field. */
export function placeServerError<Field extends string>(error: unknown, fields: ServerFields<Field>): PlacedError<Field> {
  const message = messageOf(error)
  if (!(error instanceof ApiError) || error.field === undefined) return { message }
  const named = error.field
  const field = typeof fields === 'function' ? fields(named) : fields.find((name) => name === named)
  return field === undefined ? { message } : { field, message: error.rule }
}
