// Bulk creation: rows from pasted URLs or a CSV file (url,alias,title), checked like the link
// form checks them, then created one after another; results as a CSV.
import { ApiError, messageOf } from '../api/client'
import { toCsv } from '../components/download'
import { ALIAS_PATTERN, isHttpUrl, MAX_META_TITLE_LENGTH, type LinkCreateBody } from '../links/link-form'

export const MAX_BULK_ROWS = 1000
const ALIAS = new RegExp(ALIAS_PATTERN)

export interface BulkRow {
  /** 1-based line (pasted) or record (CSV) number. */
  line: number
  url: string
  alias: string
  title: string
}

export type BulkResult =
  | { state: 'pending' }
  | { state: 'created'; shorturl: string; id: number }
  | { state: 'failed'; message: string }

/** RFC 4180 records: quoted cells may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let cell = ''
  let quoted = false
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"'
        index += 1
      } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"' && cell === '') quoted = true
    else if (char === ',') {
      record.push(cell)
      cell = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1
      record.push(cell)
      records.push(record)
      record = []
      cell = ''
    } else cell += char
  }
  if (cell !== '' || record.length > 0) {
    record.push(cell)
    records.push(record)
  }
  return records.filter((row) => row.some((value) => value.trim() !== ''))
}

/** Rows of a CSV with columns url, alias, title (a header row naming them is optional and may reorder them). */
export function rowsFromCsv(text: string): BulkRow[] {
  const records = parseCsv(text.replace(/^\uFEFF/, ''))
  const header = records[0]?.map((cell) => cell.trim().toLowerCase())
  const hasHeader = header?.includes('url') ?? false
  const column = (name: string, fallback: number) => (hasHeader ? header!.indexOf(name) : fallback)
  const [urlColumn, aliasColumn, titleColumn] = [column('url', 0), column('alias', 1), column('title', 2)]
  return records.slice(hasHeader ? 1 : 0).map((record, index) => ({
    line: index + 1,
    url: (record[urlColumn] ?? '').trim(),
    alias: aliasColumn >= 0 ? (record[aliasColumn] ?? '').trim() : '',
    title: titleColumn >= 0 ? (record[titleColumn] ?? '').trim() : '',
  }))
}

/** One URL per line; blank lines are skipped. */
export function rowsFromLines(text: string): BulkRow[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).map((url, index) => ({ line: index + 1, url, alias: '', title: '' }))
}

/** What the server would refuse in this row, or undefined. */
export function checkBulkRow(row: BulkRow): string | undefined {
  if (!isHttpUrl(row.url)) return 'The URL must be a full http:// or https:// address.'
  if (row.alias && !ALIAS.test(row.alias)) return 'The alias must be 3 to 64 letters, digits, _ or -.'
  if (row.title.length > MAX_META_TITLE_LENGTH) return `The title must be at most ${MAX_META_TITLE_LENGTH} characters.`
  return undefined
}

export function toBulkBody(row: BulkRow): LinkCreateBody {
  return { url: row.url, ...(row.alias ? { custom: row.alias } : {}), ...(row.title ? { metatitle: row.title } : {}) }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Creates the rows one after another, reporting each result. A rate-limit refusal waits for the
 * window to end and tries the same row again; `shouldStop` ends the run between rows.
 */
export async function runBulk(
  rows: BulkRow[],
  create: (body: LinkCreateBody) => Promise<{ id: number; shorturl: string }>,
  report: (index: number, result: BulkResult, waitingSeconds?: number) => void,
  shouldStop: () => boolean,
): Promise<void> {
  for (let index = 0; index < rows.length && !shouldStop(); index += 1) {
    const row = rows[index]!
    const problem = checkBulkRow(row)
    if (problem) {
      report(index, { state: 'failed', message: problem })
      continue
    }
    for (;;) {
      try {
        const created = await create(toBulkBody(row))
        report(index, { state: 'created', shorturl: created.shorturl, id: created.id })
        break
      } catch (error) {
        if (error instanceof ApiError && error.status === 429 && !shouldStop()) {
          const seconds = error.retryAfterSeconds ?? 10
          report(index, { state: 'pending' }, seconds)
          await wait(seconds * 1000)
          continue
        }
        report(index, { state: 'failed', message: messageOf(error) })
        break
      }
    }
  }
}

export function resultsCsv(rows: BulkRow[], results: BulkResult[]): string {
  return toCsv([
    ['url', 'alias', 'title', 'status', 'shorturl', 'error'],
    ...rows.map((row, index) => {
      const result = results[index] ?? { state: 'pending' }
      return [row.url, row.alias, row.title, result.state, result.state === 'created' ? result.shorturl : '', result.state === 'failed' ? result.message : '']
    }),
  ])
}
