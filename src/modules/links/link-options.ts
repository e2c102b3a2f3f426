// Options of a short link beyond its destination and targeting (issue 23, docs/adr/020-link-options.md):
// UTM parameters merged into the destination's query; a click cap and where visitors go once the
// link has expired (by date or by cap); app links, the destinations of iOS and Android visitors;
// split-test variants, destinations shared out by weight. The one shape and the one normaliser: a
// link's write validates with it (field-named 400s), the API's read and the visit path read the
// stored JSON (links.options) with it, so every option a link stores is one a visit can use. The UTM
// names, their longest value and their merge into a destination are core/utm.ts's, the click cap's and
// the split test's bounds core/link-limits.ts's (the builder imports both).
import { createHash } from 'node:crypto'
import { ValidationError } from '../../core/errors.js'
import { MAX_CLICK_LIMIT, MAX_VARIANTS, MAX_VARIANT_WEIGHT, MIN_VARIANTS } from '../../core/link-limits.js'
import { textRuleBroken } from '../../core/text.js'
import { checkHttpUrl, isHttpUrl, MAX_URL_LENGTH } from '../../core/urls.js'
import { MAX_UTM_LENGTH, UTM_FIELDS, type UtmField, type UtmParameters } from '../../core/utm.js'

/** What a UTM value must be, in the 400's words: the schema and the normaliser say the same. */
export const UTM_VALUE_RULE = `must be text of at most ${MAX_UTM_LENGTH} characters`
export const UTM_RULE = `must be an object with only ${UTM_FIELDS.slice(0, -1).join(', ')} or ${UTM_FIELDS.at(-1)}`

export const CLICK_LIMIT_RULE = `must be a whole number from 1 to ${MAX_CLICK_LIMIT}`

export const VARIANTS_RULE = `must be a list of ${MIN_VARIANTS} to ${MAX_VARIANTS} {url, weight} entries`
export const VARIANT_WEIGHT_RULE = `must be a whole number from 1 to ${MAX_VARIANT_WEIGHT}`

/** One destination of a split test and its share (weight over the sum of weights). */
export interface Variant {
  url: string
  weight: number
}

/** A link's options as stored and read; every field null when not set. */
export interface LinkOptions {
  utm: UtmParameters | null
  /** After this many recorded clicks the link has expired. */
  clickLimit: number | null
  /** Where visitors of an expired link (by date or by cap) go instead of the expired page. */
  expiredUrl: string | null
  /** The destination of visitors on iOS (iPhone, iPad): an app's link or its App Store page. */
  ios: string | null
  /** The destination of visitors on Android: an app's link or its Play Store page. */
  android: string | null
  /** A split test: these destinations replace the link's URL, one per visitor and day by weight. */
  variants: Variant[] | null
  /** Where visitors go while the link checker finds the destination broken (ADR 026). */
  brokenUrl: string | null
  /** True: each click gets an id appended to the destination, for leads and sales (ADR 034); null: off. */
  trackConversions: boolean | null
  /** Whether visitors' query strings reach the destination; null: as the workspace says (ADR 034). */
  passthrough: boolean | null
}

/** What a client may send; `undefined` leaves the stored option as it is, null (or `{}`, `""`) removes it. */
export interface LinkOptionsInput {
  utm?: Partial<Record<UtmField, string | null | undefined>> | null
  clicklimit?: number | '' | null
  expiredurl?: string | null
  ios?: string | null
  android?: string | null
  variants?: Array<{ url: string; weight: number }> | null
  brokenurl?: string | null
  trackconversions?: boolean | null
  /** `""` (an update's clear): as the workspace says. */
  passthrough?: boolean | '' | null
}

/** No options at all. */
export function emptyOptions(): LinkOptions {
  return { utm: null, clickLimit: null, expiredUrl: null, ios: null, android: null, variants: null, brokenUrl: null, trackConversions: null, passthrough: null }
}

function isVariantWeight(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_VARIANT_WEIGHT
}

/** A client's split test; null or [] removes it. */
export function normaliseVariants(value: unknown): Variant[] | null {
  if (value === null || value === undefined) return null
  if (!Array.isArray(value)) throw ValidationError.field('variants', VARIANTS_RULE)
  if (value.length === 0) return null
  if (value.length < MIN_VARIANTS || value.length > MAX_VARIANTS) throw ValidationError.field('variants', VARIANTS_RULE)
  return value.map((entry, index) => {
    const { url, weight } = recordOf(entry)
    const checkedUrl = checkHttpUrl(`variants.${index}.url`, typeof url === 'string' ? url : '')
    if (!isVariantWeight(weight)) throw ValidationError.field(`variants.${index}.weight`, VARIANT_WEIGHT_RULE)
    return { url: checkedUrl, weight }
  })
}

/** A stored split test as a write would have accepted it, else null. */
function storedVariants(value: unknown): Variant[] | null {
  try {
    return normaliseVariants(value)
  } catch (error) {
    if (error instanceof ValidationError) return null
    throw error
  }
}

/**
 * The variant a visitor gets: `visitorKey` (the visitor and the day) hashed onto the weights, so
 * the same visitor is shown the same variant all day, on every instance.
 */
export function chooseVariant(variants: readonly Variant[], visitorKey: string): number {
  const total = variants.reduce((sum, variant) => sum + variant.weight, 0)
  let point = createHash('sha256').update(visitorKey).digest().readUInt32BE(0) % total
  for (const [index, variant] of variants.entries()) {
    if (point < variant.weight) return index
    point -= variant.weight
  }
  return variants.length - 1
}

function isClickLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CLICK_LIMIT
}

/** A client's click cap; null removes it. */
function normaliseClickLimit(value: number | '' | null): number | null {
  // Empty (an update's "" that clears it, ADR 013) or null: no limit.
  if (value === null || value === '') return null
  if (!isClickLimit(value)) throw ValidationError.field('clicklimit', CLICK_LIMIT_RULE)
  return value
}

/** A client's address for `field` (`expiredurl`, `ios`, `android`); null or empty text removes it. */
function normaliseUrl(field: string, value: string | null): string | null {
  if (value === null || value.trim() === '') return null
  return checkHttpUrl(field, value)
}

/** A stored address as a write would have accepted it, else null. */
function storedUrl(value: unknown): string | null {
  return typeof value === 'string' && value.length <= MAX_URL_LENGTH && isHttpUrl(value) ? value : null
}

function recordOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/**
 * The UTM parameters a client sent, trimmed, empty ones left out; null when none is left.
 * Throws a ValidationError naming `utm.<name>` (or `utm`) for a value the rule refuses.
 */
export function normaliseUtm(value: unknown, field = 'utm'): UtmParameters | null {
  if (value === null || value === undefined) return null
  if (typeof value !== 'object' || Array.isArray(value)) throw ValidationError.field(field, UTM_RULE)
  const given = value as Record<string, unknown>
  for (const key of Object.keys(given)) {
    if (!(UTM_FIELDS as readonly string[]).includes(key)) throw ValidationError.field(field, UTM_RULE)
  }
  const utm: UtmParameters = {}
  for (const name of UTM_FIELDS) {
    const raw = given[name]
    if (raw === undefined || raw === null) continue
    if (typeof raw !== 'string') throw ValidationError.field(`${field}.${name}`, UTM_VALUE_RULE)
    const text = raw.trim()
    if (text.length > MAX_UTM_LENGTH) throw ValidationError.field(`${field}.${name}`, UTM_VALUE_RULE)
    const broken = textRuleBroken(text, false)
    if (broken) throw ValidationError.field(`${field}.${name}`, broken)
    if (text) utm[name] = text
  }
  return Object.keys(utm).length > 0 ? utm : null
}

/** The stored UTM parameters as a write would have accepted them; anything else left out. */
function storedUtm(value: unknown): UtmParameters | null {
  const given = recordOf(value)
  const utm: UtmParameters = {}
  for (const name of UTM_FIELDS) {
    const raw = given[name]
    if (typeof raw === 'string' && raw.trim() && raw.length <= MAX_UTM_LENGTH && !textRuleBroken(raw, false)) utm[name] = raw.trim()
  }
  return Object.keys(utm).length > 0 ? utm : null
}

/** Validates and normalises the given options over `stored`; options not given are kept. */
export function mergeOptions(stored: LinkOptions, input: LinkOptionsInput): LinkOptions {
  return {
    utm: input.utm === undefined ? stored.utm : normaliseUtm(input.utm),
    clickLimit: input.clicklimit === undefined ? stored.clickLimit : normaliseClickLimit(input.clicklimit),
    expiredUrl: input.expiredurl === undefined ? stored.expiredUrl : normaliseUrl('expiredurl', input.expiredurl),
    ios: input.ios === undefined ? stored.ios : normaliseUrl('ios', input.ios),
    android: input.android === undefined ? stored.android : normaliseUrl('android', input.android),
    variants: input.variants === undefined ? stored.variants : normaliseVariants(input.variants),
    brokenUrl: input.brokenurl === undefined ? stored.brokenUrl : normaliseUrl('brokenurl', input.brokenurl),
    // false is stored as null: "off" is what a link without the option does.
    trackConversions: input.trackconversions === undefined ? stored.trackConversions : input.trackconversions === true ? true : null,
    passthrough: input.passthrough === undefined ? stored.passthrough : typeof input.passthrough === 'boolean' ? input.passthrough : null,
  }
}

/** True when the request sets or removes some option. */
export function givesOptions(input: LinkOptionsInput): boolean {
  return input.utm !== undefined || input.clicklimit !== undefined || input.expiredurl !== undefined || input.ios !== undefined || input.android !== undefined || input.variants !== undefined || input.brokenurl !== undefined || input.trackconversions !== undefined || input.passthrough !== undefined
}

/** True when some option is set. */
export function hasOptions(options: LinkOptions): boolean {
  return options.utm !== null || options.clickLimit !== null || options.expiredUrl !== null || options.ios !== null || options.android !== null || options.variants !== null || options.brokenUrl !== null || options.trackConversions !== null || options.passthrough !== null
}

/**
 * Reads the stored JSON (for the API's answer and the visit path alike): anything malformed is
 * left out rather than failing a redirect or a read.
 */
export function parseStoredOptions(text: string): LinkOptions {
  let stored: Record<string, unknown>
  try {
    stored = recordOf(JSON.parse(text))
  } catch {
    return emptyOptions()
  }
  return {
    utm: storedUtm(stored.utm),
    clickLimit: isClickLimit(stored.clicklimit) ? stored.clicklimit : null,
    expiredUrl: storedUrl(stored.expiredurl),
    ios: storedUrl(stored.ios),
    android: storedUrl(stored.android),
    variants: storedVariants(stored.variants),
    brokenUrl: storedUrl(stored.brokenurl),
    trackConversions: stored.trackconversions === true ? true : null,
    passthrough: typeof stored.passthrough === 'boolean' ? stored.passthrough : null,
  }
}

/** The stored JSON, leaving out what is not set (`{}` for none). */
export function serialiseOptions(options: LinkOptions): string {
  const stored: Record<string, unknown> = {}
  if (options.utm) stored.utm = options.utm
  if (options.clickLimit !== null) stored.clicklimit = options.clickLimit
  if (options.expiredUrl !== null) stored.expiredurl = options.expiredUrl
  if (options.ios !== null) stored.ios = options.ios
  if (options.android !== null) stored.android = options.android
  if (options.variants !== null) stored.variants = options.variants
  if (options.brokenUrl !== null) stored.brokenurl = options.brokenUrl
  if (options.trackConversions !== null) stored.trackconversions = options.trackConversions
  if (options.passthrough !== null) stored.passthrough = options.passthrough
  return JSON.stringify(stored)
}

/** The stored UTM JSON of a template (always at least one parameter). */
export function serialiseUtm(utm: UtmParameters): string {
  return JSON.stringify(utm)
}

/** A template's stored UTM JSON; `{}` when it holds nothing usable. */
export function parseStoredUtm(text: string): UtmParameters {
  try {
    return storedUtm(JSON.parse(text)) ?? {}
  } catch {
    return {}
  }
}
