// Imports (issue 21, ADR 021): a job per import, run in the background. A job reads its source
// from its cursor on, writes the rows through the link batch (modules/links/link-batch.ts) in
// chunks, and records each chunk's progress, problems and created links in the chunk's own
// transaction: a job stopped anywhere (a restart) resumes at its cursor and writes nothing twice.
// A link already in the account at the same domain and alias is the same link: it is counted as
// existing, not written again, so the same import run twice imports nothing twice.
import type { AuthenticatedAccount } from '../accounts/account.service.js'
import { parsePlanLimits } from '../accounts/account.service.js'
import type { ActorVia } from '../changes/change-journal.js'
import { BatchConflict, CONFLICT_CHOICES, type BatchOutcome, type BatchWriter, type ConflictChoice, type LinkBatchWriter } from '../links/link-batch.js'
import type { ImportJobRow, ImportProblem, ImportRepository } from './import.repository.js'
import { parseColumnMap, readFileRows, type SourceRow } from './file-sources.js'
import { AppError, NotFoundError, ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { nowTimestamp } from '../../core/time.js'
import { memoize } from '../../core/memoize.js'
import { writeEnrichedClicks, type EnrichedClick } from '../../analytics/click-writer.js'
import { referrerHostOf } from '../../analytics/click-enrichment.js'
import { describeUserAgent, type AgentDescription } from '../../analytics/visitor-parser.js'
import { checkYourlsTables, createYourlsReader, type YourlsReader } from './yourls-source.js'
import { openMysqlSource, withoutPassword, type MysqlSource } from '../../db/mysql-source.js'

export const FILE_SOURCES = ['csv', 'bitly'] as const
export type FileSource = (typeof FILE_SOURCES)[number]

/** Problems a job's report shows (the counts cover every row). */
export const REPORTED_PROBLEMS = 1_000

export interface ImportOptions {
  onconflict: ConflictChoice
  map?: string
  prefix?: string
}

export interface ImportServiceOptions {
  /** Rows per transaction. */
  chunkSize?: number
  /** How long a running job stays with its worker without progress before another may take it. */
  leaseMs?: number
  /** Runs in each chunk's transaction after its bookkeeping (tests stop a job there, as a crash would). */
  afterChunk?: (jobId: number) => Promise<void>
}

function readOptions(job: ImportJobRow): ImportOptions {
  return JSON.parse(job.options) as ImportOptions
}

export function createImportService(jobs: ImportRepository, linkBatch: LinkBatchWriter, options: ImportServiceOptions = {}) {
  const chunkSize = options.chunkSize ?? 200
  const leaseMs = options.leaseMs ?? 60_000
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

  /** Campaign and channel names of the rows as ids of the account's; a name it does not have is the row's problem. */
  async function resolveNames(accountId: number, rows: SourceRow[]): Promise<void> {
    for (const [field, table, resource] of [['campaign', 'campaigns', 'campaign'], ['channel', 'channels', 'channel']] as const) {
      const names = [...new Set(rows.flatMap((row) => (row.input && row[field] && !/^\d+$/.test(row[field]!) ? [row[field]!] : [])))]
      const ids = await jobs.idsByName(table, accountId, names)
      for (const row of rows) {
        const given = row[field]
        if (!row.input || given === undefined) continue
        const id = /^\d+$/.test(given) ? Number(given) : ids.get(given.toLowerCase())
        if (id === undefined) row.problem = `The account has no ${resource} named "${given.slice(0, 60)}".`
        else row.input[field] = id
      }
    }
  }

  /** The report lines of a chunk's outcomes. */
  function problemsOf(rows: readonly SourceRow[], outcomes: readonly BatchOutcome[]): ImportProblem[] {
    return outcomes.flatMap((outcome, index): ImportProblem[] => {
      const row = rows[index]!
      if (outcome.status === 'refused') return [{ line: row.line, sourceKey: row.key, action: 'skipped', reason: outcome.error.message, alias: row.input?.custom ?? null }]
      if (outcome.status === 'created' && outcome.renamedFrom) {
        return [{ line: row.line, sourceKey: row.key, action: 'renamed', reason: `The alias "${outcome.renamedFrom}" is taken: imported as "${outcome.alias}".`, alias: outcome.alias }]
      }
      return []
    })
  }

  /** Writes `rows` (those not yet written: the cursor's on) through the link batch, recording progress per chunk. */
  async function writeRows(job: ImportJobRow, rows: SourceRow[], firstIndex: number): Promise<void> {
    const writer = await writerOf(job)
    const { onconflict } = readOptions(job)
    try {
      await linkBatch.writeLinks(writer, rows.map((row) => ({ input: row.input!, createdAt: row.createdAt })), {
        onConflict: onconflict,
        sameAddressIsSameLink: true,
        chunkSize,
        inChunk: async (trx, { start, outcomes }) => {
          const chunkRows = rows.slice(start, start + outcomes.length)
          const count = (test: (outcome: BatchOutcome) => boolean) => outcomes.filter(test).length
          await jobs.recordProgress(trx, job.id, {
            cursor: String(firstIndex + start + outcomes.length),
            rowsRead: outcomes.length,
            linksCreated: count((outcome) => outcome.status === 'created'),
            linksRenamed: count((outcome) => outcome.status === 'created' && outcome.renamedFrom !== undefined),
            linksExisting: count((outcome) => outcome.status === 'existing'),
            rowsSkipped: count((outcome) => outcome.status === 'refused'),
            leaseUntil: leaseFromNow(),
          }, problemsOf(chunkRows, outcomes), outcomes.flatMap((outcome, index) => (outcome.status === 'created' ? [{ sourceKey: chunkRows[index]!.key, linkId: outcome.id }] : [])))
          await options.afterChunk?.(job.id)
        },
      })
    } catch (error) {
      if (error instanceof BatchConflict) {
        const row = rows[error.row]
        throw new ValidationError(`Line ${row?.line ?? '?'}: ${error.message.replace(/^Row \d+: /, '')} (on conflict: fail; nothing of this import was written)`)
      }
      throw error
    }
  }

  async function runFileJob(job: ImportJobRow): Promise<void> {
    const content = await jobs.fileOf(job.id)
    if (content === undefined) throw new ValidationError('The uploaded file is no longer there.')
    const rows = readFileRows(job.source as FileSource, content, readOptions(job).map)
    await resolveNames(job.account_id, rows)
    const good = rows.filter((row) => row.input && !row.problem)
    if (job.total_rows === null) {
      // The first run records the rows that cannot be imported at all, and how many there are, once.
      const bad = rows.filter((row) => !row.input || row.problem)
      await jobs.transaction(async (trx) => {
        await jobs.recordProgress(trx, job.id, { cursor: '0', rowsRead: bad.length, rowsSkipped: bad.length, leaseUntil: leaseFromNow() },
          bad.map((row) => ({ line: row.line, sourceKey: row.key, action: 'skipped', reason: row.problem ?? 'Unreadable.', alias: row.input?.custom ?? null })))
        await jobs.updateJob(trx, job.id, { total_rows: rows.length })
      })
    }
    const cursor = Number(job.cursor)
    if (cursor < good.length) await writeRows(job, good.slice(cursor), cursor)
  }

  /** YOURLS: its links a page at a time, then the clicks of the links this job created, each page with its cursor. */
  async function runYourlsJob(job: ImportJobRow, reader: YourlsReader): Promise<void> {
    const pageSize = Math.max(chunkSize, 1_000)
    if (job.phase === 'links') {
      for (let offset = Number(job.cursor); ; offset += pageSize) {
        const rows = await reader.links(offset, pageSize)
        if (rows.length > 0) await writeRows(job, rows, offset)
        if (rows.length < pageSize) break
      }
      await jobs.transaction((trx) => jobs.updateJob(trx, job.id, { phase: 'clicks', cursor: '0' }))
      job = (await jobs.findJobById(job.id))!
    }
    const linkIds = await jobs.linksOf(job.id)
    const describe = memoize<AgentDescription>(describeUserAgent, 2_000)
    for (let afterId = Number(job.cursor); ;) {
      const page = await reader.clicks(afterId, 5_000)
      if (page.length === 0) break
      afterId = page[page.length - 1]!.click_id
      const clicks: EnrichedClick[] = page.flatMap((click) => {
        const linkId = linkIds.get(click.shorturl)
        if (linkId === undefined) return []
        return [{
          accountId: job.account_id,
          itemType: 'link' as const,
          itemId: linkId,
          createdAt: click.click_time.slice(0, 19),
          // YOURLS writes "direct" when the visit had none.
          referrerHost: click.referrer && click.referrer !== 'direct' ? referrerHostOf(click.referrer) : null,
          language: null,
          visitorHash: 'imported',
          country: /^[A-Z]{2}$/i.test(click.country_code) ? click.country_code.toUpperCase() : null,
          agent: describe(click.user_agent),
          // YOURLS does not tell visitors apart: no imported click is counted as a unique one.
          isUnique: false,
        }]
      })
      const cursor = String(afterId)
      await jobs.transaction(async (trx) => {
        await writeEnrichedClicks(trx, clicks)
        await jobs.recordProgress(trx, job.id, { cursor, clicksImported: clicks.length, leaseUntil: leaseFromNow() }, [])
      })
    }
  }

  /** Runs the job to its end (done, or failed with the reason); `sources` reads what is not a file. */
  async function runJob(jobId: number, sources: { yourls?: YourlsReader } = {}): Promise<ImportJobRow> {
    let job = await jobs.findJobById(jobId)
    if (!job) throw NotFoundError.of('Import')
    try {
      if ((FILE_SOURCES as readonly string[]).includes(job.source)) await runFileJob(job)
      else if (job.source === 'yourls' && sources.yourls) await runYourlsJob(job, sources.yourls)
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
      // Checked now (a header, a destination column), so a file that cannot be an import is refused before it is a job.
      readFileRows(request.source, request.content, request.options.map)
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

    listImports(accountId: number, page: PageRequest) {
      return jobs.listJobs(accountId, page)
    },

    /** Takes one job no worker holds; answers its id, or undefined. */
    claimJob(): Promise<number | undefined> {
      const now = nowTimestamp()
      return jobs.claimJob(now, leaseFromNow())
    },

    /**
     * Imports (or resumes importing) a YOURLS database for the command line: its address with the
     * password is used here only, never stored. A source that cannot be read fails the job with
     * the reason, before anything is written.
     */
    async importYourls(actor: { id: number }, request: { url: string; prefix: string; onconflict: ConflictChoice }): Promise<ImportJobRow> {
      const sourceName = `${withoutPassword(request.url)}#${request.prefix}`
      const id = await this.startCommandLineImport(actor, 'yourls', sourceName, { onconflict: request.onconflict, prefix: request.prefix })
      let source: MysqlSource
      try {
        source = await openMysqlSource(request.url)
      } catch (error) {
        const reason = `The YOURLS database cannot be read: ${(error as Error).message}`
        await jobs.finishJob(id, 'failed', reason)
        throw new ValidationError(reason)
      }
      try {
        try {
          await checkYourlsTables(source, request.prefix)
        } catch (error) {
          await jobs.finishJob(id, 'failed', (error as Error).message)
          throw error
        }
        return await runJob(id, { yourls: createYourlsReader(source, request.prefix) })
      } finally {
        await source.close()
      }
    },

    /** Starts (or resumes) a command-line import: an unfinished one of the same source is resumed. */
    async startCommandLineImport(actor: { id: number }, source: string, sourceName: string, importOptions: ImportOptions): Promise<number> {
      const unfinished = await jobs.findUnfinished(actor.id, source, sourceName)
      const id = unfinished?.id ?? await jobs.insertJob({ accountId: actor.id, personId: null, keyId: null, via: 'cli', source, sourceName, runner: 'cli', options: JSON.stringify(importOptions) }, null)
      await jobs.holdJob(id, leaseFromNow())
      return id
    },
  }
}

export type ImportService = ReturnType<typeof createImportService>
