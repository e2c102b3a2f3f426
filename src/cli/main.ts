// The `linkwell` command's runner: finds the command a command line names (cli/commands.ts), reads
// its options, opens and migrates the database, runs it with the same services as the HTTP API and
// prints its answer. Output is JSON on stdout; errors are a line on stderr (exit 2: usage, with a
// pointer to --help; 1: failure).
import { parseArgs } from 'node:util'
import readline from 'node:readline'
import { CliFailure, text, UsageError, type AnyCommand, type Command, type CommandContext, type Values } from './command.js'
import { COMMANDS, groupOf } from './commands.js'
import { helpText } from './help.js'
import { ConfigError, loadConfig, type Config, type Env } from '../config.js'
import { createLogger } from '../logger.js'
import { createServices } from '../services.js'
import { migrateToLatest, openDatabase } from '../db/database.js'
import { AppError, ValidationError } from '../core/errors.js'

const BY_NAME = new Map(COMMANDS.map((command) => [command.name, command]))
const GROUPS = new Set(COMMANDS.map(groupOf))

/** `--help` (or `-h`) anywhere: the help of the group the command line starts with, else of every command. */
function helpFor(argv: string[]): string {
  const group = argv[0] !== undefined && GROUPS.has(argv[0]) ? argv[0] : undefined
  return helpText(COMMANDS, group)
}

/** Finds the command named by the leading words of `argv`; returns it and the remaining options. */
function resolveCommand(argv: string[]): { command: AnyCommand; rest: string[] } {
  const [first, second] = argv
  if (first === undefined || first.startsWith('-')) throw new UsageError('no command given')
  const single = BY_NAME.get(first)
  if (single) return { command: single, rest: argv.slice(1) }
  const name = `${first} ${second ?? ''}`.trim()
  const command = BY_NAME.get(name)
  if (!command) throw new UsageError(`unknown command "${name}"`)
  return { command, rest: argv.slice(2) }
}

function usageOf(command: AnyCommand): string {
  return `linkwell ${command.name}${command.usage ? ` ${command.usage}` : ''}`
}

function parseOptions(command: Command, rest: string[]): Values {
  let values: Values
  try {
    const parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: command.positional !== undefined })
    values = parsed.values as Values
    if (command.positional !== undefined) {
      if (parsed.positionals.length !== 1) throw new Error(`expected one ${command.positional}`)
      values[command.positional] = parsed.positionals[0]
    }
  } catch (error) {
    // parseArgs explains the problem ("Unknown option '--x'"); we add which command it was.
    throw new UsageError(`${(error as Error).message.split('\n')[0]} (usage: ${usageOf(command)})`)
  }
  const missing = (command.required ?? []).filter((name) => text(values, name) === undefined || text(values, name) === '')
  if (missing.length > 0) {
    throw new UsageError(`missing ${missing.map((name) => `--${name}`).join(', ')} (usage: ${usageOf(command)})`)
  }
  return values
}

/**
 * The first line of `input`, without its line ending. On a terminal it asks first (the typing is
 * shown: a pipe or a redirect keeps it off the screen and out of the shell history).
 */
async function readFirstLine(input: CommandIo['stdin'], prompt: NodeJS.WritableStream): Promise<string> {
  if (input.isTTY) prompt.write('New password, then Enter: ')
  const lines = readline.createInterface({ input, terminal: false })
  try {
    for await (const line of lines) return line
  } finally {
    lines.close()
  }
  throw new UsageError('no password on standard input (e.g. printf \'%s\\n\' "$PASSWORD" | linkwell account password --account A)')
}

/** Opens and migrates the database, builds the services, runs `work`, and closes everything. */
async function withServices<T>(config: Config, io: CommandIo, work: (context: CommandContext) => Promise<T>, options: { sqliteCacheMb?: number } = {}): Promise<T> {
  const database = openDatabase(config.databaseUrl, { poolMax: 2, ...options })
  try {
    const applied = await migrateToLatest(database)
    // A one-off run: errors reach the user as the command's own message, not as log lines.
    const services = createServices({ config, database, log: createLogger({ logLevel: 'silent' }) })
    try {
      return await work({ ...services, db: database.db, applied, readInputLine: () => readFirstLine(io.stdin, io.stderr), progress: (line) => io.stderr.write(`${line}\n`) })
    } finally {
      await services.close()
    }
  } finally {
    await database.close()
  }
}

/**
 * Where a command line reads and writes: this process's environment and standard streams, or a
 * caller's own (the tests run many command lines in one long-lived thread: test/cli/cli-runner.ts).
 */
export interface CommandIo {
  env: Env
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
}

/** Runs one command line; returns the exit code. Never throws. */
export async function runCommandLine(argv: string[], io: CommandIo): Promise<number> {
  const { stdout, stderr } = io
  if (argv.includes('--help') || argv.includes('-h')) {
    stdout.write(helpFor(argv))
    return 0
  }
  try {
    const { command, rest } = resolveCommand(argv)
    // The server runs until stopped: no services of the CLI's own, no JSON answer.
    if ('runStandalone' in command) return await command.runStandalone(rest)
    const values = parseOptions(command, rest)
    command.check?.(values)
    const config = loadConfig(io.env)
    const result = await withServices(config, io, (context) => command.run(values, context), { sqliteCacheMb: command.sqliteCacheMb })
    stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    return 0
  } catch (error) {
    if (error instanceof UsageError) {
      stderr.write(`linkwell: ${error.message}\nRun "linkwell --help" for usage.\n`)
      return 2
    }
    // A value the services refuse (bad e-mail, bad plan code) is a usage problem too.
    if (error instanceof ValidationError) {
      stderr.write(`linkwell: ${error.message}\n`)
      return 2
    }
    if (error instanceof ConfigError || error instanceof AppError || error instanceof CliFailure) {
      stderr.write(`linkwell: ${error.message}\n`)
      return 1
    }
    // Database unreachable and the like: the message, never a stack trace.
    stderr.write(`linkwell: failed: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}

/** Runs the command line of this process (the `linkwell` bin, src/cli.ts). */
export async function main(): Promise<void> {
  process.exitCode = await runCommandLine(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr })
}
