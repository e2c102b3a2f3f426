// Targeting rules of a short link: other destinations by visitor country, device or language
// (decisions §6). The one shape and the one normaliser of a rule: a link's write validates with
// it (field-named 400s), and the redirect path reads the stored JSON {geo?, device?, language?}
// with it, so every rule a link stores is one a visitor can match, and nothing else is read.
// Values are codes, as the API documents them: English names (`Canada`) are refused on write
// and, should a row hold one, ignored on read.
import { checkHttpUrl } from '../../core/urls.js'
import { ValidationError } from '../../core/errors.js'
import type { DeviceName } from '../../analytics/visitor-reading.js'

/**
 * Device names a device rule may use (decisions §6: `devicetarget`); each is one the visitor
 * parser gives (analytics/visitor-reading.ts `deviceNamesOf`), which `satisfies` checks.
 */
export const TARGET_DEVICES = ['iphone', 'ipad', 'android', 'windows', 'macos', 'linux', 'mobile', 'tablet', 'desktop'] as const satisfies readonly DeviceName[]

export type TargetDevice = (typeof TARGET_DEVICES)[number]

/** What a rule's value must be, in the 400's words: the schema and the normaliser say the same. */
export const COUNTRY_RULE = 'must be a two-letter ISO 3166-1 country code'
export const LANGUAGE_RULE = 'must be a two-letter ISO 639-1 language code'
export const DEVICE_RULE = `must be one of ${TARGET_DEVICES.join(', ')}`

/** Most rules one list may hold. */
export const MAX_TARGETS = 50

// ISO 3166-1 alpha-2, plus XK (Kosovo): user-assigned, but what geo-IP databases answer there.
const COUNTRY_CODES = new Set(
  ('AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
    'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
    'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ ' +
    'UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW').split(' '),
)

// ISO 639-1: the two-letter language codes browsers send first in Accept-Language.
const LANGUAGE_CODES = new Set(
  ('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en ' +
    'eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ' +
    'ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ' +
    'ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st ' +
    'su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '),
)

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

/** The ISO 3166-1 alpha-2 code a rule's `location` stands for (`us` → `US`), or null. */
export function countryCodeOf(location: string): string | null {
  const code = location.trim().toUpperCase()
  return COUNTRY_CODES.has(code) ? code : null
}

/** The ISO 639-1 code a rule's `language` stands for (`FR` → `fr`), or null. */
export function languageCodeOf(language: string): string | null {
  const code = language.trim().toLowerCase()
  return LANGUAGE_CODES.has(code) ? code : null
}

/** The device name a rule's `device` stands for (`iPhone` → `iphone`), or null. */
export function targetDeviceOf(device: string): TargetDevice | null {
  const name = device.trim().toLowerCase()
  return TARGET_DEVICES.find((known) => known === name) ?? null
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
