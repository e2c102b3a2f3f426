// An item's tags as the server takes them (src/modules/tags/tag-names.ts): 1 to 50 characters each,
// at most 30, one per name whatever its case.
export const MAX_TAG_LENGTH = 50
export const MAX_TAGS = 30

/** `tags` with `name` added (trimmed), unless it is blank or already there in any case. */
export function withTag(tags: readonly string[], name: string): string[] {
  const trimmed = name.trim()
  if (!trimmed || tags.some((tag) => tag.toLowerCase() === trimmed.toLowerCase())) return [...tags]
  return [...tags, trimmed]
}

/** What is wrong with these tags, by the server's field names (`tags`, `tags.2`). */
export function tagProblems(tags: readonly string[]): Record<string, string> {
  const problems: Record<string, string> = {}
  if (tags.length > MAX_TAGS) problems.tags = `At most ${MAX_TAGS} tags.`
  tags.forEach((tag, index) => {
    if ([...tag].length > MAX_TAG_LENGTH) problems[`tags.${index}`] = `A tag has at most ${MAX_TAG_LENGTH} characters.`
  })
  if (!problems.tags) {
    const first = Object.keys(problems)[0]
    if (first) problems.tags = problems[first]!
  }
  return problems
}

/** A readable text color on a tag's background color. */
export function chipStyle(color: string | null | undefined): { background?: string; color?: string } {
  if (!color) return {}
  const value = Number.parseInt(color.slice(1), 16)
  const luminance = (0.299 * ((value >> 16) & 255) + 0.587 * ((value >> 8) & 255) + 0.114 * (value & 255)) / 255
  return { background: color, color: luminance > 0.6 ? '#1d2433' : '#ffffff' }
}
