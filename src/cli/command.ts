// What every `linkwell` command is made of: its options, the services it may call, and the two
// ways it can fail (a usage error exits 2, a failure exits 1).
import type { ParseArgsConfig } from 'node:util'
import type { DB } from '../db/database.js'
import type { Services } from '../services.js'

/** A command line that cannot be run as written (exit 2). */
export class UsageError extends Error {}

/** A command that ran but could not do its work (exit 1). */
export class CliFailure extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>
export type Values = Record<string, string | boolean | string[] | undefined>

/** What a command runs with: every service (src/services.ts), the database and the migrations this run applied. */
export interface CommandContext extends Services {
  db: DB
  /** Migrations this run applied (the database is migrated before every command). */
  applied: string[]
  /** The first line of standard input (secrets come this way, never through argv). */
  readInputLine(): Promise<string>
  /** Writes a line of progress for the person waiting (standard error: standard output is the command's JSON answer). */
  progress(line: string): void
}

export interface Command {
  usage: string
  options: Options
  /** The name of the one positional argument the command takes (`backup FILE`), stored under that name. */
  positional?: string
  required?: string[]
  /** Checks the options before the database is opened: a usage error needs no database. */
  check?(values: Values): void
  run(values: Values, context: CommandContext): Promise<unknown>
}

/** An option's text, if given. */
export function text(values: Values, name: string): string | undefined {
  const value = values[name]
  return typeof value === 'string' ? value : undefined
}

/** A whole number from an option, or a usage error naming the option. */
export function wholeNumber(value: string, option: string, min = 1, max?: number): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) < min || (max !== undefined && Number(value) > max)) {
    throw new UsageError(`--${option} must be a whole number ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}, got "${value}"`)
  }
  return Number(value)
}
