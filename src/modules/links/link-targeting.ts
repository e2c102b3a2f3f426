// Targeting rules of a short link: other destinations by visitor country, device or language
// (decisions §6). The one shape and the one normaliser of a rule: a link's write validates with
// it (field-named 400s), and the redirect path reads the stored JSON {geo?, device?, language?}
// with it, so every rule a link stores is one a visitor can match, and nothing else is read.
// Values are codes, as the API documents them: English names (`Canada`) are refused on write
// and, should a row hold one, ignored on read.
import { checkHttpUrl } from '../../core/urls.js'
import { ValidationError } from '../../core/errors.js'
import type { DeviceName } from '../../analytics/visitor-reading.js'
import { countryCodeOf, languageCodeOf, TARGET_DEVICES, targetDeviceOf, type TargetDevice } from '../../core/link-limits.js'

// Device names, country and language codes, and the most rules a list may hold are the link's
// limits shared with the dashboard (core/link-limits.ts); each device name must be one the
// visitor reading gives (analytics/visitor-reading.ts `deviceNamesOf`), which `satisfies` checks here.
TARGET_DEVICES satisfies readonly DeviceName[]

/** What a rule's value must be, in the 400's words: the schema and the normaliser say the same. */
export const COUNTRY_RULE = 'must be a two-letter ISO 3166-1 country code'
export const LANGUAGE_RULE = 'must be a two-letter ISO 639-1 language code'
export const DEVICE_RULE = `must be one of ${TARGET_DEVICES.join(', ')}`

export interface GeoTarget {
  /** Upper-case ISO 3166-1 alpha-2 code, e.g. `US`. */
  location: string
  link: string
}

export interface DeviceTarget {
  device: TargetDevice
  link: string
}

export interface LanguageTarget {
  /** Lower-case ISO 639-1 code, e.g. `fr`. */
  language: string
  link: string
}

export interface LinkTargeting {
  geo: GeoTarget[]
  device: DeviceTarget[]
  language: LanguageTarget[]
}

/** What a client may send for each list; `undefined` leaves the stored list as it is. */
export interface TargetingInput {
  geotarget?: { location: string; link: string }[]
  devicetarget?: { device: TargetDevice; link: string }[]
  languagetarget?: { language: string; link: string }[]
}

/** One list of rules: its API field, its stored key, and how one of its rules is normalised. */
interface RuleList<Rule> {
  field: 'geotarget' | 'devicetarget' | 'languagetarget'
  what: string
  keyOf: (rule: Rule) => string
  /** The normalised rule; throws a ValidationError naming `${prefix}.location` (…) or `${prefix}.link`. */
  normalise: (entry: unknown, prefix: string) => Rule
}

function recordOf(entry: unknown): Record<string, unknown> {
  return entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>) : {}
}

/** A rule's value normalised by `codeOf`; a ValidationError naming `field` when it is no code. */
function codeOrThrow<Code>(field: string, value: unknown, codeOf: (text: string) => Code | null, rule: string): Code {
  const code = typeof value === 'string' ? codeOf(value) : null
  if (code === null) throw ValidationError.field(field, rule)
  return code
}

function linkOrThrow(field: string, value: unknown): string {
  return checkHttpUrl(field, typeof value === 'string' ? value : '')
}

const GEO: RuleList<GeoTarget> = {
  field: 'geotarget',
  what: 'location',
  keyOf: (rule) => rule.location,
  normalise(entry, prefix) {
    const { location, link } = recordOf(entry)
    return {
      location: codeOrThrow(`${prefix}.location`, location, countryCodeOf, COUNTRY_RULE),
      link: linkOrThrow(`${prefix}.link`, link),
    }
  },
}

const DEVICE: RuleList<DeviceTarget> = {
  field: 'devicetarget',
  what: 'device',
  keyOf: (rule) => rule.device,
  normalise(entry, prefix) {
    const { device, link } = recordOf(entry)
    return {
      device: codeOrThrow(`${prefix}.device`, device, targetDeviceOf, DEVICE_RULE),
      link: linkOrThrow(`${prefix}.link`, link),
    }
  },
}

const LANGUAGE: RuleList<LanguageTarget> = {
  field: 'languagetarget',
  what: 'language',
  keyOf: (rule) => rule.language,
  normalise(entry, prefix) {
    const { language, link } = recordOf(entry)
    return {
      language: codeOrThrow(`${prefix}.language`, language, languageCodeOf, LANGUAGE_RULE),
      link: linkOrThrow(`${prefix}.link`, link),
    }
  },
}

/** A client's list, normalised; the first invalid rule or a repeated key is a ValidationError. */
function validatedList<Rule>(list: RuleList<Rule>, entries: readonly unknown[]): Rule[] {
  const rules = entries.map((entry, index) => list.normalise(entry, `${list.field}.${index}`))
  const seen = new Set<string>()
  for (const key of rules.map(list.keyOf)) {
    if (seen.has(key)) throw ValidationError.field(list.field, `lists the ${list.what} "${key}" twice`)
    seen.add(key)
  }
  return rules
}

/**
 * A stored list as the link's write would have accepted it. Rules it would refuse (a row written
 * by hand or by an older version) are left out, and so is a repeated key: the first rule wins,
 * as it would in the redirect.
 */
function storedList<Rule>(list: RuleList<Rule>, value: unknown): Rule[] {
  if (!Array.isArray(value)) return []
  const rules: Rule[] = []
  const seen = new Set<string>()
  for (const entry of value) {
    let rule: Rule
    try {
      rule = list.normalise(entry, list.field)
    } catch (error) {
      if (error instanceof ValidationError) continue
      throw error
    }
    const key = list.keyOf(rule)
    if (seen.has(key)) continue
    seen.add(key)
    rules.push(rule)
  }
  return rules
}

/** Validates and normalises the given lists over `stored`; lists not given are kept. */
export function mergeTargeting(stored: LinkTargeting, input: TargetingInput): LinkTargeting {
  return {
    geo: input.geotarget === undefined ? stored.geo : validatedList(GEO, input.geotarget),
    device: input.devicetarget === undefined ? stored.device : validatedList(DEVICE, input.devicetarget),
    language: input.languagetarget === undefined ? stored.language : validatedList(LANGUAGE, input.languagetarget),
  }
}

/** No targeting at all. */
export function emptyTargeting(): LinkTargeting {
  return { geo: [], device: [], language: [] }
}

/**
 * Reads the stored JSON (for the API's answer and for the redirect path alike): a missing list is
 * an empty one, and anything malformed is left out rather than failing a redirect or a read.
 */
export function parseStoredTargeting(text: string): LinkTargeting {
  let stored: Record<string, unknown>
  try {
    stored = recordOf(JSON.parse(text))
  } catch {
    return emptyTargeting()
  }
  return { geo: storedList(GEO, stored.geo), device: storedList(DEVICE, stored.device), language: storedList(LANGUAGE, stored.language) }
}

/** The stored JSON, leaving out empty lists. */
export function serialiseTargeting(targeting: LinkTargeting): string {
  const stored: Partial<LinkTargeting> = {}
  if (targeting.geo.length > 0) stored.geo = targeting.geo
  if (targeting.device.length > 0) stored.device = targeting.device
  if (targeting.language.length > 0) stored.language = targeting.language
  return JSON.stringify(stored)
}
