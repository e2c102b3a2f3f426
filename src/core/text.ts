// Text rules shared by every module and both transports.
import { ValidationError } from './errors.js'

/**
 * A name trimmed. The schema counted the untrimmed text, so "  a " could slip under a minimum
 * length: the rule is checked again on what is kept, and broken it names `field` and `rule`.
 */
export function trimmedName(name: string, rule: string, minLength = 2, field = 'name'): string {
  const trimmed = name.trim()
  if (trimmed.length < minLength) throw ValidationError.field(field, rule)
  return trimmed
}

// The one rule for text a client sends (API fields, query values, visitors' forms). PostgreSQL
// refuses NUL in text where SQLite stores it, and the other control characters only hide or
// reorder what a person reads: refusing them everywhere keeps both databases answering alike.
// Tab and line breaks are allowed where a field holds several lines (a description, a message).
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
const LINE_CONTROL = /[\t\n\r]/
// With the u flag a character class of surrogates matches only unpaired ones: a lone surrogate
// has no UTF-8 form, so each database would store a replacement character instead.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

/**
 * What is wrong with `text` under the rule for client text, as a rule phrase ("must not …"),
 * or null when it is acceptable. `multiline` allows tab, line feed and carriage return.
 */
export function textRuleBroken(text: string, multiline: boolean): string | null {
  if (CONTROL_CHARACTER.test(text)) return 'must not contain control characters'
  if (!multiline && LINE_CONTROL.test(text)) return 'must not contain line breaks or tabs'
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text'
  return null
}

/** `text` with every character the rule refuses written as `\uXXXX`, to name a field safely. */
export function escapeForbiddenCharacters(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]|[\uD800-\uDFFF]/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
