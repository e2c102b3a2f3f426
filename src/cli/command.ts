// What every `linkwell` command is made of: its name, usage and summary (the help is generated
// from them, cli/help.ts), its options, the services it may call, and the two ways it can fail (a
// usage error exits 2, a failure exits 1).
import type { ParseArgsConfig } from 'node:util'
import type { Config } from '../config.js'
import type { DB } from '../db/database.js'
import type { AccountWithPlan } from '../modules/accounts/account.repository.js'
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

/** What `linkwell --help` says of a command. */
export interface CommandHelp {
  /** The words that name it (`account create`, `migrate`); the first is its group (`linkwell account --help`). */
  name: string
  /** What follows the name on its usage line: every option (`[…]` when it may be left out), the one positional. */
  usage: string
  /** What it does, in a sentence or two (the help wraps it). */
  summary: string
}

/** A command that runs with the services on the migrated database and answers JSON on standard output. */
export interface Command extends CommandHelp {
  options: Options
  /** The name of the one positional argument the command takes (`backup FILE`), stored under that name. */
  positional?: string
  required?: string[]
  /** Checks the options before the database is opened: a usage error needs no database. */
  check?(values: Values): void
  /** SQLite's page cache for this command, in MB (the server's when left out; an import's upserts want more: ADR 021). */
  sqliteCacheMb?: number
  run(values: Values, context: CommandContext): Promise<unknown>
}

/** A command that runs on its own, without the services (`serve`): its output and exit code are its own. */
export interface StandaloneCommand extends CommandHelp {
  runStandalone(argv: string[]): Promise<number>
}

export type AnyCommand = Command | StandaloneCommand

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

/** The most days a `--days N` may say (a hundred years). */
export const MAX_DAYS = 36_500

/** `--days N` (1 to 36,500), else the retention the environment sets. */
function retentionDays<T extends number | null>(values: Values, fallback: T): number | T {
  const given = text(values, 'days')
  return given === undefined ? fallback : wholeNumber(given, 'days', 1, MAX_DAYS)
}

/**
 * A command that deletes what is older than a retention period (`clicks prune`, `audit prune`):
 * `--days N`, else the period the environment sets (`retentionOf` the configuration).
 */
export function pruneCommand<T extends number | null>(command: Pick<CommandHelp, 'name' | 'summary'> & {
  retentionOf(config: Config): T
  prune(days: number | T, context: CommandContext): Promise<unknown>
}): Command {
  return {
    name: command.name,
    usage: '[--days N]',
    summary: command.summary,
    options: { days: { type: 'string' } },
    check: (values) => void retentionDays(values, null),
    run: (values, context) => command.prune(retentionDays(values, command.retentionOf(context.config)), context),
  }
}

/** `--opt a|b|c`: one of `choices`, the first when left out; else a usage error naming the option. */
export function choiceOf<C extends string>(values: Values, option: string, choices: readonly C[]): C {
  const given = text(values, option) ?? choices[0]!
  if (!(choices as readonly string[]).includes(given)) throw new UsageError(`--${option} must be one of ${choices.join(', ')}, got "${given}"`)
  return given as C
}

async function accountOrFail({ accounts }: CommandContext, reference: string): Promise<AccountWithPlan> {
  const account = await accounts.findAccountByReference(reference)
  if (!account) throw new CliFailure(`No account with the id or username "${reference}".`)
  return account
}

type AccountCommandDefinition = Omit<Command, 'run' | 'required'> & {
  required?: string[]
  run(account: AccountWithPlan, values: Values, context: CommandContext): Promise<unknown>
}

/**
 * A command about one account (`--account A`, an id or username, required and first on the usage
 * line): the account is found (or the command fails naming it) before `run` sees it.
 */
export function accountCommand(command: AccountCommandDefinition): Command {
  return {
    ...command,
    usage: `--account A${command.usage ? ` ${command.usage}` : ''}`,
    options: { account: { type: 'string' }, ...command.options },
    required: ['account', ...(command.required ?? [])],
    async run(values, context) {
      return command.run(await accountOrFail(context, text(values, 'account')!), values, context)
    },
  }
}
