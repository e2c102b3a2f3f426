// Imports (issue 21, ADR 021): a job per import, run in the background. A job reads its source
// from its cursor on, writes the rows through the link batch (modules/links/link-batch.ts) in
// chunks, and records each chunk's progress, problems and created links in the chunk's own
// transaction: a job stopped anywhere (a restart) resumes at its cursor and writes nothing twice.
// A link already in the account at the same domain and alias (spelt alike) with the same
// destination is the same link: it is counted as existing, not written again, so the same import
// run twice imports nothing twice. Another destination or letter case there is a conflict
// (--on-conflict), reported with the old and new address (docs/adr/030-import-conflicts.md).
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { parsePlanLimits } from '../plans/plan-limits.js'
import type { ActorVia } from '../changes/change-journal.js'
import { BatchConflict, CONFLICT_CHOICES, type AliasConflict, type BatchOutcome, type BatchWriter, type ConflictChoice, type LinkBatchWriter } from '../links/link-batch.js'
import type { ImportJobRow, ImportProblem, ImportRepository } from './import.repository.js'
import { checkFileRows, parseColumnMap, readFileRows, type FileRow, type SourceRow } from './file-sources.js'
import { FILE_START, slicesOf, type FilePlace } from './csv-records.js'
import { AppError, NotFoundError, ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { nowTimestamp } from '../../core/time.js'
import { writeImportedClicks, type EnrichedClick } from '../../analytics/click-writer.js'
import { checkYourlsTables, createYourlsReader } from './yourls-source.js'
import { checkKuttTables, createKuttReader } from './kutt-source.js'
import { checkShlinkTables, createShlinkReader } from './shlink-source.js'
import type { DatabaseRow, SourceReader } from './source-reader.js'
import { createExportedClicksReader } from './linkwell-source.js'
import { REPORT_CSV_HEADER, toReportCsvLine } from './import-report.js'
import { openSqlSource, sourceDialectOf, sourceNameOf, type SourceDialect, type SqlSource } from '../../db/sql-source.js'

export const FILE_SOURCES = ['csv', 'bitly'] as const
export type FileSource = (typeof FILE_SOURCES)[number]

/** Sources read from their own database (on the command line: the address holds a password). */
export const DATABASE_SOURCES = ['yourls', 'kutt', 'shlink'] as const
export type DatabaseSource = (typeof DATABASE_SOURCES)[number]

/** The databases each source keeps its data in. */
const SOURCE_DIALECTS: Record<DatabaseSource, SourceDialect[]> = { yourls: ['mysql'], kutt: ['sqlite', 'postgres'], shlink: ['postgres', 'mysql', 'sqlite'] }
const DIALECT_ADDRESSES: Record<SourceDialect, string> = { mysql: 'mysql://', postgres: 'postgres://', sqlite: 'sqlite:/path' }
const SOURCE_LABELS: Record<DatabaseSource, string> = { yourls: 'YOURLS', kutt: 'Kutt', shlink: 'Shlink' }

/** The reader of `source` over its database, once its tables are found there (a one-line reason otherwise). */
async function readerOf(source: DatabaseSource, database: SqlSource, prefix: string): Promise<SourceReader> {
  if (source === 'kutt') {
    await checkKuttTables(database)
    return createKuttReader(database)
  }
  if (source === 'shlink') {
    await checkShlinkTables(database, prefix)
    return createShlinkReader(database, prefix)
  }
  await checkYourlsTables(database, prefix)
  return createYourlsReader(database, prefix)
}

/** Why a row's alias could not be had as given, in the report's words. */
export function conflictReason(alias: string, conflict: AliasConflict): string {
  switch (conflict.kind) {
    case 'reserved': return `The alias "${alias}" is reserved here (a path Linkwell itself answers)`
    case 'taken': return `The alias "${alias}" is taken (another link or page holds it on this domain)`
    case 'case': return `The alias "${alias}" differs only in letter case from "${conflict.holder}", already here (aliases ignore letter case, so one would answer for both)`
    case 'destination': return `The alias "${alias}" is already used in this workspace by a link to another destination (${conflict.url.slice(0, 120)})`
  }
}

/** Problems a job's report shows (the counts cover every row). */
export const REPORTED_PROBLEMS = 1_000

export interface ImportOptions {
  onconflict: ConflictChoice
  map?: string
  prefix?: string
}

export interface ImportServiceOptions {
  /** The jobs, their files, their reports and the links each one made. */
  jobs: ImportRepository
  /** Writes each chunk's links, as `POST /api/urls/bulk` does. */
  linkBatch: LinkBatchWriter
  /**
   * Rows per transaction (default 10). A chunk's transaction holds the event loop on SQLite (it
   * cannot give way inside: a request would write in it), so it is kept to a few milliseconds there;
   * the composition root gives PostgreSQL larger ones.
   */
  chunkSize?: number
  /** How long a running job stays with its worker without progress before another may take it. */
  leaseMs?: number
  /** Runs in each chunk's transaction after its bookkeeping (tests stop a job there, as a crash would). */
  afterChunk?: (jobId: number) => Promise<void>
  /** The most rows a file may have (IMPORT_MAX_ROWS). */
  maxRows?: number
}

/** Where a chunk of rows leaves its job: the cursor after it, and the rows the source itself ruled out that it passed (reported with it). */
type ChunkPlace = (start: number, count: number) => { cursor: string; passed: SourceRow[] }

/**
 * Where a file job reads on. Its cursor is the place after the last row written (JSON, csv-records.ts
 * FilePlace); '0' is the start. A job left by the version before places counted the good rows it had
 * written: it reads from the start and passes over that many.
 */
function fileCursorOf(cursor: string): { from: FilePlace; written: number } {
  if (/^\d+$/.test(cursor)) return { from: FILE_START, written: Number(cursor) }
  return { from: JSON.parse(cursor) as FilePlace, written: 0 }
}

function readOptions(job: ImportJobRow): ImportOptions {
  return JSON.parse(job.options) as ImportOptions
}

export function createImportService(options: ImportServiceOptions) {
  const { jobs, linkBatch } = options
  const chunkSize = options.chunkSize ?? 10
  const leaseMs = options.leaseMs ?? 60_000
  const maxRows = options.maxRows ?? 100_000
  const leaseFromNow = () => nowTimestamp(new Date(Date.now() + leaseMs))

  async function writerOf(job: ImportJobRow): Promise<BatchWriter> {
    return {
      id: job.account_id,
      keyId: job.key_id,
      personId: job.person_id,
      via: job.via as ActorVia,
      address: null,
      limits: parsePlanLimits((await jobs.limitsJson(job.account_id)) ?? '{}'),
    }
  }

  /**
   * Campaign and channel names of the rows as ids of the account's; a name it does not have is the
   * row's problem. `namesOnly`: a value of digits is a name too (Linkwell's export: ids are the other instance's).
   */
  async function resolveNames(accountId: number, rows: SourceRow[], namesOnly = false): Promise<void> {
    const isId = (given: string) => !namesOnly && /^\d+$/.test(given)
    for (const [field, table, resource] of [['campaign', 'campaigns', 'campaign'], ['channel', 'channels', 'channel']] as const) {
      const names = [...new Set(rows.flatMap((row) => (row.input && row[field] && !isId(row[field]!) ? [row[field]!] : [])))]
      const ids = await jobs.idsByName(table, accountId, names)
      for (const row of rows) {
        const given = row[field]
        if (!row.input || given === undefined) continue
        const id = isId(given) ? Number(given) : ids.get(given.toLowerCase())
        if (id === undefined) row.problem = `The account has no ${resource} named "${given.slice(0, 60)}".`
        else row.input[field] = id
      }
    }
  }

  /** The report line of a row that could not be read or the source itself rules out. */
  function sourceProblem(row: SourceRow): ImportProblem {
    return { line: row.line, sourceKey: row.key, action: 'skipped', reason: row.problem ?? 'Unreadable.', alias: row.input?.custom ?? null, oldAlias: row.input?.custom ?? null }
  }

  /** The report lines of a chunk's outcomes: every row not imported plainly as given says what became of it and why. */
  function problemsOf(rows: readonly DatabaseRow[], outcomes: readonly BatchOutcome[]): ImportProblem[] {
    return outcomes.flatMap((outcome, index): ImportProblem[] => {
      const row = rows[index]!
      const oldAlias = row.input?.custom ?? null
      const at = { line: row.line, sourceKey: row.key, oldAlias }
      const notes = row.notes && row.notes.length > 0 ? ` ${row.notes.join(' ')}` : ''
      if (outcome.status === 'refused') {
        const reason = outcome.conflict && oldAlias !== null ? `${conflictReason(oldAlias, outcome.conflict)}: not imported (on conflict: skip).` : outcome.error.message
        return [{ ...at, action: 'skipped', reason, alias: oldAlias }]
      }
      if (outcome.status === 'existing') {
        return [{ ...at, action: 'existing', reason: `Already in the workspace at "${outcome.alias}" with the same destination: not written again.`, alias: outcome.alias }]
      }
      if (outcome.renamedFrom) {
        const why = outcome.conflict ? conflictReason(outcome.renamedFrom, outcome.conflict) : `The alias "${outcome.renamedFrom}" is taken`
        return [{ ...at, action: 'renamed', reason: `${why}: imported as "${outcome.alias}".${notes}`, alias: outcome.alias }]
      }
      if (notes) return [{ ...at, action: 'changed', reason: `Imported with changes:${notes}`, alias: outcome.alias }]
      return []
    })
  }

  /**
   * The links of a chunk whose clicks this job imports: those it created, and those the workspace
   * already had (same address and destination) unless an earlier run of the same import listed
   * them, whose clicks came then (a re-run imports nothing twice).
   */
  async function linksToList(trx: Parameters<ImportRepository['linkedBefore']>[0], job: ImportJobRow, rows: readonly DatabaseRow[], outcomes: readonly BatchOutcome[]) {
    const existing = outcomes.flatMap((outcome) => (outcome.status === 'existing' ? [outcome.id] : []))
    const before = await jobs.linkedBefore(trx, job, existing)
    return outcomes.flatMap((outcome, index) => (outcome.status === 'created' || (outcome.status === 'existing' && !before.has(outcome.id)) ? [{ sourceKey: rows[index]!.key, linkId: outcome.id }] : []))
  }

  /** Writes `rows` (those not yet written: the cursor's on) through the link batch, recording progress per chunk at `placeOf` it. */
  async function writeRows(job: ImportJobRow, rows: DatabaseRow[], placeOf: ChunkPlace): Promise<void> {
    const writer = await writerOf(job)
    const { onconflict } = readOptions(job)
    try {
      // A source's alias is kept as the source gave it out (ADR 028), in Unicode's composed form,
      // the form a visitor's path is compared in.
      const batch = rows.map((row) => ({
        input: row.input!.custom === undefined ? row.input! : { ...row.input!, custom: row.input!.custom.normalize('NFC') },
        createdAt: row.createdAt,
        ...(row.stored ? { stored: row.stored } : {}),
      }))
      await linkBatch.writeLinks(writer, batch, {
        onConflict: onconflict,
        sameAddressIsSameLink: true,
        renameReserved: true,
        chunkSize,
        inChunk: async (trx, { start, outcomes }) => {
          const chunkRows = rows.slice(start, start + outcomes.length)
          const count = (test: (outcome: BatchOutcome) => boolean) => outcomes.filter(test).length
          const { cursor, passed } = placeOf(start, outcomes.length)
          await jobs.recordProgress(trx, job.id, {
            cursor,
            rowsRead: outcomes.length + passed.length,
            linksCreated: count((outcome) => outcome.status === 'created'),
            linksRenamed: count((outcome) => outcome.status === 'created' && outcome.renamedFrom !== undefined),
            linksExisting: count((outcome) => outcome.status === 'existing'),
            rowsSkipped: count((outcome) => outcome.status === 'refused') + passed.length,
            leaseUntil: leaseFromNow(),
          }, [...passed.map(sourceProblem), ...problemsOf(chunkRows, outcomes)], await linksToList(trx, job, chunkRows, outcomes))
          await options.afterChunk?.(job.id)
        },
      })
    } catch (error) {
      if (error instanceof BatchConflict) {
        const row = rows[error.row]
        const alias = row?.input?.custom
        const why = error.conflict && alias !== undefined ? conflictReason(alias, error.conflict) : error.message.replace(/^Row \d+: /, '')
        throw new ValidationError(`Line ${row?.line ?? '?'}: ${why} (on conflict: fail; nothing of this import was written)`)
      }
      throw error
    }
  }

  /** A file from its cursor on (a slice at a time: the event loop turns between slices); only rows after the cursor are read and written. */
  async function runFileJob(job: ImportJobRow): Promise<void> {
    const content = await jobs.fileOf(job.id)
    if (content === undefined) throw new ValidationError('The uploaded file is no longer there.')
    const { from, written } = fileCursorOf(job.cursor)
    const rows: FileRow[] = []
    for await (const read of readFileRows(job.source as FileSource | 'linkwell', content, { map: readOptions(job).map, from })) rows.push(...read)
    await resolveNames(job.account_id, rows, job.source === 'linkwell')
    const good = rows.filter((row) => row.input && !row.problem).slice(written)
    if (job.total_rows === null) {
      // The first run records the rows that cannot be imported at all, and how many there are, once.
      const bad = rows.filter((row) => !row.input || row.problem)
      await jobs.transaction(async (trx) => {
        await jobs.recordProgress(trx, job.id, { cursor: '0', rowsRead: bad.length, rowsSkipped: bad.length, leaseUntil: leaseFromNow() },
          bad.map((row) => ({ line: row.line, sourceKey: row.key, action: 'skipped', reason: row.problem ?? 'Unreadable.', alias: row.input?.custom ?? null })))
        await jobs.updateJob(trx, job.id, { total_rows: rows.length })
      })
    }
    // Each chunk leaves the cursor after its last row: a resumed job parses nothing before it.
    if (good.length > 0) await writeRows(job, good, (start, count) => ({ cursor: JSON.stringify(good[start + count - 1]!.after), passed: [] }))
  }

  /** The clicks of the links this job created, a page at a time after the job's cursor (where the last page imported ended). */
  async function importClicks(job: ImportJobRow, reader: Pick<SourceReader, 'clicks'>): Promise<void> {
    const linkIds = await jobs.linksOf(job.id)
    for (let cursor = job.cursor; ;) {
      const page = await reader.clicks(cursor, 5_000)
      if (!page) break
      cursor = page.last
      const clicks: EnrichedClick[] = page.clicks.flatMap((click) => {
        const linkId = linkIds.get(click.linkKey)
        if (linkId === undefined) return []
        return [{
          accountId: job.account_id,
          itemType: 'link' as const,
          itemId: linkId,
          createdAt: click.createdAt,
          referrerHost: click.referrerHost,
          language: click.language ?? null,
          visitorHash: '',
          country: click.country,
          agent: click.agent,
          // Only Linkwell's own export tells unique clicks: other sources do not tell visitors apart (ADR 021).
          isUnique: click.isUnique ?? false,
        }]
      })
      await jobs.transaction(async (trx) => {
        await writeImportedClicks(trx, clicks, `imported:${job.id}`)
        // A clicks file's line that cannot be read is skipped and reported with its line in that file.
        const problems = (page.unreadable ?? []).map((bad): ImportProblem => ({ line: bad.line, sourceKey: `clicks line ${bad.line}`, action: 'skipped', reason: `Clicks file, line ${bad.line}: ${bad.reason}`, alias: null }))
        await jobs.recordProgress(trx, job.id, { cursor, clicksImported: clicks.length, leaseUntil: leaseFromNow() }, problems)
      })
    }
  }

  /** Linkwell's own export: its links file (kept with the job), then its clicks file when one is given. */
  async function runLinkwellJob(job: ImportJobRow, clicks: Pick<SourceReader, 'clicks'> | undefined): Promise<void> {
    if (job.phase === 'links') {
      await runFileJob(job)
      await jobs.transaction((trx) => jobs.updateJob(trx, job.id, { phase: 'clicks', cursor: '0' }))
      job = (await jobs.findJobById(job.id))!
    }
    if (clicks) await importClicks(job, clicks)
  }

  /** A source database (YOURLS, Kutt, Shlink): its links a page at a time, then the clicks of the links this job created, each page with its cursor. */
  async function runDatabaseJob(job: ImportJobRow, reader: SourceReader): Promise<void> {
    const pageSize = Math.max(chunkSize, 1_000)
    if (job.phase === 'links') {
      for (let offset = Number(job.cursor); ; offset += pageSize) {
        const rows = await reader.links(offset, pageSize)
        const bad = rows.filter((row) => !row.input || row.problem)
        const good = rows.filter((row) => row.input && !row.problem)
        // Rows the source itself rules out (a banned link) are reported with the page's first chunk.
        if (bad.length > 0 && good.length === 0) {
          await jobs.transaction((trx) => jobs.recordProgress(trx, job.id, { cursor: String(offset + rows.length), rowsRead: bad.length, rowsSkipped: bad.length, leaseUntil: leaseFromNow() }, bad.map(sourceProblem)))
        } else if (good.length > 0) {
          // Rows are named by position (`line` − 1): each chunk moves the cursor to its last row's and reports the bad rows it passed.
          await writeRows(job, good, (start, count) => {
            const after = start === 0 ? offset : good[start - 1]!.line
            const cursor = start + count === good.length ? offset + rows.length : good[start + count - 1]!.line
            return { cursor: String(cursor), passed: bad.filter((row) => row.line - 1 >= after && row.line - 1 < cursor) }
          })
        }
        if (rows.length < pageSize) break
      }
      await jobs.transaction((trx) => jobs.updateJob(trx, job.id, { phase: 'clicks', cursor: '0' }))
      job = (await jobs.findJobById(job.id))!
    }
    await importClicks(job, reader)
  }

  /** Runs the job to its end (done, or failed with the reason); `sources` reads what is not a file. */
  async function runJob(jobId: number, sources: { reader?: SourceReader; clicks?: Pick<SourceReader, 'clicks'> } = {}): Promise<ImportJobRow> {
    let job = await jobs.findJobById(jobId)
    if (!job) throw NotFoundError.of('Import')
    try {
      if ((FILE_SOURCES as readonly string[]).includes(job.source)) await runFileJob(job)
      else if (job.source === 'linkwell') await runLinkwellJob(job, sources.clicks)
      else if ((DATABASE_SOURCES as readonly string[]).includes(job.source) && sources.reader) await runDatabaseJob(job, sources.reader)
      else throw new ValidationError(`No reader for the source "${job.source}" here.`)
      await jobs.finishJob(job.id, 'done', null)
    } catch (error) {
      await jobs.finishJob(job.id, 'failed', error instanceof AppError ? error.message : `The import stopped: ${(error as Error).message}`)
      if (!(error instanceof AppError)) throw error
    }
    return (await jobs.findJobById(jobId))!
  }

  return {
    runJob,

    /** Queues an import of an uploaded file; the served instance's worker runs it. Refuses a file it cannot read at all (400). */
    async startFileImport(account: AuthenticatedAccount, request: { source: FileSource; fileName: string; content: string; options: ImportOptions }): Promise<number> {
      if (!CONFLICT_CHOICES.includes(request.options.onconflict)) throw ValidationError.field('onconflict', `must be one of ${CONFLICT_CHOICES.join(', ')}`)
      parseColumnMap(request.options.map)
      // Checked now (a header with a destination column, at most maxRows rows), so a file that cannot be an import is refused before it is a job.
      await checkFileRows(request.source, slicesOf(request.content), { map: request.options.map, maxRows })
      return jobs.insertJob({
        accountId: account.id,
        personId: account.personId,
        keyId: account.keyId,
        via: account.via,
        source: request.source,
        sourceName: request.fileName.slice(0, 200),
        runner: 'server',
        options: JSON.stringify(request.options),
      }, request.content)
    },

    /** The job and the first problems of its report. */
    async getImport(accountId: number, id: number) {
      const job = await jobs.findJob(accountId, id)
      if (!job) throw NotFoundError.of('Import')
      return { job, problems: await jobs.problemsOf(id, REPORTED_PROBLEMS) }
    },

    /** Every row of the job's report as CSV lines (header first), read a page at a time: not only the first 1,000. */
    async reportLines(accountId: number, id: number): Promise<AsyncIterable<string>> {
      const job = await jobs.findJob(accountId, id)
      if (!job) throw NotFoundError.of('Import')
      return (async function* () {
        yield REPORT_CSV_HEADER
        for (let after: { line: number | null; id: number } | null = null; ;) {
          const rows = await jobs.reportPage(id, after, 1_000)
          for (const row of rows) yield toReportCsvLine(row)
          if (rows.length < 1_000) return
          const last = rows[rows.length - 1]!
          after = { line: last.line, id: last.id }
        }
      })()
    },

    listImports(accountId: number, page: PageRequest) {
      return jobs.listJobs(accountId, page)
    },

    /** Takes one job no worker holds; answers its id, or undefined. */
    claimJob(): Promise<number | undefined> {
      const now = nowTimestamp()
      return jobs.claimJob(now, leaseFromNow())
    },

    /**
     * Imports (or resumes importing) a source database for the command line (YOURLS: MySQL/MariaDB;
     * Kutt: SQLite or PostgreSQL; Shlink: PostgreSQL, MySQL/MariaDB or SQLite): its address with the
     * password is used here only, never stored. A source that cannot be read (wrong password, no such
     * host, a missing table) fails the job with the reason, before anything is written.
     */
    async importDatabase(actor: { id: number }, source: DatabaseSource, request: { url: string; prefix?: string; onconflict: ConflictChoice }): Promise<ImportJobRow> {
      if (!CONFLICT_CHOICES.includes(request.onconflict)) throw ValidationError.field('onconflict', `must be one of ${CONFLICT_CHOICES.join(', ')}`)
      const dialect = sourceDialectOf(request.url)
      if (!dialect || !SOURCE_DIALECTS[source].includes(dialect)) {
        throw ValidationError.field('database', `must be a ${SOURCE_DIALECTS[source].map((name) => DIALECT_ADDRESSES[name]).join(' or ')} address for ${source}`)
      }
      const prefix = request.prefix ?? (source === 'yourls' ? 'yourls_' : '')
      const sourceName = `${sourceNameOf(request.url)}${prefix ? `#${prefix}` : ''}`
      const id = await this.startCommandLineImport(actor, source, sourceName, { onconflict: request.onconflict, ...(prefix ? { prefix } : {}) })
      const label = SOURCE_LABELS[source]
      let database: SqlSource
      try {
        database = await openSqlSource(request.url)
      } catch (error) {
        const reason = `The ${label} database cannot be read: ${(error as Error).message.split('\n')[0]}`
        await jobs.finishJob(id, 'failed', reason)
        throw new ValidationError(reason)
      }
      try {
        let reader: SourceReader
        try {
          reader = await readerOf(source, database, prefix)
        } catch (error) {
          const reason = error instanceof AppError ? error.message : `The ${label} database cannot be read: ${(error as Error).message.split('\n')[0]}`
          await jobs.finishJob(id, 'failed', reason)
          throw new ValidationError(reason)
        }
        return await runJob(id, { reader })
      } finally {
        await database.close()
      }
    },

    /**
     * Imports (or resumes importing) Linkwell's own export for the command line: the links file
     * (`GET /api/export/links?format=csv`, kept with the job until it ends) and, when given, the clicks
     * file (`GET /api/export/clicks?format=csv|ndjson`), read a line at a time from `clicks.open()`.
     */
    async importLinkwell(actor: { id: number }, request: { linksName: string; links: string; clicks?: { name: string; open: () => AsyncIterable<string> }; onconflict: ConflictChoice }): Promise<ImportJobRow> {
      if (!CONFLICT_CHOICES.includes(request.onconflict)) throw ValidationError.field('onconflict', `must be one of ${CONFLICT_CHOICES.join(', ')}`)
      await checkFileRows('linkwell', slicesOf(request.links), { maxRows })
      const sourceName = `${request.linksName}${request.clicks ? ` + ${request.clicks.name}` : ''}`.slice(0, 200)
      const id = await this.startCommandLineImport(actor, 'linkwell', sourceName, { onconflict: request.onconflict }, request.links)
      return runJob(id, request.clicks ? { clicks: createExportedClicksReader(request.clicks.open) } : {})
    },

    /** Starts (or resumes) a command-line import: an unfinished one of the same source is resumed. */
    async startCommandLineImport(actor: { id: number }, source: string, sourceName: string, importOptions: ImportOptions, content: string | null = null): Promise<number> {
      const unfinished = await jobs.findUnfinished(actor.id, source, sourceName)
      const id = unfinished?.id ?? await jobs.insertJob({ accountId: actor.id, personId: null, keyId: null, via: 'cli', source, sourceName, runner: 'cli', options: JSON.stringify(importOptions) }, content)
      await jobs.holdJob(id, leaseFromNow())
      return id
    },
  }
}

export type ImportService = ReturnType<typeof createImportService>
