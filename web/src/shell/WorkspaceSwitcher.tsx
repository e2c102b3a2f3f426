// The workspace the dashboard shows, for a person who belongs to several: choosing another makes
// it the session's current one and reloads everything from it. Offers a new workspace to those the
// server lets create one (by default only the instance's administrators).
import { Link, useNavigate } from 'react-router'
import { useForgetAll } from '../account/account-queries'
import { ROLE_LABELS, useSwitchWorkspace, type Workspace } from '../members/member-queries'
import { FormError } from '../components/FormError'

export function WorkspaceSwitcher({ workspaces, canCreate }: { workspaces: Workspace[]; canCreate: boolean }) {
  const navigate = useNavigate()
  const forgetAll = useForgetAll()
  const current = workspaces.find((workspace) => workspace.current)
  const switchTo = useSwitchWorkspace()
  const choose = (id: number) => switchTo.mutate(id, {
    onSuccess: async () => {
      // Everything cached belongs to the workspace left behind.
      await navigate('/')
      forgetAll()
    },
  })
  return (
    <div className="workspace-switcher">
      {workspaces.length > 1 ? (
        <label className="small">
          Current workspace
          <select value={current?.id} disabled={switchTo.isPending} onChange={(event) => choose(Number(event.target.value))}>
            {workspaces.map((workspace) => <option key={workspace.id} value={workspace.id}>{workspace.name} ({ROLE_LABELS[workspace.role]})</option>)}
          </select>
        </label>
      ) : current && <span className="muted small">Workspace <strong>{current.name}</strong></span>}
      {canCreate && <Link to="/workspaces/new" className="small">+ New workspace</Link>}
      <FormError error={switchTo.error} small />
    </div>
  )
}
