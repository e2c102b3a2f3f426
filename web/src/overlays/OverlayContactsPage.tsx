// What visitors sent through a contact overlay: newest first, paged, and a CSV of all of them.
import { Link, useParams } from 'react-router'
import { messageOf } from '../api/client'
import { downloadText } from '../components/download'
import { formatDateTime } from '../components/format'
import { FormError } from '../components/FormError'
import { usePageParam } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { contactsCsv, contactsFileName } from './contacts-csv'
import { useAllContacts, useOverlay, useOverlayContacts } from './overlay-queries'
import './overlays.css'

export function OverlayContactsPage() {
  const id = Number(useParams().id)
  const [page, setPage] = usePageParam()
  const overlay = useOverlay(id)
  const contacts = useOverlayContacts(id, page)
  const name = overlay.data?.name ?? 'overlay'
  const exportCsv = useAllContacts()
  const download = () => exportCsv.mutate(id, { onSuccess: (all) => downloadText(contactsFileName(name), contactsCsv(all)) })
  const hasContacts = (contacts.data?.result ?? 0) > 0

  return (
    <>
      <PageHeader
        title="Contacts"
        description={overlay.data ? <>Messages visitors sent through <strong>{overlay.data.name}</strong>, newest first.</> : undefined}
        actions={
          <>
            <Link to={`/overlays/${id}/edit`} className="button">Edit overlay</Link>
            <button type="button" className="button primary" disabled={!hasContacts || exportCsv.isPending} onClick={download}>
              {exportCsv.isPending ? 'Exporting…' : 'Export CSV'}
            </button>
          </>
        }
      />
      <FormError message={exportCsv.isError ? `The export failed: ${messageOf(exportCsv.error)}` : undefined} />
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
          <Pagination page={page} maxPage={contacts.data.maxpage} total={contacts.data.result} onPage={setPage} />
        </div>
      )}
    </>
  )
}
