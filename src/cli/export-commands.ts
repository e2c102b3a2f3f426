// `linkwell export links|clicks|conversions`: an account's links, raw clicks or leads and sales
// written to a file, the same lines GET /api/export/links, /clicks and /conversions answer.
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ValidationError } from '../core/errors.js'
import { CLICK_EXPORT_FORMATS, CONVERSION_EXPORT_FORMATS, LINK_EXPORT_FORMATS } from '../modules/exports/export.service.js'
import { accountCommand, choiceOf, CliFailure, text, UsageError, type Command, type CommandContext } from './command.js'

/** Writes `lines` to `file` as they come (memory stays flat), then answers what was written. */
async function writeExport(file: string, lines: AsyncIterable<string>): Promise<{ file: string; lines: number; bytes: number }> {
  let count = 0
  let bytes = 0
  const counted = async function* () {
    for await (const line of lines) {
      count += 1
      bytes += Buffer.byteLength(line)
      yield line
    }
  }
  try {
    await pipeline(Readable.from(counted()), fs.createWriteStream(file))
  } catch (error) {
    throw new CliFailure(`export failed: ${(error as Error).message}`)
  }
  return { file: path.resolve(file), lines: count, bytes }
}

/** A dated export (clicks, conversions): the range checked as the API checks it, its refusal worded for the command line. */
function datedExport(name: 'clicks' | 'conversions', formats: readonly ['csv', 'ndjson'], summary: string, lines: (exports: CommandContext['exports'], accountId: number, range: { from: string; to: string }, format: 'csv' | 'ndjson') => AsyncIterable<string>): Command {
  return accountCommand({
    name: `export ${name}`,
    usage: `--out FILE [--format ${formats.join('|')}] [--from D] [--to D]`,
    summary,
    options: { out: { type: 'string' }, format: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
    required: ['out'],
    check: (values) => void choiceOf(values, 'format', formats),
    async run(account, values, { exports }) {
      const format = choiceOf(values, 'format', formats)
      let range
      try {
        range = exports.clickRange({ from: text(values, 'from'), to: text(values, 'to') })
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error
        throw new UsageError(`--${error.field} ${error.rule}`)
      }
      return writeExport(text(values, 'out')!, lines(exports, account.id, range, format))
    },
  })
}

export const EXPORT_COMMANDS: Command[] = [
  accountCommand({
    name: 'export links',
    usage: `--out FILE [--format ${LINK_EXPORT_FORMATS.join('|')}]`,
    summary: "write the account's links, every field, to FILE",
    options: { out: { type: 'string' }, format: { type: 'string' } },
    required: ['out'],
    check: (values) => void choiceOf(values, 'format', LINK_EXPORT_FORMATS),
    async run(account, values, { exports }) {
      const format = choiceOf(values, 'format', LINK_EXPORT_FORMATS)
      return writeExport(text(values, 'out')!, exports.linkLines(account.id, format))
    },
  }),
  datedExport('clicks', CLICK_EXPORT_FORMATS, "write the account's raw clicks between D and D (dates or date-times) to FILE", (exports, id, range, format) => exports.clickLines(id, range, format)),
  datedExport('conversions', CONVERSION_EXPORT_FORMATS, "write the account's leads and sales between D and D (dates or date-times) to FILE, as GET /api/export/conversions", (exports, id, range, format) => exports.conversionLines(id, range, format)),
]
