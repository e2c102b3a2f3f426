// The `linkwell` command: accounts, API keys, plans, migrations and clicks, calling the same services as
// the HTTP API. Output is JSON on stdout; errors are a line on stderr (exit 2: usage, with a pointer to --help; 1: failure).
import { commandLineActor } from '../modules/changes/change-journal.js'
import { parseArgs } from 'node:util'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { CliFailure, text, UsageError, wholeNumber, type Command, type Options, type CommandContext, type Values } from './command.js'
import { CLICK_COMMANDS, CLICK_HELP } from './click-commands.js'
import { SECRET_COMMANDS, SECRET_HELP } from './secret-commands.js'
import { serve } from './serve-command.js'
import { ConfigError, loadConfig, type Config, type Env } from '../config.js'
import { createLogger } from '../logger.js'
import { createServices } from '../services.js'
import { backupSqliteDatabase } from '../db/backup.js'
import { migrateToLatest, openDatabase } from '../db/database.js'
import type { AccountWithPlan } from '../modules/accounts/account.repository.js'
import { toPlanRecord, toUserRecord } from '../modules/admin/admin.mapper.js'
import { toMemberRecord } from '../modules/members/member.mapper.js'
import { API_KEY_RESOURCES, parseResources, type ApiKeyResource, type ApiKeyScope } from '../modules/accounts/api-key-scopes.js'
import { PLAN_RESOURCES } from '../modules/admin/plan.service.js'
import { parseRole, ROLES } from '../modules/accounts/roles.js'
import { CLICK_EXPORT_FORMATS, LINK_EXPORT_FORMATS } from '../modules/exports/export.service.js'
import type { DatabaseSource } from '../modules/imports/import.service.js'
import { AppError, ValidationError } from '../core/errors.js'
import { CONFLICT_CHOICES, type ConflictChoice } from '../modules/links/link-batch.js'

const ACCOUNT_OPTION = { account: { type: 'string' } } as const satisfies Options

const HELP = `Usage: linkwell <command> [options]

Commands:
  serve                               run the server (as \`npm start\` does; settings from the environment:
                                      PORT 3000, DATABASE_URL file:./data/linkwell.db, PUBLIC_URL…)
  account create --email E --username U [--admin] [--plan P] [--password PW]
                                      create an account and its first API key (printed once)
  account list                        list accounts as GET /api/users shows them
  account suspend --account A         refuse the account's keys (403) until unsuspended
  account unsuspend --account A
  account password --account A        set the password (to sign in to the dashboard) from the first
                                      line of standard input; signs out the account's sessions
  key create --account A [--name N] [--expires 'YYYY-MM-DD HH:MM:SS'] [--scope R]... [--read-only]
                                      create a further API key (printed once, with what key list
                                      shows of it), limited to the resources R
                                      (${API_KEY_RESOURCES.join(', ')}) and/or reads
  key list --account A                list keys (never the keys themselves)
  key revoke --account A --id N       delete a key; it stops working at once
  member list --account A             the workspace's people with their roles
  member role --account A --person P --role R
                                      change a member's role (${ROLES.join(', ')}); the last owner stays one
  member remove --account A --person P
                                      remove a member, with the API keys they made in the workspace
  plan create --name N --code C [--apirate N] [--limit resource=N ...]
                                      create a plan; resources: ${PLAN_RESOURCES.join(', ')}
  plan list                           list plans
  backup FILE                         copy the SQLite database to FILE while the server runs
                                      (PostgreSQL: use pg_dump)
  migrate                             apply pending database migrations
  export links --account A --out FILE [--format csv|json]
                                      write the account's links, every field, to FILE
  export clicks --account A --out FILE [--format csv|ndjson] [--from D] [--to D]
                                      write the account's raw clicks between D and D (dates or date-times) to FILE
  import yourls --account A --database mysql://user:pass@host:port/db [--prefix yourls_] [--on-conflict skip|rename|fail]
                                      import a YOURLS database's links and clicks (read only); run again
                                      to resume an interrupted import: nothing is imported twice
  import kutt --account A --database sqlite:/path/kutt.db|postgres://… [--on-conflict …]
                                      import a Kutt database's links and its hourly visit counts as clicks
  import shlink --account A --database postgres://…|mysql://…|sqlite:/path [--prefix PREFIX] [--on-conflict …]
                                      import a Shlink database's short URLs, tags and visits
  import linkwell --account A --links FILE [--clicks FILE] [--on-conflict …]
                                      import another Linkwell's export (links CSV, clicks CSV or NDJSON)
${CLICK_HELP}${SECRET_HELP}
A is an account id or username; P is a plan id, name or code (a person for member: id, username
or e-mail). Times are UTC. The command line acts as the instance's operator: every role.
A --password given to \`account create\` is visible to other local users while the command runs;
set it with \`account password\` instead where that matters:
  printf '%s\\n' "$NEW_PASSWORD" | linkwell account password --account admin
The database is DATABASE_URL (default file:./data/linkwell.db); every command migrates it first.
Options: -h, --help  show this help.
`

/** `--scope links --scope qr` (or `--scope links,qr`) and `--read-only`; full access when neither is given. */
function scopeOptions(values: Values): ApiKeyScope {
  let resources: ApiKeyResource[] | null = null
  if (values.scope !== undefined) {
    const names = (values.scope as string[]).flatMap((entry) => entry.split(',')).map((name) => name.trim()).filter(Boolean)
    try {
      resources = parseResources(names, 'scope')
    } catch {
      throw new UsageError(`--scope must name resources among ${API_KEY_RESOURCES.join(', ')}, got "${names.join(',')}"`)
    }
  }
  return { resources, readOnly: values['read-only'] === true }
}

/** `--on-conflict skip|rename|fail` (skip when left out). */
function conflictChoice(values: Values): ConflictChoice {
  const given = text(values, 'on-conflict') ?? 'skip'
  if (!(CONFLICT_CHOICES as readonly string[]).includes(given)) throw new UsageError(`--on-conflict must be one of ${CONFLICT_CHOICES.join(', ')}`)
  return given as ConflictChoice
}

async function accountOrFail(services: CommandContext, reference: string): Promise<AccountWithPlan> {
  const account = await services.accounts.findAccountByReference(reference)
  if (!account) throw new CliFailure(`No account with the id or username "${reference}".`)
  return account
}

/**
 * A command about one account (`--account <id|username>`, required): the account is found (or the
 * command fails naming it) before `run` sees it.
 */
function accountCommand(command: Omit<Command, 'run' | 'required'> & { required?: string[]; run(account: AccountWithPlan, values: Values, context: CommandContext): Promise<unknown> }): Command {
  return {
    ...command,
    options: { ...ACCOUNT_OPTION, ...command.options },
    required: ['account', ...(command.required ?? [])],
    async run(values, context) {
      return command.run(await accountOrFail(context, text(values, 'account')!), values, context)
    },
  }
}

function setSuspended(suspended: boolean): Command {
  return accountCommand({
    usage: `account ${suspended ? 'suspend' : 'unsuspend'} --account <id|username>`,
    options: {},
    async run(account, _values, { accounts }) {
      await accounts.setSuspended(commandLineActor(account.id), account.id, suspended)
      return { id: account.id, username: account.username, suspended }
    },
  })
}

/** The member of `account` named by `--person` (id, username or e-mail), or the command fails naming it. */
async function memberOrFail(account: AccountWithPlan, reference: string, { members }: CommandContext) {
  const found = (await members.listMembers(account.id)).find(({ person }) =>
    String(person.id) === reference || person.username === reference || person.email === reference.toLowerCase())
  if (!found) throw new CliFailure(`No member "${reference}" in the workspace "${account.username}".`)
  return found
}

const COMMANDS: Record<string, Command> = {
  'account create': {
    usage: 'account create --email E --username U [--admin] [--plan P] [--password PW]',
    options: { email: { type: 'string' }, username: { type: 'string' }, admin: { type: 'boolean' }, plan: { type: 'string' }, password: { type: 'string' } },
    required: ['email', 'username'],
    async run(values, { accounts }) {
      const created = await accounts.createAccount({
        email: text(values, 'email')!,
        username: text(values, 'username')!,
        password: text(values, 'password'),
        plan: text(values, 'plan'),
        isAdmin: values.admin === true,
      })
      return { id: created.id, username: created.username, email: created.email, apiKey: created.apiKey }
    },
  },
  'account list': {
    usage: 'account list',
    options: {},
    async run(_values, { accounts, config }) {
      // Each as GET /api/users shows it: the spec's Account with the admin and suspended flags.
      return (await accounts.listAllAccounts()).map((account) => toUserRecord(account, config.publicUrl))
    },
  },
  'account password': accountCommand({
    usage: 'account password --account <id|username>   (the password on standard input)',
    options: {},
    async run(account, _values, { accounts, readInputLine }) {
      const password = await readInputLine()
      const ended = await accounts.setPassword(commandLineActor(account.id), account.id, password)
      return { id: account.id, username: account.username, passwordSet: true, sessionsEnded: ended }
    },
  }),
  'account suspend': setSuspended(true),
  'account unsuspend': setSuspended(false),
  'key create': accountCommand({
    usage: "key create --account <id|username> [--name N] [--expires 'YYYY-MM-DD HH:MM:SS'] [--scope RESOURCE]... [--read-only]",
    options: { name: { type: 'string' }, expires: { type: 'string' }, scope: { type: 'string', multiple: true }, 'read-only': { type: 'boolean' } },
    check: (values) => void scopeOptions(values),
    async run(account, values, { accounts }) {
      // The name and expiry rules are the service's, as for POST /api/key/add (a refusal exits 2).
      const { key, ...created } = await accounts.createNamedKey(commandLineActor(account.id), {
        // Blank is "not given", as the API reads an optional field (ADR 013): the default name.
        name: text(values, 'name')?.trim() || undefined,
        expires: text(values, 'expires'),
        scope: scopeOptions(values),
      })
      // What `key list` shows of the key, and the key itself (named as by `account create`).
      return { ...created, apiKey: key }
    },
  }),
  'key list': accountCommand({
    usage: 'key list --account <id|username>',
    options: {},
    async run(account, _values, { accounts }) {
      return accounts.listKeys(account.id)
    },
  }),
  'key revoke': accountCommand({
    usage: 'key revoke --account <id|username> --id N',
    options: { id: { type: 'string' } },
    required: ['id'],
    check: (values) => void wholeNumber(text(values, 'id') ?? '1', 'id'),
    async run(account, values, { accounts }) {
      const keyId = wholeNumber(text(values, 'id')!, 'id')
      await accounts.revokeKey(commandLineActor(account.id), keyId)
      return { id: keyId, revoked: true }
    },
  }),
  'member list': accountCommand({
    usage: 'member list --account <id|username>',
    options: {},
    async run(account, _values, { members }) {
      // Each as GET /api/members lists it; the command line is no member, so `you` is false for all.
      return (await members.listMembers(account.id)).map((member) => toMemberRecord(member, null))
    },
  }),
  'member role': accountCommand({
    usage: 'member role --account <id|username> --person <id|username|e-mail> --role <role>',
    options: { person: { type: 'string' }, role: { type: 'string' } },
    required: ['person', 'role'],
    check: (values) => {
      try {
        parseRole(text(values, 'role') ?? '')
      } catch {
        throw new UsageError(`--role must be one of ${ROLES.join(', ')}, got "${text(values, 'role')}"`)
      }
    },
    async run(account, values, context) {
      const member = await memberOrFail(account, text(values, 'person')!, context)
      const role = parseRole(text(values, 'role')!)
      await context.members.changeRole(commandLineActor(account.id), member.person.id, role)
      return { ...toMemberRecord(member, null), role }
    },
  }),
  'member remove': accountCommand({
    usage: 'member remove --account <id|username> --person <id|username|e-mail>',
    options: { person: { type: 'string' } },
    required: ['person'],
    async run(account, values, context) {
      const member = await memberOrFail(account, text(values, 'person')!, context)
      await context.members.removeMember(commandLineActor(account.id), member.person.id)
      return { id: member.person.id, username: member.person.username, removed: true }
    },
  }),
  'plan create': {
    usage: 'plan create --name N --code C [--apirate N] [--limit resource=N ...]',
    options: { name: { type: 'string' }, code: { type: 'string' }, apirate: { type: 'string' }, limit: { type: 'string', multiple: true } },
    required: ['name', 'code'],
    async run(values, { plans }) {
      const apirate = text(values, 'apirate')
      const limits: Record<string, number> = {}
      for (const entry of (values.limit as string[] | undefined) ?? []) {
        const match = /^([a-z]+)=(\d{1,10})$/.exec(entry)
        if (!match) throw new UsageError(`--limit must be resource=N, got "${entry}"`)
        limits[match[1]!] = Number(match[2])
      }
      const plan = await plans.createPlan(null, {
        name: text(values, 'name')!,
        code: text(values, 'code')!,
        apirate: apirate === undefined ? null : wholeNumber(apirate, 'apirate'),
        limits,
      })
      return toPlanRecord(plan)
    },
  },
  'plan list': {
    usage: 'plan list',
    options: {},
    async run(_values, { plans }) {
      return (await plans.listAllPlans()).map(toPlanRecord)
    },
  },
  backup: {
    usage: 'backup FILE',
    options: {},
    positional: 'file',
    async run(values, { config }) {
      try {
        return await backupSqliteDatabase(config.databaseUrl, text(values, 'file')!)
      } catch (error) {
        throw new CliFailure(`backup failed: ${(error as Error).message}`)
      }
    },
  },
  'export links': accountCommand({
    usage: 'export links --account <id|username> --out FILE [--format csv|json]',
    options: { out: { type: 'string' }, format: { type: 'string' } },
    required: ['out'],
    check: (values) => void exportFormat(values, LINK_EXPORT_FORMATS),
    async run(account, values, { exports }) {
      const format = exportFormat(values, LINK_EXPORT_FORMATS)
      return writeExport(text(values, 'out')!, exports.linkLines(account.id, format))
    },
  }),
  'export clicks': accountCommand({
    usage: 'export clicks --account <id|username> --out FILE [--format csv|ndjson] [--from D] [--to D]',
    options: { out: { type: 'string' }, format: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
    required: ['out'],
    check: (values) => void exportFormat(values, CLICK_EXPORT_FORMATS),
    async run(account, values, { exports }) {
      const format = exportFormat(values, CLICK_EXPORT_FORMATS)
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
  'import yourls': databaseImport('yourls', 'mysql://user:pass@host:port/db', ' [--prefix yourls_]'),
  'import kutt': databaseImport('kutt', 'sqlite:/path/kutt.db|postgres://user:pass@host:port/db', ''),
  'import linkwell': accountCommand({
    usage: 'import linkwell --account <id|username> --links FILE [--clicks FILE] [--on-conflict skip|rename|fail]',
    options: { links: { type: 'string' }, clicks: { type: 'string' }, 'on-conflict': { type: 'string' } },
    required: ['links'],
    check: (values) => void conflictChoice(values),
    async run(account, values, { imports }) {
      const linksFile = text(values, 'links')!
      const clicksFile = text(values, 'clicks')
      let links: string
      try {
        links = fs.readFileSync(linksFile, 'utf8')
        if (clicksFile) fs.accessSync(clicksFile, fs.constants.R_OK)
      } catch (error) {
        throw new CliFailure(`import failed: ${(error as Error).message}`)
      }
      try {
        const job = await imports.importLinkwell(commandLineActor(account.id), {
          linksName: path.basename(linksFile),
          links,
          clicks: clicksFile ? { name: path.basename(clicksFile), open: () => readline.createInterface({ input: fs.createReadStream(clicksFile), crlfDelay: Infinity }) } : undefined,
          onconflict: conflictChoice(values),
        })
        if (job.state === 'failed') throw new CliFailure(`import failed: ${job.error}`)
        return { id: job.id, state: job.state, created: job.links_created, renamed: job.links_renamed, existing: job.links_existing, skipped: job.rows_skipped, clicks: job.clicks_imported }
      } catch (error) {
        if (error instanceof AppError) throw new CliFailure(`import failed: ${error.message.split('\n')[0]}`)
        throw error
      }
    },
  }),
  'import shlink': databaseImport('shlink', 'postgres://…|mysql://…|sqlite:/path/shlink.db', ' [--prefix P]'),
  migrate: {
    usage: 'migrate',
    options: {},
    async run(_values, { applied }) {
      return { applied }
    },
  },
  ...CLICK_COMMANDS,
  ...SECRET_COMMANDS,
}

/** `linkwell import yourls|kutt|shlink`: the source's database read (never written), then its links and clicks imported in the foreground. */
function databaseImport(source: DatabaseSource, address: string, prefixUsage: string): Command {
  return accountCommand({
    usage: `import ${source} --account <id|username> --database ${address}${prefixUsage} [--on-conflict skip|rename|fail]`,
    options: { database: { type: 'string' }, 'on-conflict': { type: 'string' }, ...(prefixUsage ? { prefix: { type: 'string' } } : {}) },
    required: ['database'],
    check: (values) => void conflictChoice(values),
    async run(account, values, { imports }) {
      try {
        const job = await imports.importDatabase(commandLineActor(account.id), source, { url: text(values, 'database')!, prefix: text(values, 'prefix'), onconflict: conflictChoice(values) })
        if (job.state === 'failed') throw new CliFailure(`import failed: ${job.error}`)
        return { id: job.id, state: job.state, created: job.links_created, renamed: job.links_renamed, existing: job.links_existing, skipped: job.rows_skipped, clicks: job.clicks_imported }
      } catch (error) {
        // An option's value the import refuses (a MySQL address for Kutt, a bad prefix) is a usage problem: exit 2 naming it.
        if (error instanceof ValidationError && (error.field === 'database' || error.field === 'prefix')) throw new UsageError(`--${error.field} ${error.rule}`)
        if (error instanceof AppError) throw new CliFailure(`import failed: ${error.message.split('\n')[0]}`)
        throw error
      }
    },
  })
}

/** `--format`, one of `formats` (the first when left out). */
function exportFormat<F extends string>(values: Values, formats: readonly F[]): F {
  const given = text(values, 'format') ?? formats[0]!
  if (!(formats as readonly string[]).includes(given)) throw new UsageError(`--format must be one of ${formats.join(', ')}, got "${given}"`)
  return given as F
}

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

/** Finds the command named by the leading words of `argv`; returns it and the remaining options. */
function resolveCommand(argv: string[]): { command: Command; rest: string[] } {
  const [first, second] = argv
  if (first === undefined || first.startsWith('-')) throw new UsageError('no command given')
  if (COMMANDS[first]) return { command: COMMANDS[first], rest: argv.slice(1) }
  const name = `${first} ${second ?? ''}`.trim()
  const command = COMMANDS[name]
  if (!command) throw new UsageError(`unknown command "${name}"`)
  return { command, rest: argv.slice(2) }
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
    throw new UsageError(`${(error as Error).message.split('\n')[0]} (usage: linkwell ${command.usage})`)
  }
  const missing = (command.required ?? []).filter((name) => text(values, name) === undefined || text(values, name) === '')
  if (missing.length > 0) {
    throw new UsageError(`missing ${missing.map((name) => `--${name}`).join(', ')} (usage: linkwell ${command.usage})`)
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
    stdout.write(HELP)
    return 0
  }
  try {
    // The server runs until stopped: no services of the CLI's own, no JSON answer.
    if (argv[0] === 'serve') return await serve(argv.slice(1))
    const { command, rest } = resolveCommand(argv)
    const values = parseOptions(command, rest)
    command.check?.(values)
    const config = loadConfig(io.env)
    // An import upserts millions of aggregate rows spread over the whole index: with SQLite's cache
    // at the server's 8 MB its clicks went 2× slower (ADR 021); 32 MB keeps it well under the memory target.
    const result = await withServices(config, io, (context) => command.run(values, context), argv[0] === 'import' ? { sqliteCacheMb: 32 } : {})
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
