// Which destination a visitor of a link gets (decisions §6: geotarget, devicetarget,
// languagetarget; issue 23: the link's options). Precedence: the app link of the visitor's
// platform (iOS, Android), then a matching country rule, then device, then language, then the
// link's own URL (or, in a split test, the visitor's variant); the link's UTM parameters are then merged into whichever was chosen
// (docs/adr/020-link-options.md). The rules and options are read once, when
// the link is loaded into the cache, by the same normalisers the link's write validates with
// (links/link-targeting.ts, links/link-options.ts), so choosing costs a few comparisons per visit,
// and a link without options one field check.
import { deviceNamesOf, preferredLanguagesOf } from '../../analytics/visitor-reading.js'
import { safeHttpUrl } from '../../core/urls.js'
import type { LinkTargeting } from '../links/link-targeting.js'
import { withUtmParameters, type UtmParameters } from '../../core/utm.js'
import { queryOfUrl, withVisitorQuery } from '../../core/query-parameters.js'
import { chooseVariant, type LinkOptions, type Variant } from '../links/link-options.js'
import { memoize } from '../../core/memoize.js'
import { dayOf } from '../../core/time.js'
import type { PublicLink } from './alias-resolver.js'
import { headerText, type VisitRequest } from './visitor.js'

/** What is known about the visitor; each field is only looked up when the link has rules of its kind. */
export interface VisitorProfile {
  /** ISO 3166-1 alpha-2 code from the geo lookup, e.g. `US`. */
  country: string | null
  /** Most specific first, see analytics/visitor-reading.ts deviceNamesOf. */
  devices: readonly string[]
  /** Best first, see analytics/visitor-reading.ts preferredLanguagesOf. */
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
export function destinationOf(request: VisitRequest, link: PublicLink, country: string | null, variant: number | null = null): string | null {
  const { options } = link
  const visitorQuery = link.passthrough && request.url !== undefined ? queryOfUrl(request.url) : ''
  if (options === null) {
    const chosen = targetedDestination(request, link, country, link.url)
    return chosen === null || visitorQuery === '' ? chosen : passedOn(chosen, visitorQuery, null)
  }
  const url = variant !== null && options.variants !== null ? options.variants[variant]?.url ?? link.url : link.url
  const chosen = appDestination(request, options) ?? targetedDestination(request, link, country, url)
  if (chosen === null) return null
  if (visitorQuery !== '') return passedOn(chosen, visitorQuery, options.utm)
  return options.utm === null ? chosen : utmDestination(chosen, options)
}

/**
 * `destination` with the visitor's query merged in, then the link's UTM parameters, which win
 * (ADR 034: the passthrough rule). Not memoised: visitors' queries rarely repeat (click ids of ad
 * networks), and a cache keyed by them would only churn.
 */
function passedOn(destination: string, visitorQuery: string, utm: UtmParameters | null): string {
  const merged = withVisitorQuery(destination, visitorQuery)
  return safeHttpUrl(utm === null ? merged : withUtmParameters(merged, utm)) ?? destination
}

/** The platform app links are chosen by; '' for any other. */
export type AppPlatform = 'ios' | 'android' | ''

/** The visitor's platform for app links (iPhone, iPad and iPod are iOS). */
export function appPlatformOf(userAgent: string | undefined): AppPlatform {
  const names = deviceNamesOf(userAgent)
  return names.includes('ios') ? 'ios' : names.includes('android') ? 'android' : ''
}

// Visitors repeat user agents: each is parsed once while it is common.
const platformOfAgent = memoize((userAgent) => appPlatformOf(userAgent), 2_000)

/** The app link of the visitor's platform, when the link has one. */
function appDestination(request: VisitRequest, options: LinkOptions): string | null {
  if (options.ios === null && options.android === null) return null
  const userAgent = headerText(request.headers['user-agent'])
  if (!userAgent) return null
  const platform = platformOfAgent(userAgent)
  if (platform === 'ios') return safeHttpUrl(options.ios)
  if (platform === 'android') return safeHttpUrl(options.android)
  return null
}

/** The split-test variant of this visitor today: the same all day, on every instance. */
export function variantOf(request: VisitRequest, variants: readonly Variant[], now = new Date()): number {
  // Never stored: no secret salt is needed, and every instance picks alike without sharing one.
  const day = dayOf(now.getTime())
  return chooseVariant(variants, `${day}\n${request.ip}\n${headerText(request.headers['user-agent']) ?? ''}`)
}

function targetedDestination(request: VisitRequest, link: PublicLink, country: string | null, url: string): string | null {
  const { targeting } = link
  if (!hasTargeting(targeting)) return safeHttpUrl(url)
  const chosen = chooseDestination(url, targeting, {
    country,
    devices: targeting.device.length > 0 ? deviceNamesOf(headerText(request.headers['user-agent'])) : [],
    languages: targeting.language.length > 0 ? preferredLanguagesOf(headerText(request.headers['accept-language'])) : [],
  })
  return safeHttpUrl(chosen) ?? safeHttpUrl(url)
}

// A link with UTM parameters sends most visitors to one or a few destinations: each merged once.
// Keyed by the options object (one per cached link) through a WeakMap, then by the destination.
const mergedByOptions = new WeakMap<LinkOptions, (destination: string) => string>()

/** `destination` (an http(s) URL as safeHttpUrl serialises it) with the link's UTM parameters. */
function utmDestination(destination: string, options: LinkOptions): string {
  let merge = mergedByOptions.get(options)
  if (!merge) {
    const utm = options.utm!
    merge = memoize((url) => safeHttpUrl(withUtmParameters(url, utm)) ?? url, 200, 4_096)
    mergedByOptions.set(options, merge)
  }
  return merge(destination)
}
