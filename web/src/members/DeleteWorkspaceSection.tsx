// The Members page's last section, for owners: delete the workspace with everything in it, once
// its name is typed. The server keeps the instance's administration and a person's only workspace
// (and says why); the session moves to another of the person's workspaces, where the page reopens.
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { useForgetAll } from '../account/account-queries'
import { messageOf } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { Field } from '../components/Field'
import { useDeleteWorkspace, type Workspace } from './member-queries'

export function DeleteWorkspaceSection({ workspace, others, canCreate }: { workspace: Workspace; others: number; canCreate: boolean }) {
  const forgetAll = useForgetAll()
  const navigate = useNavigate()
  const [asking, setAsking] = useState(false)
  const [typed, setTyped] = useState('')
  const remove = useDeleteWorkspace()
  const confirm = () => remove.mutate(workspace.id, {
    onSuccess: async () => {
      // Everything cached belonged to the deleted workspace.
      forgetAll()
      await navigate('/', { replace: true })
    },
  })
  const close = () => {
    setAsking(false)
    setTyped('')
    remove.reset()
  }
  return (
    <section className="card stack" aria-labelledby="delete-workspace-title">
      <h2 id="delete-workspace-title">Delete this workspace</h2>
      <p className="muted small">
        Deletes <strong>{workspace.name}</strong> with all its links, QR codes, bio pages, campaigns, statistics, API keys and audit log. Its short links stop working at once
        and members who belong to no other workspace lose their sign-in. This cannot be undone: export what you want to keep first.
      </p>
      {others === 0 && (
        <p className="muted small disabled-reason">
          {canCreate ? 'This is your only workspace: create another one first (“+ New workspace” at the top).' : 'This is your only workspace: ask the instance\'s administrator to delete your account instead.'}
        </p>
      )}
      <div><button type="button" className="button danger" disabled={others === 0} onClick={() => setAsking(true)}>Delete workspace…</button></div>
      {asking && (
        <ConfirmDialog
          title={`Delete ${workspace.name}?`}
          confirmLabel="Delete workspace"
          busy={remove.isPending}
          confirmDisabled={typed.trim() !== workspace.name}
          error={remove.isError ? messageOf(remove.error) : undefined}
          onConfirm={confirm}
          onCancel={close}
        >
          <p>Everything in this workspace is deleted for good. You will continue in another of your workspaces.</p>
          <Field label={`Type the workspace's name, ${workspace.name}, to confirm`}>
            <input type="text" value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} />
          </Field>
        </ConfirmDialog>
      )}
    </section>
  )
}
