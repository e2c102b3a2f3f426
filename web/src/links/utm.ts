// UTM parameters in the link builder: the five fields, the server's rule for a value
// (src/modules/links/link-options.ts), and the destination a visitor will get, for the preview
// (merged by the server's own code, src/core/query-parameters.ts).
import { withQueryParameters } from '../../../src/core/query-parameters'


export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const
export type UtmField = (typeof UTM_FIELDS)[number]
export type UtmValues = Record<UtmField, string>

export const MAX_UTM_LENGTH = 200

export const emptyUtm: UtmValues = { source: '', medium: '', campaign: '', term: '', content: '' }

export const UTM_LABELS: Record<UtmField, string> = {
  source: 'UTM source', medium: 'UTM medium', campaign: 'UTM campaign', term: 'UTM term', content: 'UTM content',
}

export const UTM_PLACEHOLDERS: Record<UtmField, string> = {
  source: 'newsletter', medium: 'email', campaign: 'spring-sale', term: 'running shoes', content: 'hero-button',
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** What is wrong with a value, as the server would refuse it; undefined when it is fine. */
export function utmValueProblem(value: string): string | undefined {
  if (value.trim().length > MAX_UTM_LENGTH) return `Use at most ${MAX_UTM_LENGTH} characters.`
  if (CONTROL.test(value)) return 'Remove line breaks, tabs and other control characters.'
  return undefined
}

/** The parameters that are set, trimmed; undefined when none is. */
export function utmBody(values: UtmValues): Partial<UtmValues> | undefined {
  const body: Partial<UtmValues> = {}
  for (const field of UTM_FIELDS) {
    const value = values[field].trim()
    if (value) body[field] = value
  }
  return Object.keys(body).length > 0 ? body : undefined
}

/** Form values from what the API answers (only the parameters set). */
export function utmValuesOf(utm: Partial<Record<UtmField, string>> | null | undefined): UtmValues {
  return { ...emptyUtm, ...utm }
}

/**
 * `url` with the parameters merged into its query as a visit merges them (the server's own rule,
 * src/core/query-parameters.ts): a parameter of the same name replaced where it stands, the others
 * and the fragment kept.
 */
export function withUtmParameters(url: string, values: UtmValues): string {
  const utm = utmBody(values)
  if (!utm) return url
  return withQueryParameters(url, UTM_FIELDS.flatMap((field) => {
    const value = utm[field]
    return value === undefined ? [] : [[`utm_${field}`, value] as const]
  }))
}
