// Linkwell's own export as an import's source (issue 21, the round trip): the links export
// (`GET /api/export/links?format=csv`, read as a file source: file-sources.ts `linkwell`) and the
// clicks export (`GET /api/export/clicks?format=csv|ndjson`, modules/exports CLICK_EXPORT_COLUMNS),
// read a line at a time from a stream so a file of millions of clicks keeps memory flat. A click
// names its link by the exporting instance's id (`itemid`), the key the links' rows carry.
import { parse } from 'csv-parse/sync'
import { restoreNeutralisedCell } from '../../core/csv.js'
import { sourceTimestamp } from '../../db/sql-source.js'
import { countryCodeOf, type SourceClick, type SourceReader, type UnreadableClick } from './source-reader.js'

interface ExportedClick {
  date?: unknown
  item?: unknown
  itemid?: unknown
  country?: unknown
  referrer?: unknown
  browser?: unknown
  os?: unknown
  device?: unknown
  language?: unknown
  unique?: unknown
}

const text = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value))

/** The click of a record; null for a click of a bio page or QR code (no link to land on); the reason when it cannot be read. */
function toSourceClick(record: ExportedClick): SourceClick | null | string {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'It is not a click record.'
  const createdAt = sourceTimestamp(text(record.date))
  if (!createdAt) return `The date "${text(record.date).slice(0, 40)}" is no date.`
  // Clicks of bio pages and QR codes have no link to land on.
  if (text(record.item) !== 'link') return null
  if (!/^\d+$/.test(text(record.itemid))) return `The link id "${text(record.itemid).slice(0, 40)}" is no id.`
  return {
    linkKey: text(record.itemid),
    createdAt,
    referrerHost: text(record.referrer).slice(0, 255) || null,
    country: countryCodeOf(text(record.country)),
    agent: { browser: text(record.browser).slice(0, 64), os: text(record.os).slice(0, 64), device: text(record.device).slice(0, 64) },
    language: text(record.language).slice(0, 16) || null,
    isUnique: record.unique === true || record.unique === 'true',
  }
}

/**
 * The clicks of an export, its data lines counted from 1 (the cursor): CSV with its header, or
 * NDJSON (told by the first line). `open` opens the file anew (a resumed job skips to its cursor).
 * A line that cannot be read (broken CSV or JSON, no date, no link id) is answered with its line in
 * the file and the reason, for the job's report; clicks of bio pages and QR codes are passed over.
 */
export function createExportedClicksReader(open: () => AsyncIterable<string>): Pick<SourceReader, 'clicks'> {
  let lines: AsyncIterator<string> | undefined
  let position = 0
  let columns: string[] | undefined
  let ndjson = false
  let pending: string | undefined
  /** The file's line last read, counted from 1 (blank lines too). */
  let lineNumber = 0
  /** Why the last line could not be read. */
  let failure = ''

  async function nextLine(): Promise<string | undefined> {
    for (;;) {
      const next = await lines!.next()
      if (next.done) return undefined
      lineNumber += 1
      if (next.value.trim()) return next.value
    }
  }

  /** The next data line's record (undefined at the end; null for a line that cannot be read, with `failure` saying why). */
  async function nextRecord(): Promise<ExportedClick | null | undefined> {
    let line = pending ?? (await nextLine())
    pending = undefined
    if (line === undefined) return undefined
    if (position === 0 && columns === undefined && !ndjson) {
      if (line.trimStart().startsWith('{')) ndjson = true
      else {
        columns = (parse(line, { bom: true }) as string[][])[0]!.map((name) => name.trim().toLowerCase())
        line = await nextLine()
        if (line === undefined) return undefined
      }
    }
    position += 1
    try {
      if (ndjson) return JSON.parse(line) as ExportedClick
      const values = ((parse(line) as string[][])[0] ?? []).map(restoreNeutralisedCell)
      return Object.fromEntries(columns!.map((name, index) => [name, values[index]]))
    } catch (error) {
      failure = `The line could not be read: ${(error as Error).message.split('\n')[0]!.slice(0, 200)}`
      return null
    }
  }

  return {
    async clicks(cursor, limit) {
      const afterId = Number(cursor)
      if (!lines || position !== afterId) {
        lines = open()[Symbol.asyncIterator]()
        position = 0
        lineNumber = 0
        columns = undefined
        ndjson = false
        while (position < afterId) if ((await nextRecord()) === undefined) return undefined
      }
      const clicks: SourceClick[] = []
      const unreadable: UnreadableClick[] = []
      const start = position
      while (position - start < limit) {
        const record = await nextRecord()
        if (record === undefined) break
        const click = record === null ? failure : toSourceClick(record)
        if (typeof click === 'string') unreadable.push({ line: lineNumber, reason: click })
        else if (click) clicks.push(click)
      }
      return position === start ? undefined : { last: String(position), clicks, unreadable }
    },
  }
}
