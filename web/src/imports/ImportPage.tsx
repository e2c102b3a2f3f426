// Moving in and out (issue 21): upload a CSV or a Bitly export and watch it import (the import
// runs on the server; the page asks for its progress every second), read its report, see past
// imports; the database sources (YOURLS, Kutt, Shlink) run on the server's command line, where the
// database password stays, so the page gives the exact command. Exports of links and clicks.
import { useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { ApiError } from '../api/client'
import { CopyButton } from '../components/CopyButton'
import { Field } from '../components/Field'
import { formatCount, formatDateTime } from '../components/format'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { useWorkspaces } from '../members/member-queries'
import { RoleNote, useMay } from '../members/RoleGuard'
import { ExportPanel } from './ExportPanel'
import { isUnfinished, useImport, useImportPage, useStartImport, useWatchedImport, type ConflictChoice, type FileSource } from './import-queries'
import { ImportReport, SOURCE_LABELS, STATE_LABELS } from './ImportReport'
import './imports.css'

type Source = FileSource | 'yourls' | 'kutt' | 'shlink'

const SOURCES: Array<{ value: Source; label: string; hint: string }> = [
  { value: 'csv', label: 'CSV file', hint: 'Any spreadsheet saved as CSV with a header row: url, alias, title, domain, created, campaign, channel, expiry.' },
  { value: 'bitly', label: 'Bitly export', hint: 'The CSV file Bitly lets you download of your links.' },
  { value: 'yourls', label: 'YOURLS', hint: 'Its MySQL or MariaDB database: links and every click.' },
  { value: 'kutt', label: 'Kutt', hint: 'Its database (PostgreSQL or SQLite): links and visits.' },
  { value: 'shlink', label: 'Shlink', hint: 'Its database (PostgreSQL, MySQL/MariaDB or SQLite): short URLs, tags and visits.' },
]

const CONFLICTS: Array<{ value: ConflictChoice; label: string; hint: string }> = [
  { value: 'skip', label: 'Skip that row', hint: 'It is listed in the report; everything else is imported.' },
  { value: 'rename', label: 'Import it under a new alias', hint: 'spring becomes spring-2; the report lists the new alias.' },
  { value: 'fail', label: 'Stop and import nothing', hint: 'Nothing is written while any alias is taken.' },
]

// How a person who is not signing in here names the source database (the password stays on their command line).
const DATABASE_EXAMPLES: Record<'yourls' | 'kutt' | 'shlink', { database: string; extra: string; note: string }> = {
  yourls: { database: 'mysql://USER:PASSWORD@HOST:3306/DATABASE', extra: ' --prefix yourls_', note: 'Change --prefix if your YOURLS tables are not named yourls_url and yourls_log.' },
  kutt: { database: 'postgres://USER:PASSWORD@HOST:5432/kutt', extra: '', note: 'For a Kutt that keeps its data in SQLite, give its database file instead, e.g. --database sqlite:/srv/kutt/db/data.db.' },
  shlink: { database: 'postgres://USER:PASSWORD@HOST:5432/shlink', extra: '', note: 'mysql://… for MySQL or MariaDB, or sqlite:/path/to/database.sqlite for SQLite, work the same way; add --prefix if its tables have one.' },
}

/** The command that imports a database source into this workspace. */
export function importCommand(source: 'yourls' | 'kutt' | 'shlink', account: string, onconflict: ConflictChoice): string {
  const example = DATABASE_EXAMPLES[source]
  return `linkwell import ${source} --account ${account} --database '${example.database}'${example.extra} --on-conflict ${onconflict}`
}

function isFileSource(source: Source): source is FileSource {
  return source === 'csv' || source === 'bitly'
}

function ConflictPicker({ value, onChange, disabled }: { value: ConflictChoice; onChange(value: ConflictChoice): void; disabled: boolean }) {
  return (
    <fieldset className="checkbox-group">
      <legend>When an alias is already taken</legend>
      {CONFLICTS.map((choice) => (
        <label key={choice.value} className="choice">
          <input type="radio" name="onconflict" value={choice.value} checked={value === choice.value} disabled={disabled} onChange={() => onChange(choice.value)} />
          <span><span className="choice-label">{choice.label}</span><span className="hint">{choice.hint}</span></span>
        </label>
      ))}
    </fieldset>
  )
}

function FileImportForm({ source, allowed, onStarted }: { source: FileSource; allowed: boolean; onStarted(id: number): void }) {
  const [file, setFile] = useState<File>()
  const [map, setMap] = useState('')
  const [onconflict, setOnconflict] = useState<ConflictChoice>('skip')
  const fileRef = useRef<HTMLInputElement>(null)
  const start = useStartImport()

  const form = useCheckedSubmit<'file' | 'map' | 'onconflict'>({
    validate: () => {
      if (!file) return { file: 'Choose the CSV file to import.' }
      if (file.size === 0) return { file: 'This file is empty.' }
      if (map.trim() && !map.split(',').every((pair) => /^[^=]+=\s*\w+\s*$/.test(pair.trim()))) return { map: 'Write each pair as Header=field, separated by commas, e.g. Long URL=url, Back-half=alias.' }
      return {}
    },
    send: async () => {
      try {
        const id = await start.mutateAsync({ file: file!, source, onconflict, map: source === 'csv' ? map : '' })
        setFile(undefined)
        if (fileRef.current) fileRef.current.value = ''
        onStarted(id)
      } catch (error) {
        // The server's words for a too large file are short: say what to do about it. Its limit is its
        // administrator's choice (IMPORT_MAX_BYTES), not known here, so no size is named.
        if (error instanceof ApiError && error.status === 413) throw new ApiError(413, 'The file is larger than this server accepts. Split it into smaller files and import each.', { field: 'file' })
        throw error
      }
    },
    fields: ['file', 'map', 'onconflict'],
  })

  return (
    <form className="stack" onSubmit={form.submit} aria-label="Import a file" noValidate>
      <Field label={source === 'bitly' ? 'Bitly export (CSV)' : 'CSV file'} error={form.errors.file} hint={source === 'bitly' ? 'In Bitly: Links → Export. Titles, tags and dates come along; Bitly\'s click totals have no dates, so they are not imported.' : 'The first line names the columns; url is the only one required.'}>
        <input ref={fileRef} type="file" accept=".csv,text/csv" disabled={!allowed || form.submitting} onChange={(event) => setFile(event.target.files?.[0])} />
      </Field>
      {source === 'csv' && (
        <Field label="Other column names" optional error={form.errors.map} hint="Only if your headers are named differently, e.g. Long URL=url, Back-half=alias.">
          <input type="text" value={map} disabled={!allowed || form.submitting} onChange={(event) => setMap(event.target.value)} placeholder="Long URL=url, Back-half=alias" />
        </Field>
      )}
      <ConflictPicker value={onconflict} onChange={setOnconflict} disabled={!allowed || form.submitting} />
      <FormError message={form.formError} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={!allowed || form.submitting} aria-describedby={allowed ? undefined : 'import-role-reason'}>
          {form.submitting ? 'Uploading…' : 'Upload and import'}
        </button>
      </div>
    </form>
  )
}

function DatabaseImport({ source, account }: { source: 'yourls' | 'kutt' | 'shlink'; account: string }) {
  const [onconflict, setOnconflict] = useState<ConflictChoice>('skip')
  const command = importCommand(source, account, onconflict)
  return (
    <div className="stack">
      <p className="notice">
        {SOURCE_LABELS[source]} is imported from its database on the server's command line, so the database password stays with you and is never stored.
        Replace the capitals with your database's address, then run this where Linkwell is installed:
      </p>
      <ConflictPicker value={onconflict} onChange={setOnconflict} disabled={false} />
      <div className="command-block">
        <pre aria-label={`Command to import from ${SOURCE_LABELS[source]}`}><code>{command}</code></pre>
        <CopyButton text={command} label="Copy command" />
      </div>
      <p className="muted small">{DATABASE_EXAMPLES[source].note} The source database is only read, never changed. If the import is interrupted, run the same command again: it goes on where it stopped and imports nothing twice. It appears under Past imports with its report.</p>
    </div>
  )
}

function PastImports({ watched, onShow }: { watched: number | undefined; onShow(id: number): void }) {
  const [page, setPage] = useState(1)
  const running = useImport(watched).data
  const imports = useImportPage(page, running !== undefined && isUnfinished(running.state))
  if (imports.isPending) return <Loading label="Loading past imports…" />
  if (imports.isError) return <ErrorMessage error={imports.error} onRetry={() => imports.refetch()} />
  if (imports.data.imports.length === 0) return <EmptyState title="No imports yet"><p className="muted">Each import you start is listed here with its state and report.</p></EmptyState>
  return (
    <div className={imports.isFetching ? 'refreshing' : undefined}>
      <div className="table-scroll">
        <table className="table compact stack-table" aria-label="Past imports">
          <thead><tr><th scope="col">Started</th><th scope="col">From</th><th scope="col">State</th><th scope="col" className="numeric">Created</th><th scope="col" className="numeric">Not imported</th><th scope="col"><span className="visually-hidden">Report</span></th></tr></thead>
          <tbody>
            {imports.data.imports.map((entry) => (
              <tr key={entry.id} aria-current={entry.id === watched ? 'true' : undefined}>
                <td data-label="Started" className="nowrap">{formatDateTime(entry.date)}</td>
                <td data-label="From" className="import-from"><span>{SOURCE_LABELS[entry.source] ?? entry.source}</span> <span className="muted small import-name">{entry.name}</span></td>
                <td data-label="State"><span className={`badge import-state ${entry.state}`}>{STATE_LABELS[entry.state] ?? entry.state}</span></td>
                <td data-label="Created" className="numeric">{formatCount(entry.created)}</td>
                <td data-label="Not imported" className="numeric">{formatCount(entry.skipped)}</td>
                <td className="actions">
                  <button type="button" className="button small ghost" onClick={() => onShow(entry.id)} disabled={entry.id === watched}>
                    {entry.id === watched ? 'Shown above' : 'View report'}<span className="visually-hidden"> of the import started {formatDateTime(entry.date)}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={page} maxPage={imports.data.maxpage} total={imports.data.result} onPage={setPage} />
    </div>
  )
}

function WatchedImport({ id }: { id: number }) {
  // Once it ends, the links list and the past imports show what it did.
  const job = useWatchedImport(id)
  if (job.isPending) return <Loading label="Loading the import…" />
  if (job.isError) return <ErrorMessage error={job.error} onRetry={() => job.refetch()} />
  return (
    <>
      <ImportReport job={job.data} />
      {job.data.state === 'done' && job.data.created > 0 && <Link to="/links" className="button see-links">See your links</Link>}
    </>
  )
}

export function ImportPage() {
  const mayImport = useMay('editor')
  const account = useWorkspaces().data?.find((workspace) => workspace.current)?.name ?? 'YOUR_WORKSPACE'
  const [params, setParams] = useSearchParams()
  const requested = Number(params.get('import'))
  const watched = Number.isInteger(requested) && requested > 0 ? requested : undefined
  const [source, setSource] = useState<Source>('csv')
  const reportRef = useRef<HTMLElement>(null)

  function show(id: number) {
    setParams({ import: String(id) })
    reportRef.current?.scrollIntoView({ block: 'start' })
  }

  return (
    <>
      <PageHeader title="Import & export" description="Bring your links and their click history from another shortener or a spreadsheet, and take everything with you again." />
      <RoleNote id="import-role-reason" needed="editor" allowed={mayImport} />
      <div className={watched ? 'import-grid watching' : 'import-grid'}>
        <section className="card stack" aria-labelledby="import-title">
          <h2 id="import-title">Import links</h2>
          <fieldset className="source-picker">
            <legend>Import from</legend>
            {SOURCES.map((option) => (
              <label key={option.value} className={source === option.value ? 'source-option chosen' : 'source-option'}>
                <input type="radio" name="source" value={option.value} checked={source === option.value} onChange={() => setSource(option.value)} />
                <span><span className="choice-label">{option.label}</span><span className="hint">{option.hint}</span></span>
              </label>
            ))}
          </fieldset>
          {isFileSource(source)
            ? <FileImportForm key={source} source={source} allowed={mayImport} onStarted={show} />
            : <DatabaseImport key={source} source={source} account={account} />}
        </section>

        <section className="card stack import-report-card" aria-labelledby={watched ? 'import-report-title' : 'import-empty-title'} ref={reportRef} tabIndex={-1}>
          {watched ? <WatchedImport id={watched} /> : (
            <div className="stack tight">
              <h2 id="import-empty-title">Progress and report</h2>
              <p className="muted">Once you upload a file, its progress shows here, then a report: how many links were created, which were already in your account, and each row that was not imported with its line number and the reason.</p>
            </div>
          )}
        </section>
      </div>

      <section className="card stack" aria-labelledby="past-imports-title">
        <h2 id="past-imports-title">Past imports</h2>
        <PastImports watched={watched} onShow={show} />
      </section>

      <ExportPanel />
    </>
  )
}
