// What visitors sent through a contact overlay: newest first, paged, and a CSV of all of them.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { Link, useParams, useSearchParams } from 'react-router'
import { api, messageOf, unwrap } from '../api/client'
import { downloadText } from '../components/download'
import { formatDateTime } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { contactsCsv, contactsFileName, type ContactRow } from './contacts-csv'
import './overlays.css'

const PAGE_SIZE = 20
/** The API's largest page: the export reads every page at this size. */
const EXPORT_PAGE_SIZE = 100

async function fetchContactsPage(id: number, page: number, limit: number) {
  return (await unwrap(api.GET('/api/overlay/{id}/contacts', { params: { path: { id }, query: { page, limit } } }))).data
}

/** Every contact of the overlay, page by page (the CSV holds them all, not the page on screen). */
async function fetchAllContacts(id: number): Promise<ContactRow[]> {
  const all: ContactRow[] = []
  for (let page = 1; ; page++) {
    const data = await fetchContactsPage(id, page, EXPORT_PAGE_SIZE)
    all.push(...data.contacts)
    if (data.nextpage === null) return all
  }
}

export function OverlayContactsPage() {
  const id = Number(useParams().id)
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number(params.get('page')) || 1)
  const valid = Number.isInteger(id) && id > 0
  const overlay = useQuery({
    queryKey: ['overlays', 'one', id],
    queryFn: async () => (await unwrap(api.GET('/api/overlay/{id}', { params: { path: { id } } }))).data,
    enabled: valid,
  })
  const contacts = useQuery({
    queryKey: ['overlays', 'contacts', id, page],
    queryFn: () => fetchContactsPage(id, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    enabled: valid,
  })
  const name = overlay.data?.name ?? 'overlay'
  const exportCsv = useMutation({
    mutationFn: async () => downloadText(contactsFileName(name), contactsCsv(await fetchAllContacts(id))),
  })
  const hasContacts = (contacts.data?.result ?? 0) > 0

  return (
    <>
      <PageHeader
        title="Contacts"
        description={overlay.data ? <>Messages visitors sent through <strong>{overlay.data.name}</strong>, newest first.</> : undefined}
        actions={
          <>
            <Link to={`/overlays/${id}/edit`} className="button">Edit overlay</Link>
            <button type="button" className="button primary" disabled={!hasContacts || exportCsv.isPending} onClick={() => exportCsv.mutate()}>
              {exportCsv.isPending ? 'Exporting…' : 'Export CSV'}
            </button>
          </>
        }
      />
      {exportCsv.isError && <p className="form-error" role="alert">The export failed: {messageOf(exportCsv.error)}</p>}
      {overlay.data && overlay.data.type !== 'contact' && <p className="notice">This overlay shows a message, not a contact form: it collects no contacts.</p>}
      {contacts.isPending ? <Loading label="Loading contacts…" /> : contacts.isError ? <ErrorMessage error={contacts.error} onRetry={() => contacts.refetch()} /> : contacts.data.contacts.length === 0 ? (
        <div className="card">
          <EmptyState title="No contacts yet">
            <p className="muted">Messages appear here once visitors send the form. Use this overlay as the type of a short link (Links → Create link → Type) and share the link.</p>
            <Link to="/links/new" className="button">Create a link</Link>
          </EmptyState>
        </div>
      ) : (
        <div className={contacts.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <table className="table contacts-table">
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {contacts.data.contacts.map((contact) => (
                <tr key={contact.id}>
                  <td data-label="Received" className="nowrap muted">{formatDateTime(contact.date)}</td>
                  <td data-label="Name">{contact.name || <span className="muted">No name</span>}</td>
                  <td data-label="E-mail"><a href={`mailto:${contact.email}`}>{contact.email}</a></td>
                  <td data-label="Message" className="contact-message">{contact.message || <span className="muted">No message</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination page={page} maxPage={contacts.data.maxpage} total={contacts.data.result} onPage={(next) => setParams(next === 1 ? {} : { page: String(next) })} />
        </div>
      )}
    </>
  )
}
