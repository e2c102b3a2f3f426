// Imports (issue 21, ADR 021): a background job per import, with its source, options, counts and a
// resume cursor; the uploaded file it reads (kept until the job ends, so a restart can resume);
// the problems of its rows; and the links it created, by the source's key (a resumed job finds
// the links whose clicks it still has to import).
import type { Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)
  await addIdColumn(db.schema.createTable('import_jobs'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    // Who started it, for the audit rows of what it writes.
    .addColumn('person_id', 'integer')
    .addColumn('key_id', 'integer')
    .addColumn('via', 'text', (col) => col.notNull())
    // csv | bitly | yourls
    .addColumn('source', 'text', (col) => col.notNull())
    // The file's name or the database's address without its password.
    .addColumn('source_name', 'text', (col) => col.notNull())
    // server: a served instance runs it; cli: the command that started it does (it holds the source's password).
    .addColumn('runner', 'text', (col) => col.notNull())
    // JSON: onconflict, map, prefix.
    .addColumn('options', 'text', (col) => col.notNull())
    // queued | running | done | failed
    .addColumn('state', 'text', (col) => col.notNull())
    // links | clicks
    .addColumn('phase', 'text', (col) => col.notNull().defaultTo('links'))
    // Source rows handled so far (links phase), then the last source click id imported (clicks phase).
    .addColumn('cursor', 'text', (col) => col.notNull().defaultTo('0'))
    .addColumn('total_rows', 'integer')
    .addColumn('rows_read', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('links_created', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('links_renamed', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('links_existing', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('rows_skipped', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('clicks_imported', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('error', 'text')
    // A worker holds the job until then (renewed per chunk); after it, another may take it over.
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .execute()
  await db.schema.createIndex('import_jobs_account_id').on('import_jobs').columns(['account_id', 'id']).execute()
  await db.schema.createIndex('import_jobs_state').on('import_jobs').columns(['state', 'lease_until']).execute()

  await db.schema.createTable('import_files')
    .addColumn('job_id', 'integer', (col) => col.primaryKey().references('import_jobs.id').onDelete('cascade'))
    .addColumn('content', 'text', (col) => col.notNull())
    .execute()

  await addIdColumn(db.schema.createTable('import_problems'), dialect)
    .addColumn('job_id', 'integer', (col) => col.notNull().references('import_jobs.id').onDelete('cascade'))
    // The file's line (CSV, counting the header as 1) or the source row's key.
    .addColumn('line', 'integer')
    .addColumn('source_key', 'text')
    // skipped | renamed | failed
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('alias', 'text')
    .execute()
  await db.schema.createIndex('import_problems_job_id').on('import_problems').columns(['job_id', 'id']).execute()

  await db.schema.createTable('import_links')
    .addColumn('job_id', 'integer', (col) => col.notNull().references('import_jobs.id').onDelete('cascade'))
    .addColumn('source_key', 'text', (col) => col.notNull())
    .addColumn('link_id', 'integer', (col) => col.notNull().references('links.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('import_links_pk', ['job_id', 'source_key'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_links').execute()
  await db.schema.dropTable('import_problems').execute()
  await db.schema.dropTable('import_files').execute()
  await db.schema.dropTable('import_jobs').execute()
}
