// UTM parameters (issue 23, ADR 020): their names, the longest value, and how they are merged into
// a destination. The one owner of the rule for the server (modules/links/link-options.ts, the
// visit's destination) and for the dashboard's link builder (web/src/links/utm.ts, its preview),
// which imports this file: so it imports nothing but core/query-parameters.ts, itself import-free.
import { withQueryParameters } from './query-parameters.js'

/** The UTM parameters, by their API names, in the order they are appended; each is sent as `utm_<name>`. */
export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const

export type UtmField = (typeof UTM_FIELDS)[number]

/** The UTM parameters a link or template sets (at least one when not null). */
export type UtmParameters = Partial<Record<UtmField, string>>

/** Longest UTM value. */
export const MAX_UTM_LENGTH = 200

/**
 * `url` with the UTM parameters in its query: a parameter of the same name (`utm_source`) is
 * replaced where it stands (later repeats of it dropped), the others are added at the end in the
 * order of UTM_FIELDS; every other parameter and the fragment are kept as they were written.
 */
export function withUtmParameters(url: string, utm: UtmParameters): string {
  const wanted: [string, string][] = []
  for (const name of UTM_FIELDS) {
    const value = utm[name]
    if (value !== undefined) wanted.push([`utm_${name}`, value])
  }
  return withQueryParameters(url, wanted)
}
