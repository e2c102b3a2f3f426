// The records of an imported CSV, read a slice at a time (issue 36). csv-parse's stream parser is
// fed slices of about 16 KB and the reader gives way to requests after each one (core/loop-share.ts),
// so a 20 MB file never holds the process longer than one slice's parse: redirects and the API keep
// answering while a file is checked or imported (the synchronous parse of a whole file held every
// request for tens of seconds). Each record carries the place after it (its byte offset in the file
// and the line the next record starts on): an import job keeps it as its cursor, and a resumed job
// reads on from there instead of parsing the file again from its start.
import { loopShare } from '../../core/loop-share.js'
import { parse, type CsvError } from 'csv-parse'

/** A place in a file: a byte offset where a record starts, and that record's line (counted from 1). */
export interface FilePlace {
  byte: number
  line: number
}

export const FILE_START: FilePlace = { byte: 0, line: 1 }

/** A record and the place after it, or a line that could not be read and why. */
export type CsvEntry =
  | { line: number; values: string[]; after: FilePlace; problem?: undefined }
  | { line: number; problem: string; values?: undefined }

/** Characters per slice: ~16 KB of parse (a few milliseconds) between two steps that may give way to requests. */
const SLICE_CHARS = 16 * 1024

/** The UTF-8 bytes of `content` from byte `fromByte` on, in slices (a surrogate pair is never cut in two). */
export function* slicesOf(content: string, fromByte = 0): Generator<Buffer> {
  let byte = 0
  for (let start = 0; start < content.length;) {
    let end = Math.min(start + SLICE_CHARS, content.length)
    const last = content.charCodeAt(end - 1)
    if (last >= 0xd800 && last <= 0xdbff && end < content.length) end += 1
    const slice = content.slice(start, end)
    start = end
    // Counted without encoding: the slices before the place are skipped, not parsed.
    const length = Buffer.byteLength(slice)
    if (byte + length > fromByte) {
      const bytes = Buffer.from(slice)
      yield byte >= fromByte ? bytes : bytes.subarray(fromByte - byte)
    }
    byte += length
  }
}

const newlinesIn = (values: string[]) => values.reduce((count, value) => count + (value.match(/\n/g)?.length ?? 0), 0)

/**
 * The entries of a CSV whose bytes `slices` hold from `from` on, a slice's worth at a time, lines
 * counted from `from.line`. csv-parse reads RFC 4180 (quotes, a BOM at the start); a record it
 * cannot read (a broken quote) is an entry with its problem, in its place, and the rest is read on.
 */
export async function* readCsvEntries(slices: Iterable<Buffer> | AsyncIterable<Buffer>, from: FilePlace = FILE_START): AsyncGenerator<CsvEntry[]> {
  let entries: CsvEntry[] = []
  const lineOf = (lines: number) => from.line + lines - 1
  // csv-parse counts lines from where it began reading: the file's own line in its message.
  const inFile = (message: string) => message.replace(/\bat line (\d+)/g, (_, lines: string) => `at line ${lineOf(Number(lines))}`)
  const parser = parse({
    bom: from.byte === 0,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      if (error) entries.push({ line: lineOf(error.lines), problem: `The line could not be read: ${inFile(error.message)}` })
      return undefined
    },
    // Taken here, in the file's order with the skipped lines, rather than from the stream's output.
    // The parser's info counts the bytes read so far (the record's delimiter included): the place after it.
    on_record: (values: string[], context) => {
      entries.push({ line: lineOf(context.lines) - newlinesIn(values), values, after: { byte: from.byte + parser.info.bytes, line: lineOf(context.lines) + 1 } })
      return null
    },
  })
  let failure: CsvError | undefined
  parser.on('error', (error: CsvError) => (failure = error))
  const stopped = (): CsvEntry[] => {
    const line = failure!.lines === undefined ? 0 : lineOf(failure!.lines)
    return [...entries, { line, problem: `The file could not be read from here on: ${inFile(failure!.message)}` }]
  }
  const pace = loopShare.pacer()
  try {
    for await (const slice of slices) {
      parser.write(slice)
      if (failure) return yield stopped()
      if (entries.length > 0) yield entries
      entries = []
      await pace()
    }
    await new Promise<void>((resolve) => parser.end(() => resolve()))
    if (failure) return yield stopped()
    if (entries.length > 0) yield entries
  } finally {
    parser.destroy()
  }
}
