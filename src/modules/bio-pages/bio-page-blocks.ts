// The link blocks of a bio page: stored as a JSON array of {title, url} in display order, read
// back defensively because the public page renders them.

/** One button on a bio page. */
export interface BioBlock {
  title: string
  url: string
}

/**
 * Reads the stored `blocks` column. Anything malformed (a hand-edited row, an older format) is
 * skipped rather than failing the API read or the public page.
 */
export function parseStoredBlocks(json: string): BioBlock[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return []
  }
  if (!Array.isArray(parsed)) return []
  return parsed.flatMap((entry: unknown) => {
    const { title, url } = (entry ?? {}) as { title?: unknown; url?: unknown }
    return typeof title === 'string' && typeof url === 'string' ? [{ title, url }] : []
  })
}
