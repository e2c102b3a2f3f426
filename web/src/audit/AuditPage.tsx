// The audit log: who changed what, when and from where, newest first. Filters (who, what kind of
// record, from, to) live in the page's address, so a view can be shared or bookmarked.
import { useSearchParams } from 'react-router'
import { useApiKeys } from '../account/account-queries'
import { formatDateTime } from '../components/format'
import { usePageParam } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useAuditPage, type AuditEntry, type AuditQuery } from './audit-queries'
import './audit.css'

const WAYS: Array<[value: string, label: string]> = [
  ['api', 'Any API key'],
  ['dashboard', 'The dashboard'],
  ['cli', 'The command line'],
  ['system', 'Linkwell itself'],
]

/** Each kind of record: its name in the filter, and one record's. */
const RESOURCES: Array<[value: string, label: string, one: string]> = [
  ['link', 'Links', 'Link'], ['qr', 'QR codes', 'QR code'], ['bio', 'Bio pages', 'Bio page'], ['campaign', 'Campaigns', 'Campaign'],
  ['channel', 'Channels', 'Channel'], ['pixel', 'Pixels', 'Pixel'], ['splash', 'Splash pages', 'Splash page'],
  ['overlay', 'CTA overlays', 'CTA overlay'], ['domain', 'Branded domains', 'Branded domain'], ['account', 'Account', 'Account'],
  ['key', 'API keys', 'API key'], ['session', 'Sign-ins', 'Sign-in'], ['plan', 'Plans', 'Plan'],
]

const FILTERS = ['actor', 'resource', 'from', 'to'] as const
type Filter = (typeof FILTERS)[number]

/** `link.created` → "Created"; `campaign.link_assigned` → "Link assigned". */
function verbOf(action: string): string {
  const verb = action.slice(action.indexOf('.') + 1).replace(/_/g, ' ')
  return verb.charAt(0).toUpperCase() + verb.slice(1)
}

function whoOf(entry: AuditEntry): string {
  if (entry.key) return entry.key.name === null ? `Deleted key #${entry.key.id}` : `Key “${entry.key.name}”`
  if (entry.via === 'dashboard') return entry.person === null ? 'Dashboard' : `Person #${entry.person} (dashboard)`
  if (entry.via === 'cli') return 'Command line'
  if (entry.via === 'system') return 'Linkwell'
  return entry.via
}

export function AuditPage() {
  const [params, setParams] = useSearchParams()
  const [page, setPage] = usePageParam()
  const filters = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ''])) as Record<Filter, string>
  const query: AuditQuery = { page, ...Object.fromEntries(FILTERS.filter((name) => filters[name]).map((name) => [name, filters[name]])) }
  const entries = useAuditPage(query)
  const keys = useApiKeys()
  const filtered = FILTERS.some((name) => filters[name])
  const recordName = (resource: string) => RESOURCES.find(([value]) => value === resource)?.[2] ?? resource

  const change = (name: Filter, value: string) => {
    const next = new URLSearchParams(params)
    if (value) next.set(name, value)
    else next.delete(name)
    next.delete('page')
    setParams(next)
  }

  return (
    <>
      <PageHeader title="Audit log" description="Every change made in this account through the API, the dashboard or the command line: who made it, when, and from which address. Field values are never recorded, only their names." />
      <div className="card toolbar" role="search" aria-label="Filter the audit log">
        <div className="field">
          <label htmlFor="audit-actor">Who</label>
          <select id="audit-actor" value={filters.actor} onChange={(event) => change('actor', event.target.value)}>
            <option value="">Everyone</option>
            {WAYS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
            {keys.data?.map((key) => <option key={key.id} value={`key:${key.id}`}>Key “{key.name}”</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-resource">What</label>
          <select id="audit-resource" value={filters.resource} onChange={(event) => change('resource', event.target.value)}>
            <option value="">All records</option>
            {RESOURCES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-from">From</label>
          <input id="audit-from" type="date" value={filters.from} max={filters.to || undefined} onChange={(event) => change('from', event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="audit-to">To</label>
          <input id="audit-to" type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => change('to', event.target.value)} />
        </div>
        {filtered && <button type="button" className="button ghost" onClick={() => setParams({})}>Clear filters</button>}
      </div>
      {entries.error ? <ErrorMessage error={entries.error} onRetry={() => entries.refetch()} /> : !entries.data ? <Loading label="Loading the audit log…" /> : entries.data.entries.length === 0 ? (
        <div className="card">
          <EmptyState title={filtered ? 'No changes match these filters' : 'No changes yet'}>
            <p className="muted">{filtered ? 'Widen the dates, or choose “Everyone” and “All records”.' : 'Changes to links, QR codes, campaigns and the rest appear here as they are made.'}</p>
          </EmptyState>
        </div>
      ) : (
        <div className={entries.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <div className="table-scroll">
            <table className="table compact stack-table audit-table" aria-label="Audit log">
              <thead>
                <tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Record</th><th scope="col">Fields</th><th scope="col">From</th></tr>
              </thead>
              <tbody>
                {entries.data.entries.map((entry) => (
                  <tr key={entry.id}>
                    <td data-label="When">{formatDateTime(entry.date)}</td>
                    <td data-label="Who">{whoOf(entry)}</td>
                    <td data-label="What"><span className={`badge audit-${entry.action.slice(entry.action.indexOf('.') + 1)}`}>{verbOf(entry.action)}</span></td>
                    <td data-label="Record"><span>{recordName(entry.resource)}{entry.resourceId !== null && <span className="muted"> #{entry.resourceId}</span>}</span></td>
                    <td data-label="Fields" className="audit-fields">{entry.fields.length ? entry.fields.join(', ') : <span className="muted">—</span>}</td>
                    <td data-label="From" className="muted">{entry.address ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} maxPage={entries.data.maxpage} total={entries.data.result} onPage={setPage} />
        </div>
      )}
    </>
  )
}
