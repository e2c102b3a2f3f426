// Shapes of the import endpoints (issue 21).
import { Type } from 'typebox'
import { DateTime, listResponse } from '../../core/schemas.js'
import { CONFLICT_CHOICES } from '../links/link-batch.js'
import { CSV_FIELDS } from './file-sources.js'
import { FILE_SOURCES } from './import.service.js'
import type { ImportJobRow } from './import.repository.js'

/** The form `POST /api/import` takes (multipart/form-data; documented, read by the handler). */
export const ImportUploadBody = Type.Object({
  file: Type.String({ format: 'binary', description: 'the CSV file' }),
  source: Type.Optional(Type.Union(FILE_SOURCES.map((source) => Type.Literal(source)), { description: '`csv` (default: any CSV with a header) or `bitly` (the CSV a Bitly account exports)' })),
  onconflict: Type.Optional(Type.Union(CONFLICT_CHOICES.map((choice) => Type.Literal(choice)), {
    description: 'an alias another record holds: `skip` the row (default), `rename` it (alias-2, …), or `fail` the import before anything is written',
  })),
  map: Type.Optional(Type.String({ description: `header=field pairs separated by commas, for headers not named after the fields (${CSV_FIELDS.join(', ')})` })),
})

const ImportProblem = Type.Object({
  line: Type.Union([Type.Integer(), Type.Null()], { description: 'the file\'s line (the header is line 1)' }),
  key: Type.Union([Type.String(), Type.Null()], { description: 'the row in its source (alias, or line)' }),
  action: Type.String({ description: 'skipped (not imported) | renamed (imported at another address) | existing (the workspace had it: same address and destination) | changed (imported with a change, such as a tag shortened) | failed' }),
  reason: Type.String({ description: 'what happened and why' }),
  alias: Type.Union([Type.String(), Type.Null()]),
  oldalias: Type.Union([Type.String(), Type.Null()], { description: 'the row\'s address in its source' }),
  newalias: Type.Union([Type.String(), Type.Null()], { description: 'its address here (null when not imported)' }),
})

const importFields = {
  id: Type.Integer(),
  source: Type.String({ description: 'csv | bitly | yourls' }),
  name: Type.String({ description: 'the file\'s name, or the source database without its password' }),
  state: Type.String({ description: 'queued | running | done | failed' }),
  onconflict: Type.String(),
  total: Type.Union([Type.Integer(), Type.Null()], { description: 'rows in the source, once known' }),
  processed: Type.Integer({ description: 'rows handled so far' }),
  created: Type.Integer({ description: 'links created (renamed ones included)' }),
  renamed: Type.Integer(),
  existing: Type.Integer({ description: 'rows whose link the account already had (same domain, alias and destination): not written again' }),
  skipped: Type.Integer({ description: 'rows not imported (see problems)' }),
  clicks: Type.Integer({ description: 'clicks imported' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'why a failed import stopped' }),
  date: DateTime,
  finished: Type.Union([DateTime, Type.Null()]),
}

export const ImportSummary = Type.Object(importFields)
export const ImportListResponse = listResponse('imports', ImportSummary)
export const ImportDetailsResponse = Type.Object({
  error: Type.Literal(0),
  import: Type.Object({ ...importFields, problems: Type.Array(ImportProblem, { description: 'the first 1,000 rows not imported as given' }) }),
})
export const ImportStartedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer(), state: Type.String() })

/** A job as the API shows it. */
export function toImportSummary(job: ImportJobRow) {
  return {
    id: job.id,
    source: job.source,
    name: job.source_name,
    state: job.state,
    onconflict: (JSON.parse(job.options) as { onconflict: string }).onconflict,
    total: job.total_rows,
    processed: job.rows_read,
    created: job.links_created,
    renamed: job.links_renamed,
    existing: job.links_existing,
    skipped: job.rows_skipped,
    clicks: job.clicks_imported,
    error: job.error,
    date: job.created_at,
    finished: job.finished_at,
  }
}

export { toImportProblem } from './import-report.js'

export const ImportReportQuery = Type.Object({
  format: Type.Optional(Type.Literal('csv', { description: 'csv (the only format; default)' })),
})
