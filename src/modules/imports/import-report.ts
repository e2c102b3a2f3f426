// An import's report as the API and its CSV download tell it (issue 42): every row not imported
// plainly as given, what became of it and why, with its address in the source and here.
import { csvLine } from '../../core/csv.js'

export function toImportProblem(row: { line: number | null; source_key: string | null; action: string; reason: string; alias: string | null; old_alias: string | null }) {
  const imported = row.action === 'renamed' || row.action === 'existing' || row.action === 'changed'
  return { line: row.line, key: row.source_key, action: row.action, reason: row.reason, alias: row.alias, oldalias: row.old_alias ?? (imported ? null : row.alias), newalias: imported ? row.alias : null }
}

export const REPORT_CSV_HEADER = csvLine(['line', 'key', 'action', 'old_alias', 'new_alias', 'reason'])

/** One row of the report's CSV download. */
export function toReportCsvLine(row: Parameters<typeof toImportProblem>[0]): string {
  const problem = toImportProblem(row)
  return csvLine([problem.line, problem.key, problem.action, problem.oldalias, problem.newalias, problem.reason])
}
