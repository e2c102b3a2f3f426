// `linkwell export links|clicks`: an account's links or raw clicks written to a file, the same lines
// GET /api/export/links and GET /api/export/clicks answer.
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ValidationError } from '../core/errors.js'
import { CLICK_EXPORT_FORMATS, LINK_EXPORT_FORMATS } from '../modules/exports/export.service.js'
import { accountCommand, choiceOf, CliFailure, text, UsageError, type Command } from './command.js'

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
  accountCommand({
    name: 'export clicks',
    usage: `--out FILE [--format ${CLICK_EXPORT_FORMATS.join('|')}] [--from D] [--to D]`,
    summary: "write the account's raw clicks between D and D (dates or date-times) to FILE",
    options: { out: { type: 'string' }, format: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
    required: ['out'],
    check: (values) => void choiceOf(values, 'format', CLICK_EXPORT_FORMATS),
    async run(account, values, { exports }) {
      const format = choiceOf(values, 'format', CLICK_EXPORT_FORMATS)
      let range
      try {
        range = exports.clickRange({ from: text(values, 'from'), to: text(values, 'to') })
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error
        throw new UsageError(`--${error.field} ${error.rule}`)
      }
      return writeExport(text(values, 'out')!, exports.clickLines(account.id, range, format))
    },
  }),
]
