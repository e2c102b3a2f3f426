// UTM parameters in the link builder: the five fields, the server's rule for a value
// (src/modules/links/link-options.ts), and the destination a visitor will get, for the preview.
// The names, the longest value, the rule for text and the merge are the server's own
// (src/core/utm.ts, src/core/text.ts), imported, so neither check nor preview can drift from the server.
import { textRuleBroken } from '../../../src/core/text'
import { MAX_UTM_LENGTH, UTM_FIELDS, withUtmParameters as mergeUtm, type UtmField } from '../../../src/core/utm'

export { MAX_UTM_LENGTH, UTM_FIELDS, type UtmField }
export type UtmValues = Record<UtmField, string>

export const emptyUtm: UtmValues = { source: '', medium: '', campaign: '', term: '', content: '' }

export const UTM_LABELS: Record<UtmField, string> = {
  source: 'UTM source', medium: 'UTM medium', campaign: 'UTM campaign', term: 'UTM term', content: 'UTM content',
}

export const UTM_PLACEHOLDERS: Record<UtmField, string> = {
  source: 'newsletter', medium: 'email', campaign: 'spring-sale', term: 'running shoes', content: 'hero-button',
}

/** What is wrong with a value, as the server would refuse it (it trims first); undefined when it is fine. */
export function utmValueProblem(value: string): string | undefined {
  const text = value.trim()
  if (text.length > MAX_UTM_LENGTH) return `Use at most ${MAX_UTM_LENGTH} characters.`
  const broken = textRuleBroken(text, false)
  // The server's phrase ("must not contain line breaks or tabs") as a sentence, as its refusals are shown.
  return broken ? `${broken.charAt(0).toUpperCase()}${broken.slice(1)}.` : undefined
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

/** `url` with the form's parameters merged into its query as a visit merges them (src/core/utm.ts). */
export function withUtmParameters(url: string, values: UtmValues): string {
  return mergeUtm(url, utmBody(values) ?? {})
}
