// The account's splash pages: the page a `splash` link shows before sending visitors on.
import { Link } from 'react-router'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { formatDate } from '../components/format'
import { ListPageBody, useListPage } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { EmptyState } from '../components/States'
import { CreateAction, UsageNote } from '../usage/plan-usage'
import { useDeleteSplashPage, useSplashPage, type SplashEntry } from './splash-queries'
import './splash.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

export function SplashPagesPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('editor')
  const list = useListPage<SplashEntry>()
  const pages = useSplashPage(list.page)
  const create = <CreateAction resource="splash" to="/splash/new">+ Create splash page</CreateAction>

  return (
    <>
      <PageHeader title="Splash pages" description="A page your visitors see for a few seconds before they go on: an offer, an announcement." actions={create} />
      <RoleNote id="splash-role-reason" needed="editor" allowed={mayChange} />
      <div><UsageNote resource="splash" /></div>
      {list.notice && <p className="notice" role="status">{list.notice}</p>}
      <ListPageBody
        query={pages}
        entries={(answer) => answer.splash}
        loadingLabel="Loading splash pages…"
        state={list}
        empty={(
          <EmptyState title="No splash pages yet">
            <p className="muted">Create one, then choose it as the type of a short link: its visitors see it before they reach the destination.</p>
            {create}
          </EmptyState>
        )}
      >
        {(entries) => (
          <table className="table setup-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="Name"><Link to={`/splash/${entry.id}/edit`} className="setup-name">{entry.name}</Link></td>
                  <td data-label="Created" className="nowrap muted">{formatDate(entry.date)}</td>
                  <td className="actions">
                    <GuardedLink to={`/splash/${entry.id}/edit`} allowed={mayChange} reasonId="splash-role-reason" className="button small">Edit<span className="visually-hidden"> {entry.name}</span></GuardedLink>
                    <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'splash-role-reason'} onClick={() => list.setDeleting(entry)}>Delete<span className="visually-hidden"> {entry.name}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListPageBody>
      {list.deleting && <DeleteSplashDialog entry={list.deleting} onClose={() => list.setDeleting(undefined)} />}
    </>
  )
}

function DeleteSplashDialog({ entry, onClose }: { entry: SplashEntry; onClose(): void }) {
  const deletion = useDeleteSplashPage()
  return (
    <DeleteRecordDialog
      title="Delete this splash page?"
      confirmLabel="Delete splash page"
      deletion={deletion}
      id={entry.id}
      onClose={onClose}
    >
      <p><strong>{entry.name}</strong> will be deleted. Links that show it will show the generic “you are leaving” page instead. This cannot be undone.</p>
    </DeleteRecordDialog>
  )
}
