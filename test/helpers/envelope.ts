// The error envelope a refusal about one field answers: `field` names it as the client sent it
// (core/errors.ts), read here from the message's quoted name unless the test gives it.

/** `The field "data.ssid" must …` → `data.ssid`; undefined when the message quotes no field or parameter. */
export function quotedFieldOf(message: string): string | undefined {
  return /^The (?:field|query parameter|path parameter) "([^"]+)"/.exec(message)?.[1]
}

/** `{error: 1, message, code, field}` with `field` left out when there is none. */
export function fieldError(message: string, code = 'validation_failed', field = quotedFieldOf(message)) {
  return field === undefined ? { error: 1, message, code } : { error: 1, message, code, field }
}
