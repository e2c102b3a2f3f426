// Everything out again (issue 21): the workspace's links as CSV or JSON, its raw clicks as CSV or
// NDJSON between two days. Plain downloads: a GET with the session cookie, which the server
// streams, so a file of millions of clicks never sits in the browser's memory; the range is
// checked here first, so what the server could refuse is said beside its field instead.
import { useState } from 'react'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'

type ClickFormat = 'csv' | 'ndjson'

/** Starts the browser's download of `address` (the server names the file). */
function download(address: string): void {
  const anchor = document.createElement('a')
  anchor.href = address
  anchor.download = ''
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
}

/** The address of the clicks export for the chosen days (UTC; a day alone means all of it). */
export function clicksExportAddress(from: string, to: string, format: ClickFormat): string {
  const query = new URLSearchParams({ format })
  if (from) query.set('from', from)
  if (to) query.set('to', to)
  return `/api/export/clicks?${query.toString()}`
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

export function ExportPanel() {
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [format, setFormat] = useState<ClickFormat>('csv')
  const form = useCheckedSubmit<'from' | 'to'>({
    validate: () => {
      if (from && !DAY.test(from)) return { from: 'Choose a day, or leave it empty to start with the first click.' }
      if (to && !DAY.test(to)) return { to: 'Choose a day, or leave it empty to end with the last click.' }
      if (from && to && from > to) return { to: 'Choose a day on or after the first day.' }
      return {}
    },
    send: async () => download(clicksExportAddress(from, to, format)),
    fields: ['from', 'to'],
  })

  return (
    <section className="card stack" aria-labelledby="export-title">
      <div className="stack tight">
        <h2 id="export-title">Export</h2>
        <p className="muted small">Files of everything in this workspace, to keep, to analyse in a spreadsheet, or to import into another Linkwell.</p>
      </div>
      <div className="export-grid">
        <div className="stack tight export-part">
          <h3>Links</h3>
          <p className="muted small">Every link with all its settings, its campaign and its click totals.</p>
          <div className="form-actions">
            <a href="/api/export/links?format=csv" className="button" download>Download links (CSV)</a>
            <a href="/api/export/links?format=json" className="button" download>Download links (JSON)</a>
          </div>
        </div>
        <form className="stack tight export-part" onSubmit={form.submit} aria-labelledby="export-clicks-title" noValidate>
          <h3 id="export-clicks-title">Clicks</h3>
          <p className="muted small">Each recorded click with its date, country, referrer, browser and device. Days are in UTC.</p>
          <div className="export-range">
            <Field label="From" optional error={form.errors.from}>
              <input type="date" value={from} max={to || undefined} onChange={(event) => setFrom(event.target.value)} />
            </Field>
            <Field label="To" optional error={form.errors.to}>
              <input type="date" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} />
            </Field>
            <Field label="Format">
              <select value={format} onChange={(event) => setFormat(event.target.value === 'ndjson' ? 'ndjson' : 'csv')}>
                <option value="csv">CSV (spreadsheets)</option>
                <option value="ndjson">NDJSON (one JSON record a line)</option>
              </select>
            </Field>
          </div>
          <FormError message={form.formError} />
          <div className="form-actions">
            <button type="submit" className="button">Download clicks</button>
          </div>
        </form>
      </div>
    </section>
  )
}
