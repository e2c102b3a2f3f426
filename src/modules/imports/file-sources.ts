// The file sources of imports (issue 21): a CSV with a header, the CSV a Bitly account exports,
// and Linkwell's own links export (`linkwell`: every option it writes is read back, and its `id`
// is the key its clicks export names the link by). Read with csv-parse a slice at a time
// (csv-records.ts: RFC 4180, quotes, BOM; the event loop turns between slices); a line it cannot
// read (a broken quote) or a row whose values are wrong (a bad date, no destination) is reported
// with its line number and reason, and the rest is read on. The header is checked before the rest
// is read, and a file of more rows than the cap is refused as soon as its reading passes it.
import { FILE_START, readCsvEntries, slicesOf, type CsvEntry, type FilePlace } from './csv-records.js'
import type { LinkCreateInput } from '../links/link.schemas.js'
import { nowTimestamp, toStoredTimestamp } from '../../core/time.js'
import { ValidationError } from '../../core/errors.js'
import { Type } from 'typebox'
import { Value } from 'typebox/value'
import { LinkCreateBody } from '../links/link.schemas.js'
import { restoreNeutralisedCell } from '../../core/csv.js'

/** The fields a CSV column may be mapped to (by its header's name, or by `--map`). */
export const CSV_FIELDS = ['url', 'alias', 'title', 'domain', 'created', 'tags', 'campaign', 'channel', 'expiry', 'password'] as const
export type CsvField = (typeof CSV_FIELDS)[number]

/** One row of a source, ready for the link batch, or what was wrong with it. */
export interface SourceRow {
  /** The file's line the row starts on (the header is line 1). */
  line: number
  /** The row's identity in its source: its alias, or its line when it has none. */
  key: string
  input?: LinkCreateInput
  createdAt?: string
  /** Campaign and channel as the file names them (an id, or a name looked up in the account). */
  campaign?: string
  channel?: string
  problem?: string
}

// Header names (folded: lower case, no spaces, dashes or underscores) each field is found under.
// Linkwell's own export (modules/exports) is one of them: its `longurl`, `date`, `campaignname`.
const CSV_HEADERS: Record<CsvField, string[]> = {
  url: ['url', 'longurl', 'destination', 'target'],
  alias: ['alias', 'custom', 'keyword', 'slug', 'backhalf', 'shortcode'],
  title: ['title', 'metatitle'],
  domain: ['domain'],
  created: ['created', 'createdat', 'date', 'datecreated'],
  tags: ['tags'],
  campaign: ['campaignname', 'campaign'],
  channel: ['channel'],
  expiry: ['expiry', 'expires', 'expiresat'],
  password: ['password'],
}

// The columns of a Bitly account's link export, as Bitly's v4 API names a Bitlink's fields
// (https://dev.bitly.com/api-reference, Bitlink: `id` "bit.ly/abc", `link`, `long_url`, `title`,
// `created_at`, `tags`; the dashboard's CSV export of links (`links_list`) carries the same
// metadata with headers such as "Bitlink", "Long URL", "Title", "Date Created", "Tags", "Total
// Clicks"). The back-half of the Bitlink becomes the alias; click totals carry no date or visitor
// fields and are not turned into clicks (ADR 021).
const BITLY_HEADERS: Record<CsvField, string[]> = {
  url: ['longurl', 'destinationurl', 'url'],
  alias: ['bitlink', 'link', 'shortlink', 'shorturl', 'id', 'custombitlink', 'custombitlinks', 'backhalf'],
  title: ['title'],
  domain: [],
  created: ['createdat', 'datecreated', 'created', 'date'],
  tags: ['tags'],
  campaign: [],
  channel: [],
  expiry: [],
  password: [],
}

/** A branded domain as sources keep it (a host name) as Linkwell names one: its origin (the account's domain of that host). */
export function domainOrigin(host: string): string {
  return /^https?:\/\//i.test(host) ? host : `https://${host}`
}

const fold = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, '')

/** `--map "Long URL=url,Back-half=alias"`: header → field; refuses a field that does not exist. */
export function parseColumnMap(text: string | undefined): Record<string, CsvField> {
  const map: Record<string, CsvField> = {}
  if (!text?.trim()) return map
  for (const pair of text.split(',')) {
    const at = pair.lastIndexOf('=')
    const header = pair.slice(0, at).trim()
    const field = pair.slice(at + 1).trim().toLowerCase()
    if (at <= 0 || !header || !(CSV_FIELDS as readonly string[]).includes(field)) {
      throw ValidationError.field('map', `must be header=field pairs separated by commas, the fields among ${CSV_FIELDS.join(', ')}`)
    }
    map[fold(header)] = field as CsvField
  }
  return map
}

/** A creation date as sources write it: `YYYY-MM-DD[ HH:MM:SS]` (UTC), ISO 8601 with a zone, or Unix seconds. */
export function readSourceDate(text: string): string | undefined {
  const trimmed = text.trim()
  if (/^\d{9,10}$/.test(trimmed)) return nowTimestamp(new Date(Number(trimmed) * 1000))
  const stored = toStoredTimestamp(trimmed)
  if (stored) return stored
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(trimmed)) {
    const time = Date.parse(trimmed.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
    if (!Number.isNaN(time)) return nowTimestamp(new Date(time))
  }
  return undefined
}

/** The back-half of a short link as Bitly writes it (`bit.ly/abc`, `https://bit.ly/abc`), or the text itself. */
function backHalfOf(text: string): string {
  const trimmed = text.trim().replace(/^https?:\/\//i, '')
  const slash = trimmed.indexOf('/')
  return slash === -1 ? trimmed : trimmed.slice(slash + 1).replace(/\/$/, '')
}

/**
 * A `tags` cell: a JSON list (`["spring","print"]`, as Linkwell's export writes it), or names
 * separated by `|` (`spring|print`), or, when there is no `|`, by commas (`"spring, print"`).
 */
export function readTagList(text: string): string[] | undefined {
  if (text.startsWith('[')) {
    try {
      const list: unknown = JSON.parse(text)
      if (Array.isArray(list) && list.every((name) => typeof name === 'string')) return list.map((name: string) => name.trim()).filter(Boolean)
    } catch {
      // Read as names below.
    }
    return undefined
  }
  return text.split(text.includes('|') ? '|' : ',').map((name) => name.trim()).filter(Boolean)
}

// Linkwell's links export (modules/exports LINK_EXPORT_COLUMNS): the option columns written as
// JSON text, read back into the fields `POST /api/url/add` takes (checked as it checks them).
const LINKWELL_OPTION_COLUMNS = ['utm', 'clicklimit', 'expiredurl', 'ios', 'android', 'variants', 'brokenurl', 'trackconversions', 'passthrough'] as const
const LinkwellOptions = Type.Pick(LinkCreateBody, ['metadescription', 'utm', 'clicklimit', 'expiredurl', 'ios', 'android', 'variants', 'brokenurl', 'trackconversions', 'passthrough', 'geotarget', 'devicetarget', 'languagetarget'])

/** The options of a row of Linkwell's export, or the reason they cannot be read. */
function linkwellOptions(record: Record<string, string>): Partial<LinkCreateInput> | string {
  const options: Record<string, unknown> = {}
  if (record.description) options.metadescription = record.description
  try {
    for (const column of LINKWELL_OPTION_COLUMNS) {
      const text = record[column]
      if (text) options[column] = column === 'expiredurl' || column === 'ios' || column === 'android' || column === 'brokenurl' ? text : JSON.parse(text)
    }
    if (record.targeting) {
      const targeting = JSON.parse(record.targeting) as { geo?: unknown[]; device?: unknown[]; language?: unknown[] }
      if (targeting.geo?.length) options.geotarget = targeting.geo
      if (targeting.device?.length) options.devicetarget = targeting.device
      if (targeting.language?.length) options.languagetarget = targeting.language
    }
  } catch {
    return 'A JSON column of the export could not be read.'
  }
  if (Array.isArray(options.variants)) options.variants = (options.variants as { url: string; weight: number }[]).map(({ url, weight }) => ({ url, weight }))
  if (!Value.Check(LinkwellOptions, options)) return `The options of the link could not be read (${[...Value.Errors(LinkwellOptions, options)].map((error) => error.instancePath || 'options').slice(0, 3).join(', ')}).`
  return options as Partial<LinkCreateInput>
}

export type FileSource = 'csv' | 'bitly' | 'linkwell'

/** A file's row and the place after it (its job's cursor once the row is written). */
export type FileRow = SourceRow & { after?: FilePlace }

/** How a file's columns are read: the field each is mapped to, and the header's names. */
interface FileColumns {
  source: FileSource
  header: string[]
  columnOf: Map<CsvField, number>
}

/** The columns of a file by its header, or a refusal naming what is missing (before the rest is read). */
function columnsOf(source: FileSource, header: string[], map: Record<string, CsvField>): FileColumns {
  // Linkwell's export names the campaign by id too, but ids are another instance's: by name only.
  const headers = source === 'bitly' ? BITLY_HEADERS : source === 'linkwell' ? { ...CSV_HEADERS, campaign: ['campaignname'] } : CSV_HEADERS
  const columnOf = new Map<CsvField, number>()
  header.forEach((name, index) => {
    const folded = fold(name)
    const field = map[folded] ?? CSV_FIELDS.find((candidate) => headers[candidate].includes(folded))
    if (field && !columnOf.has(field)) columnOf.set(field, index)
  })
  if (!columnOf.has('url')) throw ValidationError.field('file', `must have a destination column (${headers.url.join(', ')}), or name one with map`)
  return { source, header, columnOf }
}

const noHeader = () => ValidationError.field('file', 'must be a CSV file with a header line')

/** A file of more rows than `maxRows` (IMPORT_MAX_ROWS): refused naming the cap. */
export function tooManyRows(maxRows: number): ValidationError {
  return ValidationError.field('file', `has more than ${maxRows.toLocaleString('en-US')} rows, the most an import takes (IMPORT_MAX_ROWS): split it into smaller files`)
}

/**
 * Checks a file before it becomes a job: a header with a destination column (refused at once, the
 * rest unread), at most `maxRows` rows (refused as soon as the count passes it). Answers the rows
 * counted, lines that cannot be read among them.
 */
export async function checkFileRows(source: FileSource, slices: Iterable<Buffer> | AsyncIterable<Buffer>, options: { map?: string; maxRows: number }): Promise<number> {
  const map = parseColumnMap(options.map)
  let header = false
  let rows = 0
  for await (const entries of readCsvEntries(slices)) {
    for (const entry of entries) {
      if (!header && entry.values) {
        columnsOf(source, entry.values, map)
        header = true
      } else if ((rows += 1) > options.maxRows) throw tooManyRows(options.maxRows)
    }
  }
  if (!header) throw noHeader()
  return rows
}

/** The file's header (its first record that can be read), read from the start. */
async function headerOf(content: string): Promise<string[]> {
  for await (const entries of readCsvEntries(slicesOf(content))) {
    const first = entries.find((entry) => entry.values)
    if (first) return first.values!
  }
  throw noHeader()
}

/**
 * The rows of a CSV (`csv`), a Bitly export (`bitly`) or Linkwell's links export (`linkwell`), a
 * slice's worth at a time, each with its line and the place after it; lines that cannot be read are
 * rows with a problem. From `from` on (a resumed job's cursor): only the header is read before it.
 */
export async function* readFileRows(source: FileSource, content: string, options: { map?: string; from?: FilePlace } = {}): AsyncGenerator<FileRow[]> {
  const map = parseColumnMap(options.map)
  const from = options.from ?? FILE_START
  let columns = from.byte > 0 ? columnsOf(source, await headerOf(content), map) : undefined
  for await (const entries of readCsvEntries(slicesOf(content, from.byte), from)) {
    const rows: FileRow[] = []
    for (const entry of entries) {
      if (entry.problem !== undefined) rows.push({ line: entry.line, key: `line ${entry.line}`, problem: entry.problem })
      else if (columns) rows.push(rowOf(columns, entry))
      else columns = columnsOf(source, entry.values, map)
    }
    if (rows.length > 0) yield rows
  }
  if (!columns) throw noHeader()
}

/** One record of a file as a row for the link batch, or what is wrong with it. */
function rowOf({ source, header, columnOf }: FileColumns, { line, values: cells, after }: Extract<CsvEntry, { values: string[] }>): FileRow {
  // Linkwell's own export neutralised cells a spreadsheet would run (core/csv.ts): read back as they were.
  const values = source === 'linkwell' ? cells.map(restoreNeutralisedCell) : cells
  const value = (field: CsvField) => {
    const index = columnOf.get(field)
    const text = index === undefined ? undefined : values[index]?.trim()
    return text ? text : undefined
  }
  const aliasText = value('alias')
  const alias = aliasText === undefined ? undefined : source === 'bitly' ? backHalfOf(aliasText) : aliasText
  const exportedId = source === 'linkwell' ? values[header.findIndex((name) => fold(name) === 'id')]?.trim() : undefined
  const row: FileRow = { line, after, key: exportedId || (alias ? `${value('domain') ?? ''}/${alias}` : `line ${line}`) }
  const url = value('url')
  if (!url) return { ...row, problem: 'No destination URL.' }
  const createdText = value('created')
  const createdAt = createdText === undefined ? undefined : readSourceDate(createdText)
  if (createdText !== undefined && !createdAt) return { ...row, problem: `The date "${createdText.slice(0, 40)}" is no date: write YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601.` }
  const expiryText = value('expiry')
  const expiry = expiryText === undefined ? undefined : readSourceDate(expiryText)
  if (expiryText !== undefined && !expiry) return { ...row, problem: `The expiry "${expiryText.slice(0, 40)}" is no date: write YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601.` }
  const password = value('password')
  const tagsText = value('tags')
  const tags = tagsText === undefined ? undefined : readTagList(tagsText)
  if (tagsText !== undefined && !tags) return { ...row, problem: 'The tags could not be read: write them as a|b|c, "a, b, c" or a JSON list.' }
  let options: Partial<LinkCreateInput> = {}
  if (source === 'linkwell') {
    const read = linkwellOptions(Object.fromEntries(header.map((name, index) => [fold(name), values[index]?.trim() ?? ''])))
    if (typeof read === 'string') return { ...row, problem: read }
    options = read
  }
  const input: LinkCreateInput = {
    url,
    ...(alias ? { custom: alias } : {}),
    ...(value('title') ? { metatitle: value('title')!.slice(0, 200) } : {}),
    ...(value('domain') ? { domain: domainOrigin(value('domain')!) } : {}),
    ...(expiry ? { expiry } : {}),
    ...(tags && tags.length > 0 ? { tags } : {}),
    ...options,
    // Linkwell's own export says only whether a password is set (true/false): nothing to restore.
    ...(password && password !== 'true' && password !== 'false' ? { password } : {}),
  }
  return { ...row, input, createdAt, campaign: value('campaign'), channel: value('channel') }
}
