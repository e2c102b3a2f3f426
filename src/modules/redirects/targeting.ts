// Which destination a visitor of a targeted link gets (decisions §6: geotarget, devicetarget,
// languagetarget). Precedence: a matching country rule, then device, then language, then the
// link's own URL. Rules are normalised once, when the link is loaded into the cache, so choosing
// costs a few comparisons per visit.

/** A link's targeting rules, normalised: countries as ISO codes, devices and languages as lower-case names. */
export interface LinkTargeting {
  geo: { country: string; link: string }[]
  device: { device: string; link: string }[]
  language: { language: string; link: string }[]
}

/** What is known about the visitor; `country` is only looked up when the link has geo rules. */
export interface VisitorProfile {
  country: string | null
  /** Most specific first, see deviceNamesOf. */
  devices: readonly string[]
  /** Best first, two-letter codes, see preferredLanguagesOf. */
  languages: readonly string[]
}

export const NO_TARGETING: LinkTargeting = Object.freeze({ geo: [], device: [], language: [] }) as LinkTargeting

// Names users type for devices, mapped to the names deviceNamesOf gives.
const DEVICE_SYNONYMS: Record<string, string> = {
  mac: 'macos', macintosh: 'macos', osx: 'macos', macosx: 'macos', iphones: 'iphone', ipads: 'ipad',
  phone: 'mobile', smartphone: 'mobile', mobiles: 'mobile', tablets: 'tablet', computer: 'desktop',
  pc: 'desktop', desktops: 'desktop', chromebook: 'chromeos', chromiumos: 'chromeos',
}

const COUNTRY_SYNONYMS: Record<string, string> = { usa: 'US', uk: 'GB', 'united states of america': 'US', 'great britain': 'GB' }

let countryCodesByName: Map<string, string> | undefined
let languageCodesByName: Map<string, string> | undefined

/** The current code for a possibly deprecated one (`UK` → `GB`, `iw` → `he`), or null when not a code. */
function canonicalCode(type: 'region' | 'language', code: string): string | null {
  try {
    const locale = Intl.getCanonicalLocales(type === 'region' ? `und-${code}` : code)[0] ?? ''
    return type === 'region' ? (locale.split('-')[1] ?? null) : (locale.split('-')[0] ?? null)
  } catch {
    return null
  }
}

/** English names of every current code Intl knows, lower-cased, to the code (built once, on first need). */
function codesByEnglishName(type: 'region' | 'language'): Map<string, string> {
  const names = new Intl.DisplayNames(['en'], { type })
  const byName = new Map<string, string>()
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  for (const first of letters) {
    for (const second of letters) {
      const code = type === 'region' ? `${first}${second}`.toUpperCase() : `${first}${second}`
      // Deprecated codes share their successor's name; only the current code may claim it.
      if (code === 'ZZ' || canonicalCode(type, code) !== code) continue
      const name = names.of(code)
      if (name && name !== code) byName.set(name.toLowerCase(), code)
    }
  }
  return byName
}

/** ISO 3166-1 alpha-2 code of a rule's `location`: a code (`us`) or an English name (`United States`). */
export function countryCodeOf(location: string): string | null {
  const text = location.trim().toLowerCase()
  if (/^[a-z]{2}$/.test(text)) return canonicalCode('region', text.toUpperCase()) ?? text.toUpperCase()
  if (COUNTRY_SYNONYMS[text]) return COUNTRY_SYNONYMS[text]
  countryCodesByName ??= codesByEnglishName('region')
  return countryCodesByName.get(text) ?? null
}

/** Two-letter code of a rule's `language`: a tag (`fr`, `fr-CA`) or an English name (`French`). */
export function languageCodeOf(language: string): string | null {
  const text = language.trim().toLowerCase()
  if (/^[a-z]{2,3}(?:[-_][a-z0-9]{1,8})*$/.test(text)) {
    const primary = text.slice(0, 2)
    return canonicalCode('language', primary) ?? primary
  }
  languageCodesByName ??= codesByEnglishName('language')
  return languageCodesByName.get(text) ?? null
}

/** A rule's `device` in the form deviceNamesOf gives: `iPhone` → `iphone`, `Mac OS` → `macos`. */
export function deviceNameOf(device: string): string {
  const compact = device.toLowerCase().replace(/[^a-z0-9]/g, '')
  return DEVICE_SYNONYMS[compact] ?? compact
}

function rulesOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((rule): rule is Record<string, unknown> => rule !== null && typeof rule === 'object') : []
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

/** Reads the stored `targeting` JSON; anything malformed is left out rather than failing the redirect. */
export function parseTargeting(text: string): LinkTargeting {
  let stored: Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return NO_TARGETING
    stored = parsed as Record<string, unknown>
  } catch {
    return NO_TARGETING
  }
  const targeting: LinkTargeting = { geo: [], device: [], language: [] }
  for (const rule of rulesOf(stored.geo)) {
    const location = textOf(rule.location)
    const link = textOf(rule.link)
    const country = location === null ? null : countryCodeOf(location)
    if (country && link) targeting.geo.push({ country, link })
  }
  for (const rule of rulesOf(stored.device)) {
    const device = textOf(rule.device)
    const link = textOf(rule.link)
    if (device && link) targeting.device.push({ device: deviceNameOf(device), link })
  }
  for (const rule of rulesOf(stored.language)) {
    const given = textOf(rule.language)
    const language = given === null ? null : languageCodeOf(given)
    const link = textOf(rule.link)
    if (language && link) targeting.language.push({ language, link })
  }
  return targeting
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
    const byCountry = targeting.geo.find((rule) => rule.country === visitor.country)
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
