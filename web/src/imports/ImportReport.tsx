// One import as a person follows it: a progress bar while the server works, then the report —
// what was created, what the account already had, what was not imported — and every row that was
// not imported as given, with its line in the file and the reason.
import { formatCount, formatDateTime } from '../components/format'
import { FormError } from '../components/FormError'
import type { ImportDetails, ImportProblem } from './import-queries'
import { isUnfinished } from './import-queries'

/** The words for an import's state. */
export const STATE_LABELS: Record<string, string> = {
  queued: 'Waiting to start',
  running: 'Importing',
  done: 'Finished',
  failed: 'Failed',
}

/** The words for where an import came from. */
export const SOURCE_LABELS: Record<string, string> = {
  csv: 'CSV file',
  bitly: 'Bitly export',
  yourls: 'YOURLS',
  kutt: 'Kutt',
  shlink: 'Shlink',
}

const ACTION_LABELS: Record<string, string> = {
  skipped: 'Not imported',
  renamed: 'New alias',
  existing: 'Already here',
  changed: 'Imported, changed',
  failed: 'Failed',
}

/** Results that imported the row (shown as good news). */
const IMPORTED_ACTIONS = new Set(['renamed', 'existing', 'changed'])

/** The server's problems list holds the first 1,000 (ADR 021). */
const LISTED_PROBLEMS = 1_000

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`
}

/** The row as the person knows it: its alias (without the domain's slash), or nothing when it had none. */
function rowName(problem: ImportProblem): string {
  if (problem.alias) return problem.alias
  if (problem.key && !problem.key.startsWith('line ')) return problem.key.replace(/^\//, '')
  return ''
}

export function ImportProgress({ job }: { job: ImportDetails }) {
  const known = job.total !== null && job.total > 0
  const label = job.state === 'queued'
    ? 'Waiting for the server to start this import…'
    : known ? `${formatCount(job.processed)} of ${plural(job.total!, 'row', 'rows')} read` : `${plural(job.processed, 'row', 'rows')} read`
  return (
    <div className="progress-block">
      <label htmlFor={`import-progress-${job.id}`} className="small">{label}{job.clicks > 0 ? ` · ${plural(job.clicks, 'click', 'clicks')} imported` : ''}</label>
      {/* Without a known total the bar has no value: the browser shows it as busy. */}
      {known ? <progress id={`import-progress-${job.id}`} max={job.total!} value={Math.min(job.processed, job.total!)} /> : <progress id={`import-progress-${job.id}`} />}
    </div>
  )
}

export function ImportReport({ job }: { job: ImportDetails }) {
  const running = isUnfinished(job.state)
  const hidden = job.skipped + job.renamed + job.existing - job.problems.length
  return (
    <div className="stack import-report">
      <div className="import-report-head">
        <div className="stack tight">
          <h2 id="import-report-title">{SOURCE_LABELS[job.source] ?? job.source}: <span className="import-name">{job.name}</span></h2>
          <p className="muted small">Started {formatDateTime(job.date)}{job.finished ? ` · ended ${formatDateTime(job.finished)}` : ''}</p>
        </div>
        <span className={`badge import-state ${job.state}`}>{STATE_LABELS[job.state] ?? job.state}</span>
      </div>

      {running && <ImportProgress job={job} />}
      <p className="visually-hidden" role="status" aria-live="polite">{running ? '' : `Import ${STATE_LABELS[job.state]?.toLowerCase() ?? job.state}.`}</p>

      {job.state === 'failed' && (
        <FormError message={<>
          <strong>The import stopped. </strong>{job.error ?? 'The server gave no reason.'}
          {job.created === 0 ? ' Nothing was imported.' : ' The links counted below were imported before it stopped; starting the same import again goes on from there without doubling them.'}
        </>} />
      )}

      <dl className="import-counts" aria-label="Import counts">
        <div className="import-count created"><dt>Links created</dt><dd>{formatCount(job.created)}</dd></div>
        <div className="import-count existing"><dt>Already in your account</dt><dd>{formatCount(job.existing)}</dd></div>
        <div className="import-count skipped"><dt>Not imported</dt><dd>{formatCount(job.skipped)}</dd></div>
        {(job.clicks > 0 || job.source === 'yourls') && <div className="import-count"><dt>Clicks imported</dt><dd>{formatCount(job.clicks)}</dd></div>}
      </dl>
      {job.renamed > 0 && <p className="small">{plural(job.renamed, 'link was', 'links were')} created under a new alias because the alias was taken (listed below).</p>}
      {job.existing > 0 && <p className="muted small">Links already in your account (same domain, alias and destination) were left as they are, so running an import again doubles nothing.</p>}

      {job.problems.length > 0 && (
        <section className="stack tight" aria-labelledby="import-problems-title">
          <h3 id="import-problems-title">Rows to look at</h3>
          <p className="muted small">Fix these lines in your file and import it again: the rows already imported will not be doubled.{' '}
            <a href={`/api/import/${job.id}/report?format=csv`} download>Download the whole report (CSV)</a></p>
          <div className="table-scroll">
            <table className="table compact stack-table import-problems" aria-labelledby="import-problems-title">
              <thead><tr><th scope="col">Line</th><th scope="col">Alias in the source</th><th scope="col">Alias here</th><th scope="col">Result</th><th scope="col">Reason</th></tr></thead>
              <tbody>
                {job.problems.map((problem, index) => (
                  <tr key={`${problem.line ?? problem.key}-${index}`}>
                    <td data-label="Line" className="numeric-left">{problem.line ?? '—'}</td>
                    <td data-label="Alias in the source" className="import-alias">{problem.oldalias ?? (rowName(problem) || <span className="muted">none</span>)}</td>
                    <td data-label="Alias here" className="import-alias">{problem.newalias ?? <span className="muted">—</span>}</td>
                    <td data-label="Result" className="nowrap"><span className={`status ${IMPORTED_ACTIONS.has(problem.action) ? 'ok' : 'failed'}`}>{ACTION_LABELS[problem.action] ?? problem.action}</span></td>
                    <td data-label="Reason" className="import-reason">{problem.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {hidden > 0 && job.problems.length >= LISTED_PROBLEMS && <p className="muted small">The first {formatCount(LISTED_PROBLEMS)} are listed; {plural(hidden, 'more row', 'more rows')} had problems too.</p>}
        </section>
      )}
      {job.state === 'done' && job.problems.length === 0 && <p className="status ok">{job.existing > 0 ? 'Every row was imported or was already in your account.' : 'Every row was imported.'}</p>}
    </div>
  )
}
