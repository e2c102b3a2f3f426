// What an import reads from a source database (YOURLS, Kutt, Shlink; issue 21, ADR 021): its links
// a page at a time by position, then its clicks a page at a time after a cursor (the last source id
// read, or for YOURLS the last link and id), each click naming the link it belongs to by the link's
// key in that source.
import type { AgentDescription } from '../../analytics/visitor-parser.js'
import type { SourceRow } from './file-sources.js'

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
  links(offset: number, limit: number): Promise<SourceRow[]>
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
