// Targeting rules of a short link: other destinations by visitor country, device or language.
// Stored as JSON {geo?, device?, language?} (schema.ts); the redirect path reads the same shape.
import { checkDestination } from './link-input.js'
import { ValidationError } from '../../core/errors.js'

/** Device names a device rule may use (decisions §6: `devicetarget`). */
export const TARGET_DEVICES = ['iphone', 'ipad', 'android', 'windows', 'macos', 'linux', 'mobile', 'tablet', 'desktop'] as const

export type TargetDevice = (typeof TARGET_DEVICES)[number]

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

function assertDistinct(field: string, keys: string[], what: string): void {
  const seen = new Set<string>()
  for (const key of keys) {
    if (seen.has(key)) throw ValidationError.field(field, `lists the ${what} "${key}" twice`)
    seen.add(key)
  }
}

function checkLinks(field: string, entries: { link: string }[]): void {
  entries.forEach((entry, index) => checkDestination(`${field}.${index}.link`, entry.link))
}

/** Validates and normalises the given lists over `stored`; lists not given are kept. */
export function mergeTargeting(stored: LinkTargeting, input: TargetingInput): LinkTargeting {
  const merged: LinkTargeting = { ...stored }
  if (input.geotarget !== undefined) {
    const geo = input.geotarget.map((entry) => ({ location: entry.location.toUpperCase(), link: entry.link.trim() }))
    geo.forEach((entry, index) => {
      if (!COUNTRY_CODES.has(entry.location)) throw ValidationError.field(`geotarget.${index}.location`, 'must be a two-letter ISO 3166-1 country code')
    })
    assertDistinct('geotarget', geo.map((entry) => entry.location), 'location')
    checkLinks('geotarget', geo)
    merged.geo = geo
  }
  if (input.devicetarget !== undefined) {
    const device = input.devicetarget.map((entry) => ({ device: entry.device, link: entry.link.trim() }))
    assertDistinct('devicetarget', device.map((entry) => entry.device), 'device')
    checkLinks('devicetarget', device)
    merged.device = device
  }
  if (input.languagetarget !== undefined) {
    const language = input.languagetarget.map((entry) => ({ language: entry.language.toLowerCase(), link: entry.link.trim() }))
    language.forEach((entry, index) => {
      if (!LANGUAGE_CODES.has(entry.language)) throw ValidationError.field(`languagetarget.${index}.language`, 'must be a two-letter ISO 639-1 language code')
    })
    assertDistinct('languagetarget', language.map((entry) => entry.language), 'language')
    checkLinks('languagetarget', language)
    merged.language = language
  }
  return merged
}

/** No targeting at all. */
export function emptyTargeting(): LinkTargeting {
  return { geo: [], device: [], language: [] }
}

/** Reads the stored JSON; a missing list is an empty one. */
export function parseStoredTargeting(text: string): LinkTargeting {
  const stored = JSON.parse(text) as Partial<LinkTargeting>
  return { geo: stored.geo ?? [], device: stored.device ?? [], language: stored.language ?? [] }
}

/** The stored JSON, leaving out empty lists. */
export function serialiseTargeting(targeting: LinkTargeting): string {
  const stored: Partial<LinkTargeting> = {}
  if (targeting.geo.length > 0) stored.geo = targeting.geo
  if (targeting.device.length > 0) stored.device = targeting.device
  if (targeting.language.length > 0) stored.language = targeting.language
  return JSON.stringify(stored)
}
