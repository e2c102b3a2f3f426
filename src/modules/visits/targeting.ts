// Which destination a visitor of a targeted link gets (decisions §6: geotarget, devicetarget,
// languagetarget). Precedence: a matching country rule, then device, then language, then the
// link's own URL. The rules are read once, when the link is loaded into the cache, by the same
// normaliser the link's write validates with (links/link-targeting.ts), so choosing costs a few
// comparisons per visit.
import { deviceNamesOf, preferredLanguagesOf } from '../../analytics/visitor-parser.js'
import { safeHttpUrl } from '../../core/urls.js'
import type { LinkTargeting } from '../links/link-targeting.js'
import type { PublicLink } from './alias-resolver.js'
import { headerText, type VisitRequest } from './visitor.js'

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

/**
 * Where this visitor of `link` goes: the rule that matches, else the link's URL; only what the
 * rules need is read from the request. `country` is the visitor's, looked up by the caller only
 * when the link has geo rules. Null when no http(s) URL is left.
 */
export function destinationOf(request: VisitRequest, link: PublicLink, country: string | null): string | null {
  const { targeting } = link
  if (!hasTargeting(targeting)) return safeHttpUrl(link.url)
  const chosen = chooseDestination(link.url, targeting, {
    country,
    devices: targeting.device.length > 0 ? deviceNamesOf(headerText(request.headers['user-agent'])) : [],
    languages: targeting.language.length > 0 ? preferredLanguagesOf(headerText(request.headers['accept-language'])) : [],
  })
  return safeHttpUrl(chosen) ?? safeHttpUrl(link.url)
}
