// Text rules shared by every module.
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
