// The workspace the dashboard shows, for a person who belongs to several: choosing another makes
// it the session's current one and reloads everything from it. Offers a new workspace to those the
// server lets create one (by default only the instance's administrators).
import { useMutation, type QueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from 'react-router'
import { api, messageOf, unwrap } from '../api/client'
import { ROLE_LABELS, type Workspace } from '../members/member-queries'

export function WorkspaceSwitcher({ workspaces, canCreate, queryClient }: { workspaces: Workspace[]; canCreate: boolean; queryClient: QueryClient }) {
  const navigate = useNavigate()
  const current = workspaces.find((workspace) => workspace.current)
  const switchTo = useMutation({
    mutationFn: (id: number) => unwrap(api.PUT('/api/workspace/{id}/switch', { params: { path: { id } } })),
    onSuccess: async () => {
      // Everything cached belongs to the workspace left behind.
      await navigate('/')
      queryClient.clear()
    },
  })
  return (
    <div className="workspace-switcher">
      {workspaces.length > 1 ? (
        <label className="small">
          Current workspace
          <select value={current?.id} disabled={switchTo.isPending} onChange={(event) => switchTo.mutate(Number(event.target.value))}>
            {workspaces.map((workspace) => <option key={workspace.id} value={workspace.id}>{workspace.name} ({ROLE_LABELS[workspace.role]})</option>)}
          </select>
        </label>
      ) : current && <span className="muted small">Workspace <strong>{current.name}</strong></span>}
      {canCreate && <Link to="/workspaces/new" className="small">+ New workspace</Link>}
      {switchTo.isError && <p className="form-error small" role="alert">{messageOf(switchTo.error)}</p>}
    </div>
  )
}
