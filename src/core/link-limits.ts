// The limits and rules of a short link's fields, from one source: the server checks them
// (modules/links/link.schemas.ts and the normalisers beside it) and the dashboard's link builder
// and bulk form check them before anything is sent (web/src/links/link-form.ts imports this
// file), so the two cannot drift. It imports nothing: the dashboard's bundle takes it as it is.

/** The pattern of every alias and rotator slug: 3 to 64 of A-Z, a-z, 0-9, `_` and `-`. */
export const ALIAS_PATTERN = '^[A-Za-z0-9_-]{3,64}$'

/** Longest password of a link. */
export const MAX_PASSWORD_LENGTH = 128

/** Longest social card title (`metatitle`) and description (`metadescription`). */
export const MAX_META_TITLE_LENGTH = 200
export const MAX_META_DESCRIPTION_LENGTH = 500

/** Most rules one targeting list (and the pixels of a link) may hold. */
export const MAX_TARGETS = 50

/**
 * Device names a device rule may use (decisions §6: `devicetarget`); each is one the visitor
 * reading gives (modules/links/link-targeting.ts checks it against analytics/visitor-reading.ts).
 */
export const TARGET_DEVICES = ['iphone', 'ipad', 'android', 'windows', 'macos', 'linux', 'mobile', 'tablet', 'desktop'] as const

export type TargetDevice = (typeof TARGET_DEVICES)[number]

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

/** Most clicks a cap (`clicklimit`) may allow. */
export const MAX_CLICK_LIMIT = 1_000_000_000

/** How many destinations a split test shares visitors among, and the largest weight of one. */
export const MIN_VARIANTS = 2
export const MAX_VARIANTS = 5
export const MAX_VARIANT_WEIGHT = 1_000_000
