// Administration: every person who signs in to this Linkwell, with each workspace they belong to
// (an account of the API) and their role there, whether they use a second factor and when they
// last signed in. People are added to workspaces by invitation (Members page); accounts here are
// created and removed on the Users page.
import { Link } from 'react-router'
import { formatDate, formatDateTime } from '../components/format'
import { usePageParam } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { usePeople } from './admin-queries'
import './admin.css'

export function PeoplePage() {
  const [page, setPage] = usePageParam()
  const people = usePeople(page)

  return (
    <>
      <PageHeader
        title="People"
        description="Everyone who signs in, the workspaces they belong to and their role in each. Invite people from a workspace's Members page; create or remove workspaces on the Users page."
        actions={<Link className="button" to="/admin/users">Manage users</Link>}
      />
      {people.isPending ? <Loading label="Loading people…" /> : people.isError ? <ErrorMessage error={people.error} onRetry={() => people.refetch()} /> : people.data.people.length === 0 ? (
        <div className="card"><EmptyState title="No people on this page"><button type="button" className="button" onClick={() => setPage(1)}>First page</button></EmptyState></div>
      ) : (
        <div className={people.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <table className="table admin-table people-table">
            <thead>
              <tr>
                <th scope="col">Person</th>
                <th scope="col">Workspaces and roles</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {people.data.people.map((person) => (
                <tr key={person.id}>
                  <td data-label="Person">
                    <div className="link-cell">
                      <strong className="ellipsis">{person.username}</strong>
                      <span className="destination">{person.email}</span>
                      <span className="badges">
                        {person.twofactor ? <span className="badge">Two-factor on</span> : <span className="badge suspended">No second factor</span>}
                      </span>
                    </div>
                  </td>
                  <td data-label="Workspaces and roles">
                    {person.workspaces.length === 0 ? <span className="muted">No workspace</span> : (
                      <ul className="workspace-roles" aria-label={`Workspaces of ${person.username}`}>
                        {person.workspaces.map((workspace) => (
                          <li key={workspace.id}>
                            <span className="ellipsis">{workspace.name}</span> <span className="badge">{workspace.role}</span>
                            {workspace.suspended && <span className="badge suspended">Suspended</span>}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td data-label="Last sign-in" className="nowrap">{person.lastsignin ? formatDateTime(person.lastsignin) : 'Never'}</td>
                  <td data-label="Since" className="nowrap">{formatDate(person.date)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination page={page} maxPage={people.data.maxpage} total={people.data.result} onPage={setPage} />
        </div>
      )}
    </>
  )
}
