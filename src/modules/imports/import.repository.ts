// SQL of import jobs (migration 021): the job rows, the file a job reads, its rows' problems and
// the links it created. Reads are scoped by account; the worker's claims are not (it serves all).
import type { Transaction, Updateable } from 'kysely'
import type { DB } from '../../db/database.js'
import type { Database, ImportJobsTable } from '../../db/schema.js'
import { fetchOwnedPage, findOwnedRow } from '../../db/owned-rows.js'
import { skippingLockedRows } from '../../db/row-claims.js'
import type { PageRequest } from '../../core/paging.js'
import { nowTimestamp } from '../../core/time.js'

export interface NewImportJob {
  accountId: number
  personId: number | null
  keyId: number | null
  via: string
  source: string
  sourceName: string
  runner: 'server' | 'cli'
  options: string
}

/**
 * One row of a job's report: what became of a source row and why. `skipped`: not imported;
 * `renamed`: imported at another address; `existing`: the workspace already had it (same address
 * and destination); `changed`: imported with something changed (a tag shortened); `failed`.
 */
export interface ImportProblem {
  line: number | null
  sourceKey: string | null
  action: 'skipped' | 'renamed' | 'existing' | 'changed' | 'failed'
  reason: string
  /** The address here (the new one of a renamed link), or the row's own when it was not imported. */
  alias: string | null
  /** The row's address in its source. */
  oldAlias?: string | null
}

/** What a chunk adds to a job's counts. */
export interface JobProgress {
  cursor: string
  rowsRead?: number
  linksCreated?: number
  linksRenamed?: number
  linksExisting?: number
  rowsSkipped?: number
  clicksImported?: number
  leaseUntil: string | null
}

export function createImportRepository(db: DB) {
  return {
    /** Runs `work` in one transaction (a job's first pass: its unreadable rows and its size together). */
    transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work)
    },

    async insertJob(job: NewImportJob, content: string | null): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const now = nowTimestamp()
        const { id } = await trx.insertInto('import_jobs').values({
          account_id: job.accountId, person_id: job.personId, key_id: job.keyId, via: job.via, source: job.source, source_name: job.sourceName,
          runner: job.runner, options: job.options, state: 'queued', total_rows: null, error: null, lease_until: null, created_at: now, updated_at: now, finished_at: null,
        }).returning('id').executeTakeFirstOrThrow()
        if (content !== null) await trx.insertInto('import_files').values({ job_id: id, content }).execute()
        return id
      })
    },

    findJob(accountId: number, id: number) {
      return findOwnedRow(db, 'import_jobs', accountId, id)
    },

    findJobById(id: number) {
      return db.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /** An unfinished job of the command line with the same account, source and source name (resumed, not started again). */
    findUnfinished(accountId: number, source: string, sourceName: string) {
      return db.selectFrom('import_jobs').selectAll().where('account_id', '=', accountId).where('source', '=', source).where('source_name', '=', sourceName)
        .where('runner', '=', 'cli').where('state', 'in', ['queued', 'running']).orderBy('id', 'desc').executeTakeFirst()
    },

    listJobs(accountId: number, page: PageRequest) {
      return fetchOwnedPage(db, 'import_jobs', accountId, page)
    },

    problemsOf(jobId: number, limit: number) {
      return db.selectFrom('import_problems').select(['line', 'source_key', 'action', 'reason', 'alias', 'old_alias']).where('job_id', '=', jobId).orderBy('line').orderBy('id').limit(limit).execute()
    },

    /** Every row of a job's report, a page at a time after the row id `after` (the CSV download). */
    /**
     * A page of the whole report in the order of the source's lines, after `after` (the last row of
     * the page before, or null for the first page). Rows without a line come first, in the order written.
     */
    reportPage(jobId: number, after: { line: number | null; id: number } | null, limit: number) {
      let query = db.selectFrom('import_problems').select(['id', 'line', 'source_key', 'action', 'reason', 'alias', 'old_alias']).where('job_id', '=', jobId)
      if (after === null || after.line === null) {
        const withoutLine = query.where('line', 'is', null).where('id', '>', after?.id ?? 0).orderBy('id').limit(limit)
        // Past the rows without a line: the numbered ones from their first.
        return withoutLine.execute().then(async (rows) => (rows.length === limit ? rows : [...rows, ...(await query.where('line', 'is not', null).orderBy('line').orderBy('id').limit(limit - rows.length).execute())]))
      }
      query = query.where((eb) => eb.or([eb('line', '>', after.line), eb.and([eb('line', '=', after.line), eb('id', '>', after.id)])]))
      return query.orderBy('line').orderBy('id').limit(limit).execute()
    },

    /**
     * Those of `linkIds` an earlier job of the same account, source and source name listed as its
     * links (their clicks came with it): a re-run takes no click twice.
     */
    async linkedBefore(trx: DB, job: { id: number; account_id: number; source: string; source_name: string }, linkIds: readonly number[]): Promise<Set<number>> {
      if (linkIds.length === 0) return new Set()
      const rows = await trx.selectFrom('import_links').innerJoin('import_jobs', 'import_jobs.id', 'import_links.job_id').select('import_links.link_id')
        .where('import_jobs.account_id', '=', job.account_id).where('import_jobs.source', '=', job.source).where('import_jobs.source_name', '=', job.source_name)
        .where('import_jobs.id', '<>', job.id).where('import_links.link_id', 'in', [...linkIds]).execute()
      return new Set(rows.map((row) => row.link_id))
    },

    async fileOf(jobId: number): Promise<string | undefined> {
      return (await db.selectFrom('import_files').select('content').where('job_id', '=', jobId).executeTakeFirst())?.content
    },

    /** Takes one server job nobody holds (queued, or running with its lease ended): it is held until `leaseUntil`. */
    async claimJob(now: string, leaseUntil: string): Promise<number | undefined> {
      const due = skippingLockedRows(db, db.selectFrom('import_jobs').select('id').where('runner', '=', 'server').where('state', 'in', ['queued', 'running'])
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)])).orderBy('id').limit(1))
      const taken = await db.updateTable('import_jobs').set({ state: 'running', lease_until: leaseUntil, updated_at: now }).where('id', 'in', due).returning('id').execute()
      return taken[0]?.id
    },

    /** Holds a job for the command line that runs it. */
    async holdJob(id: number, leaseUntil: string): Promise<void> {
      await db.updateTable('import_jobs').set({ state: 'running', lease_until: leaseUntil, updated_at: nowTimestamp() }).where('id', '=', id).execute()
    },

    /** Adds a chunk's progress and problems on `trx`, the chunk's own transaction. */
    async recordProgress(trx: DB, jobId: number, progress: JobProgress, problems: readonly ImportProblem[], created: readonly { sourceKey: string; linkId: number }[] = []): Promise<void> {
      await trx.updateTable('import_jobs').set((eb) => ({
        cursor: progress.cursor,
        rows_read: eb('rows_read', '+', progress.rowsRead ?? 0),
        links_created: eb('links_created', '+', progress.linksCreated ?? 0),
        links_renamed: eb('links_renamed', '+', progress.linksRenamed ?? 0),
        links_existing: eb('links_existing', '+', progress.linksExisting ?? 0),
        rows_skipped: eb('rows_skipped', '+', progress.rowsSkipped ?? 0),
        clicks_imported: eb('clicks_imported', '+', progress.clicksImported ?? 0),
        lease_until: progress.leaseUntil,
        updated_at: nowTimestamp(),
      })).where('id', '=', jobId).execute()
      if (problems.length > 0) {
        await trx.insertInto('import_problems').values(problems.map((problem) => ({
          job_id: jobId, line: problem.line, source_key: problem.sourceKey, action: problem.action, reason: problem.reason.slice(0, 500), alias: problem.alias, old_alias: problem.oldAlias ?? null,
        }))).execute()
      }
      for (let start = 0; start < created.length; start += 500) {
        await trx.insertInto('import_links').values(created.slice(start, start + 500).map((row) => ({ job_id: jobId, source_key: row.sourceKey, link_id: row.linkId }))).execute()
      }
    },

    async updateJob(trx: DB, jobId: number, changes: Updateable<ImportJobsTable>): Promise<void> {
      await trx.updateTable('import_jobs').set({ ...changes, updated_at: nowTimestamp() }).where('id', '=', jobId).execute()
    },

    /** Ends a job (done or failed): its file is dropped, its report kept. */
    async finishJob(jobId: number, state: 'done' | 'failed', error: string | null): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const now = nowTimestamp()
        await trx.updateTable('import_jobs').set({ state, error, lease_until: null, finished_at: now, updated_at: now }).where('id', '=', jobId).execute()
        await trx.deleteFrom('import_files').where('job_id', '=', jobId).execute()
      })
    },

    /** The links a job created, by the source's key (a resumed job's clicks phase). */
    async linksOf(jobId: number): Promise<Map<string, number>> {
      const rows = await db.selectFrom('import_links').select(['source_key', 'link_id']).where('job_id', '=', jobId).execute()
      return new Map(rows.map((row) => [row.source_key, row.link_id]))
    },

    idsByName(table: 'campaigns' | 'channels', accountId: number, names: string[]) {
      return idsByName(db, table, accountId, names)
    },

    /** The account's plan limits now (a job runs long after its request). */
    async limitsJson(accountId: number): Promise<string | undefined> {
      const row = await db.selectFrom('accounts').innerJoin('plans', 'plans.id', 'accounts.plan_id').select('plans.limits').where('accounts.id', '=', accountId).executeTakeFirst()
      return row?.limits
    },
  }
}

export type ImportRepository = ReturnType<typeof createImportRepository>
export type ImportJobRow = NonNullable<Awaited<ReturnType<ImportRepository['findJobById']>>>

/** The account's campaigns or channels among `names` (letter case folded), by folded name. */
export async function idsByName(db: DB, table: 'campaigns' | 'channels', accountId: number, names: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>()
  if (names.length === 0) return found
  const rows = await db.selectFrom(table).select(['id', 'name']).where('account_id', '=', accountId)
    .where((eb) => eb(eb.fn<string>('lower', ['name']), 'in', names.map((name) => name.toLowerCase()))).execute()
  for (const row of rows) found.set(row.name.toLowerCase(), row.id)
  return found
}
