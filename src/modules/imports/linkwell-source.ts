// Linkwell's own export as an import's source (issue 21, the round trip): the links export
// (`GET /api/export/links?format=csv`, read as a file source: file-sources.ts `linkwell`) and the
// clicks export (`GET /api/export/clicks?format=csv|ndjson`, modules/exports CLICK_EXPORT_COLUMNS),
// read a line at a time from a stream so a file of millions of clicks keeps memory flat. A click
// names its link by the exporting instance's id (`itemid`), the key the links' rows carry.
import { parse } from 'csv-parse/sync'
import { sourceTimestamp } from '../../db/sql-source.js'
import { countryCodeOf, type SourceClick, type SourceReader } from './source-reader.js'

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

function toSourceClick(record: ExportedClick): SourceClick | undefined {
  const createdAt = sourceTimestamp(text(record.date))
  // Clicks of bio pages and QR codes have no link to land on.
  if (!createdAt || text(record.item) !== 'link' || !/^\d+$/.test(text(record.itemid))) return undefined
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
 */
export function createExportedClicksReader(open: () => AsyncIterable<string>): Pick<SourceReader, 'clicks'> {
  let lines: AsyncIterator<string> | undefined
  let position = 0
  let columns: string[] | undefined
  let ndjson = false
  let pending: string | undefined

  async function nextLine(): Promise<string | undefined> {
    for (;;) {
      const next = await lines!.next()
      if (next.done) return undefined
      if (next.value.trim()) return next.value
    }
  }

  /** The next data line's record (undefined at the end; null for a line that cannot be read). */
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
      const values = (parse(line) as string[][])[0] ?? []
      return Object.fromEntries(columns!.map((name, index) => [name, values[index]]))
    } catch {
      return null
    }
  }

  return {
    async clicks(afterId, limit) {
      if (!lines || position !== afterId) {
        lines = open()[Symbol.asyncIterator]()
        position = 0
        columns = undefined
        ndjson = false
        while (position < afterId) if ((await nextRecord()) === undefined) return undefined
      }
      const clicks: SourceClick[] = []
      const start = position
      while (position - start < limit) {
        const record = await nextRecord()
        if (record === undefined) break
        const click = record && toSourceClick(record)
        if (click) clicks.push(click)
      }
      return position === start ? undefined : { last: position, clicks }
    },
  }
}
