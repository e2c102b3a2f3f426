// Which destination a visitor of a targeted link gets (decisions §6: geotarget, devicetarget,
// languagetarget). Precedence: a matching country rule, then device, then language, then the
// link's own URL. The rules are read once, when the link is loaded into the cache, by the same
// normaliser the link's write validates with (links/link-targeting.ts), so choosing costs a few
// comparisons per visit.
import type { LinkTargeting } from '../links/link-targeting.js'

/** What is known about the visitor; each field is only looked up when the link has rules of its kind. */
export interface VisitorProfile {
  /** ISO 3166-1 alpha-2 code from the geo lookup, e.g. `US`. */
  country: string | null
  /** Most specific first, see analytics/visitor-parser.ts deviceNamesOf. */
  devices: readonly string[]
  /** Best first, see analytics/visitor-parser.ts preferredLanguagesOf. */
  languages: readonly string[]
}

/** True when some rule exists, i.e. the visitor must be looked at. */
export function hasTargeting(targeting: LinkTargeting): boolean {
  return targeting.geo.length + targeting.device.length + targeting.language.length > 0
}

/**
 * The destination for this visitor: the first country rule for their country, else the rule for
 * their most specific matching device name, else the rule for their best language, else `url`.
 */
export function chooseDestination(url: string, targeting: LinkTargeting, visitor: VisitorProfile): string {
  if (visitor.country) {
    const byCountry = targeting.geo.find((rule) => rule.location === visitor.country)
    if (byCountry) return byCountry.link
  }
  for (const device of visitor.devices) {
    const byDevice = targeting.device.find((rule) => rule.device === device)
    if (byDevice) return byDevice.link
  }
  for (const language of visitor.languages) {
    const byLanguage = targeting.language.find((rule) => rule.language === language)
    if (byLanguage) return byLanguage.link
  }
  return url
}
