// The link form's values, the client-side checks of the server's rules (decisions §5 and §6),
// and the request bodies built from the values. The limits and rules themselves are the server's
// own (src/core/link-limits.ts, the URL rule of src/core/urls.ts), imported: a check here cannot
// drift from what the server refuses.
import { ALIAS_PATTERN, countryCodeOf, languageCodeOf, MAX_CLICK_LIMIT, MAX_META_DESCRIPTION_LENGTH, MAX_META_TITLE_LENGTH, MAX_PASSWORD_LENGTH, MAX_TARGETS, MAX_VARIANTS, MAX_VARIANT_WEIGHT, MIN_VARIANTS, TARGET_DEVICES, targetDeviceOf, type TargetDevice } from '../../../src/core/link-limits'
import { isHttpUrlInput } from '../../../src/core/urls'
import type { paths } from '../api/schema'
import { parseServerTime, toServerTime } from '../components/format'
import { tagProblems } from '../tags/tag-rules'
import { emptyUtm, UTM_FIELDS, utmBody, utmValueProblem, utmValuesOf, type UtmValues } from './utm'

export type LinkCreateBody = paths['/api/url/add']['post']['requestBody']['content']['application/json']
export type LinkUpdateBody = NonNullable<paths['/api/url/{id}/update']['put']['requestBody']>['content']['application/json']
export type LinkDetails = paths['/api/url/{id}']['get']['responses'][200]['content']['application/json']['details']

export { ALIAS_PATTERN, MAX_CLICK_LIMIT, MAX_META_DESCRIPTION_LENGTH, MAX_META_TITLE_LENGTH, MAX_VARIANTS, MIN_VARIANTS, TARGET_DEVICES, type TargetDevice }

const ALIAS = new RegExp(ALIAS_PATTERN)

export interface LinkFormValues {
  url: string
  custom: string
  /** A branded domain's id, or '' for the main domain. */
  domain: string
  password: string
  /** Edit only: the link has a password and it should be removed. */
  removePassword: boolean
  /** `YYYY-MM-DDTHH:MM` in the browser's time zone (an <input type="datetime-local">), or ''. */
  expiry: string
  /** direct, frame, splash, a splash page id or overlay-<id>. */
  type: string
  pixels: number[]
  campaign: string
  channel: string
  metatitle: string
  metadescription: string
  geotarget: Array<{ location: string; link: string }>
  devicetarget: Array<{ device: TargetDevice | ''; link: string }>
  languagetarget: Array<{ language: string; link: string }>
  /** UTM parameters merged into the destination at every visit; '' for those not set. */
  utm: UtmValues
  /** After this many recorded clicks the link has expired; '' for no limit. */
  clicklimit: string
  /** Where visitors of the expired link go; '' for the expired notice. */
  expiredurl: string
  /** App links: where iOS and Android visitors go before any rule; '' for none. */
  ios: string
  android: string
  /** Where visitors go while the destination is broken (link checker). */
  brokenurl: string
  /** A split test's destinations; none for no test. */
  variants: Array<{ url: string; weight: string }>
  /** The link's tags by name (new names become tags when saved). */
  tags: string[]
  /** Clicks get a click id for leads and sales (issue 39); null on a new link: the workspace's default. */
  trackconversions: boolean | null
}

/** Errors keyed by the field names the server uses (`url`, `geotarget.0.location`). */
export type LinkFormErrors = Record<string, string>

export const emptyLinkForm: LinkFormValues = {
  url: '', custom: '', domain: '', password: '', removePassword: false, expiry: '', type: 'direct', pixels: [],
  campaign: '', channel: '', metatitle: '', metadescription: '', geotarget: [], devicetarget: [], languagetarget: [],
  utm: emptyUtm,
  clicklimit: '',
  expiredurl: '',
  ios: '',
  android: '',
  brokenurl: '',
  variants: [],
  tags: [],
  trackconversions: null,
}

/** decisions §5: an absolute http or https URL with a host, at most 2,048 characters (the server's rule). */
export const isHttpUrl = isHttpUrlInput

function pad(value: number): string {
  return String(value).padStart(2, '0')
}

/** A server date-time (UTC) as the value of a datetime-local input (local time). */
export function toLocalInput(serverTime: string | null): string {
  if (!serverTime) return ''
  const date = parseServerTime(serverTime)
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** A datetime-local value (local time) as the API's UTC date-time. */
export function fromLocalInput(value: string): string {
  return toServerTime(new Date(value))
}

/** `text`, trimmed, is a whole number from 1 to `largest` (written in digits only, as the server's integer). */
function isWholeNumberUpTo(text: string, largest: number): boolean {
  const trimmed = text.trim()
  return /^\d+$/.test(trimmed) && Number(trimmed) >= 1 && Number(trimmed) <= largest
}

function checkTargets<T>(errors: LinkFormErrors, field: string, rows: T[], key: (row: T) => string, checkKey: (value: string) => string | undefined, link: (row: T) => string, what: string): void {
  if (rows.length > MAX_TARGETS) errors[field] = `At most ${MAX_TARGETS} rules.`
  const seen = new Set<string>()
  rows.forEach((row, index) => {
    const value = key(row).trim().toLowerCase()
    const problem = checkKey(key(row).trim())
    if (problem) errors[`${field}.${index}.${what}`] = problem
    else if (seen.has(value)) errors[`${field}.${index}.${what}`] = `This ${what} has a rule already.`
    seen.add(value)
    if (!isHttpUrl(link(row))) errors[`${field}.${index}.link`] = 'Enter an http or https URL.'
  })
}

/**
 * The checks the server makes too, so a person hears of a mistake before sending. `savedAlias`:
 * the edited link's alias, kept as it is whatever its form (an imported `1` or `blog.post`, ADR 028).
 */
export function validateLinkForm(values: LinkFormValues, now = new Date(), savedAlias?: string): LinkFormErrors {
  const errors: LinkFormErrors = {}
  if (!values.url.trim()) errors.url = 'Enter the destination URL.'
  else if (!isHttpUrl(values.url)) errors.url = 'Enter a full http:// or https:// address, like https://example.com/page.'
  if (values.custom && values.custom !== savedAlias && !ALIAS.test(values.custom)) errors.custom = 'Use 3 to 64 letters, digits, _ or -.'
  if (values.password.length > MAX_PASSWORD_LENGTH) errors.password = `Use at most ${MAX_PASSWORD_LENGTH} characters.`
  if (values.expiry) {
    const expiry = new Date(values.expiry)
    if (Number.isNaN(expiry.getTime())) errors.expiry = 'Enter a date and time.'
    else if (expiry.getTime() <= now.getTime()) errors.expiry = 'Choose a moment in the future.'
  }
  if (values.metatitle.length > MAX_META_TITLE_LENGTH) errors.metatitle = `Use at most ${MAX_META_TITLE_LENGTH} characters.`
  if (values.metadescription.length > MAX_META_DESCRIPTION_LENGTH) errors.metadescription = `Use at most ${MAX_META_DESCRIPTION_LENGTH} characters.`
  if (values.clicklimit.trim() && !isWholeNumberUpTo(values.clicklimit, MAX_CLICK_LIMIT)) errors.clicklimit = `Enter a whole number from 1 to ${MAX_CLICK_LIMIT.toLocaleString('en')}.`
  if (values.variants.length > 0 && (values.variants.length < MIN_VARIANTS || values.variants.length > MAX_VARIANTS)) errors.variants = `A split test needs ${MIN_VARIANTS} to ${MAX_VARIANTS} variants.`
  values.variants.forEach((row, index) => {
    if (!isHttpUrl(row.url)) errors[`variants.${index}.url`] = 'Enter an http or https URL.'
    if (!isWholeNumberUpTo(row.weight, MAX_VARIANT_WEIGHT)) errors[`variants.${index}.weight`] = `Enter a whole number from 1 to ${MAX_VARIANT_WEIGHT.toLocaleString('en')}.`
  })
  for (const field of ['expiredurl', 'ios', 'android', 'brokenurl'] as const) {
    if (values[field].trim() && !isHttpUrl(values[field])) errors[field] = 'Enter a full http:// or https:// address.'
  }
  Object.assign(errors, tagProblems(values.tags))
  for (const field of UTM_FIELDS) {
    const problem = utmValueProblem(values.utm[field])
    if (problem) errors[`utm.${field}`] = problem
  }
  checkTargets(errors, 'geotarget', values.geotarget, (row) => row.location, (code) => (countryCodeOf(code) ? undefined : 'Choose a country.'), (row) => row.link, 'location')
  checkTargets(errors, 'devicetarget', values.devicetarget, (row) => row.device, (device) => (targetDeviceOf(device) ? undefined : 'Choose a device.'), (row) => row.link, 'device')
  checkTargets(errors, 'languagetarget', values.languagetarget, (row) => row.language, (code) => (languageCodeOf(code) ? undefined : 'Enter a two-letter language code, like fr.'), (row) => row.link, 'language')
  return errors
}

function targets(values: LinkFormValues) {
  return {
    geotarget: values.geotarget.map((row) => ({ location: row.location.trim().toUpperCase(), link: row.link.trim() })),
    devicetarget: values.devicetarget.map((row) => ({ device: row.device as TargetDevice, link: row.link.trim() })),
    languagetarget: values.languagetarget.map((row) => ({ language: row.language.trim().toLowerCase(), link: row.link.trim() })),
  }
}

/** A branded domain's id as a number; an address (a domain not among the first 100 listed) as it is. */
function domainValue(value: string): string | number {
  return /^\d+$/.test(value) ? Number(value) : value
}

function linkType(value: string): string | number {
  return /^\d+$/.test(value) ? Number(value) : value
}

function variantsBody(values: LinkFormValues) {
  return values.variants.map((row) => ({ url: row.url.trim(), weight: Number(row.weight.trim()) }))
}

/** The body of POST /api/url/add: only what was filled in. */
export function toCreateBody(values: LinkFormValues): LinkCreateBody {
  const body: LinkCreateBody = { url: values.url.trim(), type: linkType(values.type) }
  if (values.custom) body.custom = values.custom
  if (values.domain) body.domain = domainValue(values.domain)
  if (values.password) body.password = values.password
  if (values.expiry) body.expiry = fromLocalInput(values.expiry)
  if (values.pixels.length > 0) body.pixels = values.pixels
  if (values.campaign) body.campaign = Number(values.campaign)
  if (values.channel) body.channel = Number(values.channel)
  if (values.metatitle.trim()) body.metatitle = values.metatitle.trim()
  if (values.metadescription.trim()) body.metadescription = values.metadescription.trim()
  const lists = targets(values)
  if (lists.geotarget.length > 0) body.geotarget = lists.geotarget
  if (lists.devicetarget.length > 0) body.devicetarget = lists.devicetarget
  if (lists.languagetarget.length > 0) body.languagetarget = lists.languagetarget
  const utm = utmBody(values.utm)
  if (utm) body.utm = utm
  if (values.clicklimit.trim()) body.clicklimit = Number(values.clicklimit.trim())
  if (values.expiredurl.trim()) body.expiredurl = values.expiredurl.trim()
  if (values.ios.trim()) body.ios = values.ios.trim()
  if (values.android.trim()) body.android = values.android.trim()
  if (values.brokenurl.trim()) body.brokenurl = values.brokenurl.trim()
  if (values.variants.length > 0) body.variants = variantsBody(values)
  if (values.tags.length > 0) body.tags = values.tags
  if (values.trackconversions !== null) body.trackconversions = values.trackconversions
  return body
}

/**
 * The body of PUT /api/url/{id}/update: every field, emptied ones cleared (`""`); the password
 * only when changed, and the alias only when it differs from `savedAlias` (an imported alias
 * outside the API's rule is kept by leaving it out).
 */
export function toUpdateBody(values: LinkFormValues, savedAlias?: string): LinkUpdateBody {
  const body: LinkUpdateBody = {
    url: values.url.trim(),
    type: linkType(values.type),
    domain: values.domain ? domainValue(values.domain) : '',
    expiry: values.expiry ? fromLocalInput(values.expiry) : '',
    pixels: values.pixels,
    campaign: values.campaign ? Number(values.campaign) : 0,
    metatitle: values.metatitle.trim(),
    metadescription: values.metadescription.trim(),
    ...targets(values),
    // Emptied options are cleared as ADR 013 says: {} for the UTM set, "" for a value, [] for the split test.
    utm: utmBody(values.utm) ?? {},
    clicklimit: values.clicklimit.trim() ? Number(values.clicklimit.trim()) : '',
    expiredurl: values.expiredurl.trim(),
    ios: values.ios.trim(),
    android: values.android.trim(),
    brokenurl: values.brokenurl.trim(),
    variants: values.variants.length > 0 ? variantsBody(values) : [],
    // The list replaces the link's tags; [] removes them.
    tags: values.tags,
  }
  if (values.custom && values.custom !== savedAlias) body.custom = values.custom
  if (values.removePassword) body.password = ''
  else if (values.password) body.password = values.password
  if (values.channel) body.channel = Number(values.channel)
  if (values.trackconversions !== null) body.trackconversions = values.trackconversions
  return body
}

/**
 * The form's values for an existing link; `domainIdOf` finds a branded domain's id from its
 * address (a domain it does not know stays as its address, so saving keeps it).
 */
export function valuesFromDetails(details: LinkDetails, domainIdOf: (origin: string) => number | undefined): LinkFormValues {
  const domainId = details.domain ? domainIdOf(details.domain) : undefined
  return {
    ...emptyLinkForm,
    url: details.longurl,
    custom: details.alias,
    domain: domainId !== undefined ? String(domainId) : (details.domain ?? ''),
    expiry: toLocalInput(details.expiry),
    type: details.type,
    pixels: details.pixels,
    campaign: details.campaign === null ? '' : String(details.campaign),
    metatitle: details.title ?? '',
    metadescription: details.description ?? '',
    geotarget: details.targeting.geo.map((row) => ({ location: row.location, link: row.link })),
    devicetarget: details.targeting.device.map((row) => ({ device: row.device as TargetDevice, link: row.link })),
    languagetarget: details.targeting.language.map((row) => ({ language: row.language, link: row.link })),
    utm: utmValuesOf(details.utm),
    clicklimit: details.clicklimit === null || details.clicklimit === undefined ? '' : String(details.clicklimit),
    expiredurl: details.expiredurl ?? '',
    ios: details.ios ?? '',
    android: details.android ?? '',
    brokenurl: details.brokenurl ?? '',
    variants: (details.variants ?? []).map((variant) => ({ url: variant.url, weight: String(variant.weight) })),
    tags: details.tags ?? [],
    trackconversions: details.trackconversions ?? false,
  }
}
