// What an import reads from a source database (YOURLS, Kutt, Shlink; issue 21, ADR 021): its links
// a page at a time by position, then its clicks a page at a time after a cursor (the last source id
// read, or for YOURLS the last link and id), each click naming the link it belongs to by the link's
// key in that source.
import type { AgentDescription } from '../../analytics/visitor-reading.js'
import type { SourceRow } from './file-sources.js'
import { MAX_TAG_LENGTH, MAX_TAGS } from '../tags/tag-names.js'
import { textRuleBroken } from '../../core/text.js'

/**
 * A source database's link: besides what a file's row holds, what is stored as the source kept it
 * (a password's hash, an expiry that may have passed; link-batch.ts `BatchRow.stored`), and what
 * the reader had to change to take the link (a tag shortened), for the report.
 */
export type DatabaseRow = SourceRow & { stored?: { passwordHash?: string; expiresAt?: string }; notes?: string[] }

/** One click as the source tells it, enriched as far as it can be. */
export interface SourceClick {
  /** The key of its link in the source (the SourceRow's `key`). */
  linkKey: string
  /** `YYYY-MM-DD HH:MM:SS`, UTC */
  createdAt: string
  referrerHost: string | null
  country: string | null
  agent: AgentDescription
  /** Linkwell's own export tells these; other sources do not (null, not unique). */
  language?: string | null
  isUnique?: boolean
}

/** A click a source file holds but that cannot be read: its line in the file and why. */
export interface UnreadableClick {
  line: number
  reason: string
}

export interface SourceReader {
  /** Links in a stable order from position `offset` on. */
  links(offset: number, limit: number): Promise<DatabaseRow[]>
  /**
   * Clicks after `cursor` ('0' at the start); `last` is the cursor after this page (kept with the
   * job: a resumed job reads on from it), undefined when none is left. `unreadable`: the page's
   * clicks that could not be read (a file's lines), for the report.
   */
  clicks(cursor: string, limit: number): Promise<{ last: string; clicks: SourceClick[]; unreadable?: UnreadableClick[] } | undefined>
}

/** An ISO country code as sources write it (any case), or null for none, `unknown`, `--`. */
export function countryCodeOf(text: string | null | undefined): string | null {
  return text && /^[A-Za-z]{2}$/.test(text.trim()) ? text.trim().toUpperCase() : null
}

/**
 * A source's tags as Linkwell takes them (at most MAX_TAGS of at most MAX_TAG_LENGTH characters): a
 * longer one is shortened (and dropped when it then equals another), never the link skipped for it;
 * `notes` says what was changed.
 */
export function fittedTags(names: readonly string[]): { tags: string[]; notes: string[] } {
  const tags: string[] = []
  const notes: string[] = []
  for (const name of names) {
    const chars = [...name.trim()]
    if (chars.length === 0) continue
    const fitted = chars.slice(0, MAX_TAG_LENGTH).join('').trim()
    if (textRuleBroken(fitted, false)) {
      notes.push(`The tag "${name.slice(0, 60)}" is not a tag name here (${textRuleBroken(fitted, false)}): dropped.`)
      continue
    }
    const duplicate = tags.some((tag) => tag.toLowerCase() === fitted.toLowerCase())
    if (chars.length > MAX_TAG_LENGTH) {
      notes.push(duplicate
        ? `The tag "${name.slice(0, 60)}…" is longer than ${MAX_TAG_LENGTH} characters and shortened is another of its tags: dropped.`
        : `The tag "${name.slice(0, 60)}…" is longer than ${MAX_TAG_LENGTH} characters: shortened to "${fitted}".`)
    }
    if (!duplicate) tags.push(fitted)
  }
  if (tags.length > MAX_TAGS) notes.push(`The link has ${tags.length} tags; ${MAX_TAGS} are kept: ${tags.slice(MAX_TAGS).map((tag) => `"${tag}"`).join(', ')} dropped.`)
  return { tags: tags.slice(0, MAX_TAGS), notes }
}
