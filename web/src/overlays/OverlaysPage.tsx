// The account's CTA overlays: a message or a contact form shown over the page a link frames.
import { Link } from 'react-router'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { formatDate } from '../components/format'
import { ListPageBody, useListPage } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { EmptyState } from '../components/States'
import { CreateAction, UsageNote } from '../usage/plan-usage'
import { useDeleteOverlay, useOverlayPage, type OverlayEntry } from './overlay-queries'
import './overlays.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

const TYPE_NAMES: Record<string, string> = { message: 'Message', contact: 'Contact form' }

export function OverlaysPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('editor')
  const list = useListPage<OverlayEntry>()
  const overlays = useOverlayPage(list.page)
  const create = <CreateAction resource="overlays" to="/overlays/new">+ Create overlay</CreateAction>

  return (
    <>
      <PageHeader title="CTA overlays" description="A message or a contact form shown over the page a link opens." actions={create} />
      <RoleNote id="overlays-role-reason" needed="editor" allowed={mayChange} />
      <div><UsageNote resource="overlays" /></div>
      {list.notice && <p className="notice" role="status">{list.notice}</p>}
      <ListPageBody
        query={overlays}
        entries={(answer) => answer.cta}
        loadingLabel="Loading overlays…"
        state={list}
        empty={(
          <EmptyState title="No overlays yet">
            <p className="muted">Create a message with a button, or a contact form that collects visitors' messages. Then choose it as the type of a short link.</p>
            {create}
          </EmptyState>
        )}
      >
        {(entries) => (
          <table className="table overlays-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Created</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {entries.map((overlay) => (
                <tr key={overlay.id}>
                  <td data-label="Name"><Link to={`/overlays/${overlay.id}/edit`} className="overlay-name">{overlay.name}</Link></td>
                  <td data-label="Type"><span className="badge">{TYPE_NAMES[overlay.type] ?? overlay.type}</span></td>
                  <td data-label="Created" className="nowrap muted">{formatDate(overlay.date)}</td>
                  <td className="actions">
                    {overlay.type === 'contact' && <Link to={`/overlays/${overlay.id}/contacts`} className="button small">Contacts<span className="visually-hidden"> of {overlay.name}</span></Link>}
                    <GuardedLink to={`/overlays/${overlay.id}/edit`} allowed={mayChange} reasonId="overlays-role-reason" className="button small ghost">Edit<span className="visually-hidden"> {overlay.name}</span></GuardedLink>
                    <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'overlays-role-reason'} onClick={() => list.setDeleting(overlay)}>Delete<span className="visually-hidden"> {overlay.name}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListPageBody>
      {list.deleting && <DeleteOverlayDialog overlay={list.deleting} onClose={() => list.setDeleting(undefined)} />}
    </>
  )
}

function DeleteOverlayDialog({ overlay, onClose }: { overlay: OverlayEntry; onClose(): void }) {
  const deletion = useDeleteOverlay()
  return (
    <DeleteRecordDialog
      title="Delete this overlay?"
      confirmLabel="Delete overlay"
      deletion={deletion}
      id={overlay.id}
      onClose={onClose}
    >
      <p><strong>{overlay.name}</strong> will be deleted; links that show it will show their page without it.</p>
      {overlay.type === 'contact' && <p>The contacts it collected will no longer be listed here: <Link to={`/overlays/${overlay.id}/contacts`}>export them</Link> first if you need them.</p>}
      <p>This cannot be undone.</p>
    </DeleteRecordDialog>
  )
}
