// `linkwell import yourls|kutt|shlink|linkwell`: another service's database (read, never written) or
// Linkwell's own export files imported in the foreground, as a job the API lists too; run again, an
// interrupted import resumes and nothing is imported twice. The command runs with the server's heap
// flags (src/cli.ts relaunches it) and a larger SQLite page cache (ADR 021).
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { AppError, ValidationError } from '../core/errors.js'
import { commandLineActor } from '../modules/changes/change-journal.js'
import type { ImportJobRow } from '../modules/imports/import.repository.js'
import type { DatabaseSource } from '../modules/imports/import.service.js'
import { CONFLICT_CHOICES } from '../modules/links/link-batch.js'
import { accountCommand, choiceOf, CliFailure, text, UsageError, type Command, type Values } from './command.js'

const ON_CONFLICT = `[--on-conflict ${CONFLICT_CHOICES.join('|')}]`
/** An import upserts millions of aggregate rows spread over the whole index: at the server's 8 MB its clicks went 2× slower (ADR 021). */
const IMPORT_CACHE_MB = 32

/** `--on-conflict skip|rename|fail` (skip when left out). */
const conflictChoice = (values: Values) => choiceOf(values, 'on-conflict', CONFLICT_CHOICES)

/** Waits for the import `started` runs and answers its report; a failed import fails the command (exit 1) with its reason. */
async function importReport(started: Promise<ImportJobRow>) {
  try {
    const job = await started
    if (job.state === 'failed') throw new CliFailure(`import failed: ${job.error}`)
    return { id: job.id, state: job.state, created: job.links_created, renamed: job.links_renamed, existing: job.links_existing, skipped: job.rows_skipped, clicks: job.clicks_imported }
  } catch (error) {
    // An option's value the import refuses (a MySQL address for Kutt, a bad prefix) is a usage problem: exit 2 naming it.
    if (error instanceof ValidationError && (error.field === 'database' || error.field === 'prefix')) throw new UsageError(`--${error.field} ${error.rule}`)
    if (error instanceof AppError) throw new CliFailure(`import failed: ${error.message.split('\n')[0]}`)
    throw error
  }
}

/** `linkwell import yourls|kutt|shlink`: the source's database read (never written), then its links and clicks imported in the foreground. */
function databaseImport(source: DatabaseSource, address: string, prefix: string, summary: string): Command {
  return accountCommand({
    name: `import ${source}`,
    usage: `--database ${address}${prefix ? ` [--prefix ${prefix}]` : ''} ${ON_CONFLICT}`,
    summary,
    options: { database: { type: 'string' }, 'on-conflict': { type: 'string' }, ...(prefix ? { prefix: { type: 'string' } } : {}) },
    required: ['database'],
    check: (values) => void conflictChoice(values),
    sqliteCacheMb: IMPORT_CACHE_MB,
    async run(account, values, { imports }) {
      return importReport(imports.importDatabase(commandLineActor(account.id), source, { url: text(values, 'database')!, prefix: text(values, 'prefix'), onconflict: conflictChoice(values) }))
    },
  })
}

export const IMPORT_COMMANDS: Command[] = [
  databaseImport('yourls', 'mysql://user:pass@host:port/db', 'yourls_',
    "import a YOURLS database's links and clicks (read only); run again to resume an interrupted import: nothing is imported twice"),
  databaseImport('kutt', 'sqlite:/path/kutt.db|postgres://user:pass@host:port/db', '',
    "import a Kutt database's links and its hourly visit counts as clicks"),
  databaseImport('shlink', 'postgres://…|mysql://…|sqlite:/path/shlink.db', 'PREFIX',
    "import a Shlink database's short URLs, tags and visits"),
  accountCommand({
    name: 'import linkwell',
    usage: `--links FILE [--clicks FILE] ${ON_CONFLICT}`,
    summary: "import another Linkwell's export (links CSV, clicks CSV or NDJSON)",
    options: { links: { type: 'string' }, clicks: { type: 'string' }, 'on-conflict': { type: 'string' } },
    required: ['links'],
    check: (values) => void conflictChoice(values),
    sqliteCacheMb: IMPORT_CACHE_MB,
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
      return importReport(imports.importLinkwell(commandLineActor(account.id), {
        linksName: path.basename(linksFile),
        links,
        clicks: clicksFile ? { name: path.basename(clicksFile), open: () => readline.createInterface({ input: fs.createReadStream(clicksFile), crlfDelay: Infinity }) } : undefined,
        onconflict: conflictChoice(values),
      }))
    },
  }),
]
