// What a statistics request may ask of the raw-click query module (issue 24, ADR 022): filters by
// dimension (and, for the workspace, by link, campaign, channel and tag), granularity, time zone and
// comparison, read from the query string and checked here, so that every bad parameter is refused
// with the same words on both databases. Values of one filter are alternatives (any of them);
// filters combine (all of them).
import { ValidationError } from '../../core/errors.js'
import { canonicalTimeZone } from '../../core/time-zones.js'
import { tagKey } from '../tags/tag-names.js'

/** Filters on what a click recorded: items and the workspace alike. */
export const DIMENSION_FILTERS = ['country', 'referrer', 'browser', 'os', 'device', 'language'] as const
/** Filters on which of the workspace's links a click is of: the workspace's statistics only. */
export const LINK_FILTERS = ['link', 'campaign', 'channel', 'tag'] as const
export type DimensionFilter = (typeof DIMENSION_FILTERS)[number]
export type LinkFilter = (typeof LINK_FILTERS)[number]

export const GRANULARITIES = ['hour', 'day', 'week', 'month'] as const
export type Granularity = (typeof GRANULARITIES)[number]
export const COMPARISONS = ['previous'] as const

/** At most this many values in one filter. */
export const MAX_FILTER_VALUES = 20
/** Hourly series for ranges up to this many days. */
export const MAX_HOURLY_DAYS = 31
const MAX_VALUE_LENGTH = 255

/** Filters as the query module applies them: stored values ('' for unknown), ids, tag keys. */
export interface ClickFilters {
  country?: string[]
  referrer?: string[]
  browser?: string[]
  os?: string[]
  device?: string[]
  language?: string[]
  link?: number[]
  campaign?: number[]
  channel?: number[]
  tag?: string[]
}

export type StatisticsLevel = 'item' | 'account'

/** A statistics request's new parameters, read; `plain` when it gives none (the aggregates answer it). */
export interface ClickQueryParameters {
  plain: boolean
  filters: ClickFilters
  /** As given, for the answer to echo (`{country: ['DE', 'FR']}`). */
  givenFilters: Record<string, string[]>
  granularity: Granularity
  /** Canonical IANA name; undefined: the workspace's own. */
  timeZone?: string
  compare: boolean
}

/** Worded like the schema's own query errors (http/error-handler.ts). */
export function queryError(parameter: string, rule: string): ValidationError {
  return new ValidationError(`The query parameter "${parameter}" ${rule}.`, parameter)
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })
let countryCodes: Map<string, string> | undefined

/** `Germany` (as top lists name it) or `de` → `DE`; `Unknown` → ''; undefined for neither. */
function countryCodeOf(value: string): string | undefined {
  if (value.toLowerCase() === 'unknown') return ''
  if (/^[a-z]{2}$/i.test(value)) return value.toUpperCase()
  if (!countryCodes) {
    countryCodes = new Map()
    for (let first = 65; first <= 90; first += 1) {
      for (let second = 65; second <= 90; second += 1) {
        const code = String.fromCharCode(first, second)
        // Deprecated codes (DD, UK) name the region of their successor: keep the canonical one.
        const canonical = Intl.getCanonicalLocales(`und-${code}`)[0]?.slice(4)
        const name = regionNames.of(code)
        if (name && name !== code && canonical === code) countryCodes.set(name.toLowerCase(), code)
      }
    }
  }
  return countryCodes.get(value.toLowerCase())
}

function storedValueOf(filter: DimensionFilter, value: string): string {
  if (filter === 'country') {
    const code = countryCodeOf(value)
    if (code === undefined) throw queryError(filter, `must list country codes or names; "${value}" is neither`)
    return code
  }
  // Top lists show '' as Direct (referrers) or Unknown: the same words filter by it.
  if (filter === 'referrer') return value.toLowerCase() === 'direct' ? '' : value.toLowerCase().replace(/^www\./, '')
  return value.toLowerCase() === 'unknown' ? '' : value
}

/** The comma-separated values of a parameter (repeated parameters count as one list), each once. */
function valuesOf(name: string, given: unknown): string[] {
  const texts = Array.isArray(given) ? given : [given]
  if (!texts.every((text) => typeof text === 'string')) throw queryError(name, 'must be a comma-separated list of values')
  const values = [...new Set((texts as string[]).flatMap((text) => text.split(',')).map((value) => value.trim()))]
  if (values.length === 0 || values.some((value) => value === '')) throw queryError(name, 'must list one or more values separated by commas, none empty')
  if (values.length > MAX_FILTER_VALUES) throw queryError(name, `must list at most ${MAX_FILTER_VALUES} values; it lists ${values.length}`)
  if (values.some((value) => value.length > MAX_VALUE_LENGTH)) throw queryError(name, `must list values of at most ${MAX_VALUE_LENGTH} characters`)
  return values
}

function idsOf(name: string, values: string[]): number[] {
  return values.map((value) => {
    if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) throw queryError(name, `must list ids (positive integers); "${value}" is not one`)
    return Number(value)
  })
}

/**
 * Reads the filters and options of a statistics query; `known` are the parameters the endpoint
 * reads itself (`from`, `to`). Any other parameter is refused naming it.
 */
export function readClickQuery(query: Record<string, unknown>, level: StatisticsLevel, known: readonly string[] = ['from', 'to'], options = true): ClickQueryParameters {
  const filterNames: readonly string[] = level === 'account' ? [...DIMENSION_FILTERS, ...LINK_FILTERS] : DIMENSION_FILTERS
  const optionNames = options ? ['granularity', 'tz', 'compare'] : []
  const filters: ClickFilters = {}
  const givenFilters: Record<string, string[]> = {}
  let plain = true
  for (const [name, given] of Object.entries(query)) {
    if (given === undefined || known.includes(name) || optionNames.includes(name)) continue
    if (!filterNames.includes(name)) {
      const itemOnly = level === 'item' && (LINK_FILTERS as readonly string[]).includes(name) ? ' of an item\'s statistics (only of the workspace\'s)' : ''
      throw queryError(name, `is not a filter${itemOnly}; filters are ${filterNames.join(', ')}`)
    }
    const values = valuesOf(name, given)
    givenFilters[name] = values
    plain = false
    if (name === 'link' || name === 'campaign' || name === 'channel') filters[name] = idsOf(name, values)
    else if (name === 'tag') filters.tag = [...new Set(values.map(tagKey))]
    else filters[name as DimensionFilter] = [...new Set(values.map((value) => storedValueOf(name as DimensionFilter, value)))]
  }
  let granularity: Granularity = 'day'
  let timeZone: string | undefined
  let compare = false
  if (options && query.granularity !== undefined) {
    if (typeof query.granularity !== 'string' || !(GRANULARITIES as readonly string[]).includes(query.granularity)) throw queryError('granularity', `must be one of ${GRANULARITIES.join(', ')}`)
    granularity = query.granularity as Granularity
    plain = false
  }
  if (options && query.tz !== undefined) {
    timeZone = typeof query.tz === 'string' ? canonicalTimeZone(query.tz) : undefined
    if (timeZone === undefined) throw queryError('tz', 'must be an IANA time zone name such as Europe/Berlin or UTC')
    plain = false
  }
  if (options && query.compare !== undefined) {
    if (typeof query.compare !== 'string' || !(COMPARISONS as readonly string[]).includes(query.compare)) throw queryError('compare', `must be ${COMPARISONS.join(' or ')}`)
    compare = true
    plain = false
  }
  return { plain, filters, givenFilters, granularity, timeZone, compare }
}
