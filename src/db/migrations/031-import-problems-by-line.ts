// An import's report is read in the order of its source's lines (the page's first rows and the
// whole CSV download, a page at a time): `(job_id, line, id)` serves both without sorting the
// report, however many rows it holds. The `(job_id, id)` index stays for the job's deletion.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('import_problems_job_line').on('import_problems').columns(['job_id', 'line', 'id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('import_problems_job_line').execute()
}
