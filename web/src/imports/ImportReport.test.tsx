// The import's report as a person reads it: the counts, each row not imported with its line and
// reason, the progress bar while it runs, the reason a failed import stopped; and the page's
// upload: the file sent with the chosen source and conflict rule, then the import watched until
// its report is there.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import type { ImportDetails } from './import-queries'
import { ImportPage } from './ImportPage'
import { ImportReport } from './ImportReport'

function importOf(fields: Partial<ImportDetails>): ImportDetails {
  return {
    id: 7, source: 'csv', name: 'spring.csv', state: 'done', onconflict: 'skip', total: 5, processed: 5,
    created: 3, renamed: 0, existing: 0, skipped: 2, clicks: 0, error: null,
    date: '2026-11-28 03:00:00', finished: '2026-11-28 03:00:04', problems: [], ...fields,
  }
}

const problems: ImportDetails['problems'] = [
  { line: 3, key: '/bad-script', action: 'skipped', reason: 'The field "url" must be an http(s) URL.', alias: 'bad-script', oldalias: 'bad-script', newalias: null },
  { line: 5, key: 'line 5', action: 'skipped', reason: 'No destination URL.', alias: null, oldalias: null, newalias: null },
]

describe('the import report', () => {
  it('counts what was created and not imported, and lists each bad row with its line and reason', () => {
    render(<ImportReport job={importOf({ problems })} />)
    const counts = screen.getByLabelText('Import counts')
    expect(within(counts).getByText('Links created').nextSibling?.textContent).toBe('3')
    expect(within(counts).getByText('Not imported').nextSibling?.textContent).toBe('2')
    expect(within(counts).getByText('Already in your account').nextSibling?.textContent).toBe('0')
    expect(screen.getByText('Finished')).toBeTruthy()
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['3', 'bad-script', '—', 'Not imported', 'The field "url" must be an http(s) URL.'],
      ['5', 'none', '—', 'Not imported', 'No destination URL.'],
    ])
    expect(screen.queryByRole('progressbar')).toBeNull()
  })

  it('shows a progress bar with rows read while the import runs', () => {
    render(<ImportReport job={importOf({ state: 'running', total: 6, processed: 2, created: 1, skipped: 1, finished: null })} />)
    const bar = screen.getByRole('progressbar')
    expect(bar.getAttribute('value')).toBe('2')
    expect(bar.getAttribute('max')).toBe('6')
    expect(screen.getByLabelText('2 of 6 rows read')).toBe(bar)
    expect(screen.getByText('Importing')).toBeTruthy()
  })

  it('says why a failed import stopped and that nothing was written', () => {
    render(<ImportReport job={importOf({ state: 'failed', created: 0, skipped: 0, error: 'Line 4: The alias "spring" is taken (on conflict: fail; nothing of this import was written)' })} />)
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('The import stopped.')
    expect(alert.textContent).toContain('Line 4: The alias "spring" is taken')
    expect(alert.textContent).toContain('Nothing was imported.')
  })

  it('names links created under a new alias', () => {
    render(<ImportReport job={importOf({ id: 7, renamed: 1, skipped: 0, problems: [{ line: 2, key: '/Spring', action: 'renamed', reason: 'The alias "Spring" differs only in letter case from "spring", already here: imported as "Spring-2".', alias: 'Spring-2', oldalias: 'Spring', newalias: 'Spring-2' }] })} />)
    expect(screen.getByText('1 link was created under a new alias because the alias was taken (listed below).')).toBeTruthy()
    const table = within(screen.getByRole('table'))
    expect(table.getByText('New alias')).toBeTruthy()
    expect(table.getByText('Spring')).toBeTruthy()
    expect(table.getByText('Spring-2')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Download the whole report (CSV)' }).getAttribute('href')).toBe('/api/import/7/report?format=csv')
  })
})

describe('the import page', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('uploads the file with the chosen rule, watches the import, then shows its report', async () => {
    const user = setupUser()
    let posted = 0
    let asked = 0
    answerWith(async (request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/workspaces') return json(200, { error: 0, data: { workspaces: [{ id: 1, name: 'acme', role: 'editor', current: true }] } })
      if (url.pathname === '/api/imports') return json(200, { error: '0', data: { result: 0, perpage: 10, currentpage: 1, nextpage: null, maxpage: 1, imports: [] } })
      if (request.method === 'POST' && url.pathname === '/api/import') {
        posted += 1
        expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)
        return json(202, { error: 0, id: 7, state: 'queued' })
      }
      if (url.pathname === '/api/import/7') {
        asked += 1
        return json(200, { error: 0, import: asked === 1 ? importOf({ state: 'running', processed: 2, created: 1, skipped: 1, problems: [], finished: null }) : importOf({ problems }) })
      }
      throw new Error(`unexpected request ${request.method} ${url.pathname}`)
    })
    const router = createMemoryRouter([{ path: '/import', element: <ImportPage /> }], { initialEntries: ['/import'] })
    render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)

    // Nothing is sent without a file.
    await user.click(screen.getByRole('button', { name: 'Upload and import' }))
    expect(await screen.findByText('Choose the CSV file to import.')).toBeTruthy()
    expect(posted).toBe(0)

    // The form's parts as the page sets them (the tests' fetch, Node's, cannot read a body of jsdom's File).
    const set = vi.spyOn(FormData.prototype, 'set')
    const file = new File(['url,alias\nhttps://example.com,spring\n'], 'spring.csv', { type: 'text/csv' })
    await user.upload(screen.getByLabelText('CSV file'), file)
    await user.click(screen.getByLabelText(/Import it under a new alias/))
    await user.click(screen.getByRole('button', { name: 'Upload and import' }))
    await screen.findByRole('progressbar')
    expect(set.mock.calls).toEqual([['source', 'csv'], ['onconflict', 'rename'], ['file', file, 'spring.csv']])
    expect(router.state.location.search).toBe('?import=7')
    // Asked again a second later: the report.
    await screen.findByText('Finished', {}, { timeout: 3_000 })
    expect(within(screen.getByRole('table', { name: 'Rows to look at' })).getByText('No destination URL.')).toBeTruthy()
  })

  it('gives the command for a database source, with the workspace and the conflict rule', async () => {
    const user = setupUser()
    answerWith((request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/workspaces') return json(200, { error: 0, data: { workspaces: [{ id: 1, name: 'acme', role: 'viewer', current: true }] } })
      if (url.pathname === '/api/imports') return json(200, { error: '0', data: { result: 0, perpage: 10, currentpage: 1, nextpage: null, maxpage: 1, imports: [] } })
      throw new Error(`unexpected request ${request.method} ${url.pathname}`)
    })
    const router = createMemoryRouter([{ path: '/import', element: <ImportPage /> }], { initialEntries: ['/import'] })
    render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)
    // A viewer sees the upload disabled, with the reason.
    expect(await screen.findByText('Viewers read this workspace; they do not change it.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Upload and import' })).toHaveProperty('disabled', true)
    await user.click(screen.getByLabelText(/YOURLS/))
    await user.click(screen.getByLabelText(/Stop and import nothing/))
    expect(screen.getByLabelText('Command to import from YOURLS').textContent)
      .toBe("linkwell import yourls --account acme --database 'mysql://USER:PASSWORD@HOST:3306/DATABASE' --prefix yourls_ --on-conflict fail")
  })
})
