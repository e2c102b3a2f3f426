// What a tag is as clients send it (issue 23, docs/adr/023-tags-and-social-cards.md): a name of 1 to
// 50 characters (the one text rule of core/text.ts: no control characters), at most 30 on one item,
// one tag per name whatever its case. The schemas and the normaliser say the same words.
import { ValidationError } from '../../core/errors.js'
import { textRuleBroken } from '../../core/text.js'

export const MAX_TAG_LENGTH = 50
export const MAX_TAGS = 30

export const TAG_NAME_RULE = `must be 1 to ${MAX_TAG_LENGTH} characters`
export const TAGS_RULE = `must be a list of at most ${MAX_TAGS} tags of 1 to ${MAX_TAG_LENGTH} characters`

/** The key a name is unique by: tags are one per name whatever its case. */
export function tagKey(name: string): string {
  return name.toLowerCase()
}

/** A tag's name, trimmed; a ValidationError naming `field` when it breaks the rule. */
export function tagName(given: string, field: string): string {
  const name = given.trim()
  if (name.length === 0 || [...name].length > MAX_TAG_LENGTH) throw ValidationError.field(field, TAG_NAME_RULE)
  const broken = textRuleBroken(name, false)
  if (broken) throw ValidationError.field(field, broken)
  return name
}

/**
 * An item's tags as given: trimmed, each name once (the first spelling of a name kept), in the
 * order given. A ValidationError naming `tags` (or the entry at fault) otherwise.
 */
export function normaliseTags(given: readonly string[], field = 'tags'): string[] {
  if (given.length > MAX_TAGS) throw ValidationError.field(field, TAGS_RULE)
  const byKey = new Map<string, string>()
  given.forEach((entry, index) => {
    const name = tagName(entry, `${field}.${index}`)
    if (!byKey.has(tagKey(name))) byKey.set(tagKey(name), name)
  })
  return [...byKey.values()]
}

/** The keys of the names a list filter asks for (`?tag=`), each once. */
export function filterKeys(given: string | readonly string[] | undefined): string[] | undefined {
  if (given === undefined) return undefined
  const names = (typeof given === 'string' ? [given] : given).map((name) => name.trim()).filter((name) => name !== '')
  return names.length === 0 ? undefined : [...new Set(names.map(tagKey))].sort()
}
