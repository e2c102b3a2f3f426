// Many links at once: paste URLs one per line or upload a CSV (url,alias,title); a progress bar,
// each row's result as it comes, and the results as a CSV.
import { useRef, useState, type ChangeEvent } from 'react'
import { Link } from 'react-router'
import { CopyButton } from '../components/CopyButton'
import { downloadText } from '../components/download'
import { Field } from '../components/Field'
import { displayUrl } from '../components/format'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { useCreateLinks } from '../links/link-queries'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { MAX_BULK_ROWS, resultsCsv, rowsFromCsv, rowsFromLines, runBulk, type BulkResult, type BulkRow } from './bulk'

type BulkField = 'urls' | 'csv'
type BulkErrors = Partial<Record<BulkField, string>>

export function BulkPage() {
  const createLinks = useCreateLinks()
  const [text, setText] = useState('')
  const [csvRows, setCsvRows] = useState<BulkRow[]>()
  const [fileName, setFileName] = useState('')
  const [rows, setRows] = useState<BulkRow[]>([])
  const [results, setResults] = useState<BulkResult[]>([])
  const [waiting, setWaiting] = useState<number>()
  const stopRef = useRef(false)
  const fileRef = useRef<HTMLInputElement>(null)

  const planned = csvRows ?? rowsFromLines(text)

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    setError('csv', undefined)
    if (!file) return
    const parsed = rowsFromCsv(await file.text())
    if (parsed.length === 0) {
      setError('csv', 'The file has no rows. Use the columns url, alias, title.')
      setCsvRows(undefined)
      return
    }
    setCsvRows(parsed)
    setFileName(file.name)
  }

  function clearFile() {
    setCsvRows(undefined)
    setFileName('')
    if (fileRef.current) fileRef.current.value = ''
  }

  /** The list is checked before anything is sent; each row's refusal is its own result, never the form's. */
  function checkList(): BulkErrors {
    const field = csvRows ? 'csv' : 'urls'
    if (planned.length === 0) return { urls: 'Paste at least one URL or choose a CSV file.' }
    if (planned.length > MAX_BULK_ROWS) return { [field]: `At most ${MAX_BULK_ROWS} links at a time; this list has ${planned.length}.` }
    return {}
  }

  async function run() {
    stopRef.current = false
    setRows(planned)
    setResults(planned.map(() => ({ state: 'pending' })))
    try {
      await createLinks.mutateAsync((create) => runBulk(
        planned,
        create,
        (index, result, waitingSeconds) => {
          setWaiting(waitingSeconds)
          setResults((current) => current.map((entry, position) => (position === index ? result : entry)))
        },
        () => stopRef.current,
      ))
    } finally {
      setWaiting(undefined)
    }
  }

  const { errors, formError, submitting: running, submit, setError } = useCheckedSubmit<BulkField>({ validate: checkList, send: run, fields: [] })

  const done = results.filter((result) => result.state !== 'pending').length
  const created = results.filter((result) => result.state === 'created').length
  const failed = results.filter((result) => result.state === 'failed').length

  return (
    <>
      <PageHeader title="Bulk create" description="Shorten a list of URLs in one go." actions={<Link to="/links/new" className="button">Create one link</Link>} />
      <div className="bulk-grid">
        <form className="card stack" aria-labelledby="bulk-input" onSubmit={submit} noValidate>
          <h2 id="bulk-input">Your URLs</h2>
          <Field label="URLs, one per line" error={errors.urls} hint={csvRows ? 'A CSV file is chosen; remove it to use this list.' : `${planned.length} URL${planned.length === 1 ? '' : 's'}`}>
            <textarea rows={8} value={text} disabled={Boolean(csvRows) || running} placeholder={'https://example.com/first\nhttps://example.com/second'} onChange={(event) => setText(event.target.value)} />
          </Field>
          <div className="divider"><span>or</span></div>
          <Field label="CSV file" error={errors.csv} hint="Columns url, alias, title; a header row is optional. Alias and title may be empty.">
            <input ref={fileRef} type="file" accept=".csv,text/csv" disabled={running} onChange={readFile} />
          </Field>
          {csvRows && (
            <p className="notice row wrap between">
              <span>{fileName}: {csvRows.length} row{csvRows.length === 1 ? '' : 's'}</span>
              <button type="button" className="button ghost small" onClick={clearFile} disabled={running}>Remove file</button>
            </p>
          )}
          <FormError message={formError} />
          <div className="row wrap">
            <button type="submit" className="button primary" disabled={running}>
              {running ? 'Creating…' : `Create ${planned.length || ''} link${planned.length === 1 ? '' : 's'}`.replace('  ', ' ')}
            </button>
            {running && <button type="button" className="button" onClick={() => (stopRef.current = true)}>Stop</button>}
          </div>
        </form>

        <section className="card stack" aria-labelledby="bulk-results">
          <div className="section-title">
            <h2 id="bulk-results">Results</h2>
            {rows.length > 0 && !running && <button type="button" className="button small" onClick={() => downloadText('linkwell-bulk-results.csv', resultsCsv(rows, results))}>Download results CSV</button>}
          </div>
          {rows.length === 0 ? (
            <p className="muted">Each URL's short link, or why it could not be created, will be listed here.</p>
          ) : (
            <>
              <div className="progress-block">
                <label htmlFor="bulk-progress" className="small">{done} of {rows.length} done · {created} created · {failed} failed</label>
                <progress id="bulk-progress" max={rows.length} value={done} />
                {waiting && <p className="muted small" role="status">Rate limit reached: waiting {waiting} s before going on.</p>}
                {!running && <p className="small" role="status">{failed === 0 ? `All ${created} links created.` : `${created} created, ${failed} failed.`}</p>}
              </div>
              <div className="table-scroll">
                <table className="table compact">
                  <thead><tr><th scope="col">#</th><th scope="col">URL</th><th scope="col">Result</th></tr></thead>
                  <tbody>
                    {rows.map((row, index) => {
                      const result = results[index] ?? { state: 'pending' }
                      return (
                        <tr key={index}>
                          <td className="muted">{row.line}</td>
                          <td className="ellipsis-cell" title={row.url}>{displayUrl(row.url) || <span className="muted">(empty)</span>}</td>
                          <td>
                            {result.state === 'pending' && <span className="muted">Waiting…</span>}
                            {result.state === 'created' && <span className="row"><span className="status ok">Created</span> <a href={result.shorturl} target="_blank" rel="noreferrer">{displayUrl(result.shorturl)}</a> <CopyButton text={result.shorturl} what={displayUrl(result.shorturl)} /></span>}
                            {result.state === 'failed' && <span className="status failed">{result.message}</span>}
                          </td>
                        </tr>
                      )
                    })}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </section>
      </div>
    </>
  )
}
