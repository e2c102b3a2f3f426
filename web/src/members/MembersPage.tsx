// The workspace's members: invite someone with a role (the link to copy, or mailed), change a
// role, remove a member, withdraw a pending invitation, see who signs in with a second factor.
// What the signed-in person's role does not allow is shown disabled, with the reason beside it.
import { useState } from 'react'
import { messageOf } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { CopyButton } from '../components/CopyButton'
import { Field } from '../components/Field'
import { formatDate, formatDateTime } from '../components/format'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { DeleteWorkspaceSection } from './DeleteWorkspaceSection'
import { SingleSignOnSection } from './SingleSignOnSection'
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES, roleAllows, useCanCreateWorkspace, useChangeRole, useInvite, useMembers, useRemoveMember, useWithdrawInvitation, useWorkspaces, type Member, type Role } from './member-queries'
import './members.css'

const MANAGE_REASON = 'Only owners and admins can invite, change or remove members.'

/** The roles `actor` may hand out: an owner every one, an admin all but owner. */
function assignableRoles(actor: Role | undefined): Role[] {
  return ROLES.filter((role) => (role === 'owner' ? actor === 'owner' : roleAllows(actor, 'admin')))
}

export function MembersPage() {
  const members = useMembers()
  const workspaces = useWorkspaces()
  const canCreateWorkspace = useCanCreateWorkspace()
  const current = workspaces.data?.find((workspace) => workspace.current)
  const role = current?.role
  const canManage = roleAllows(role, 'admin')
  const [invited, setInvited] = useState<{ email: string; url: string; mailed: boolean }>()
  const [removing, setRemoving] = useState<Member>()
  const changeRole = useChangeRole()
  const remove = useRemoveMember()
  const withdraw = useWithdrawInvitation()

  return (
    <>
      <PageHeader title="Members" description="The people of this workspace and what each may do." />
      <InviteForm canManage={canManage} roles={assignableRoles(role)} onInvited={setInvited} />
      {invited && (
        <div className="card stack" role="status">
          <p className="small">
            <strong>{invited.email} is invited.</strong> {invited.mailed ? 'The link was e-mailed; you can also pass it on yourself.' : 'Send them this link: it works once, for 7 days.'}
          </p>
          <div className="secret">
            <code aria-label="Invitation link">{invited.url}</code>
            <CopyButton text={invited.url} label="Copy link" className="button small primary" />
            <button type="button" className="button small ghost" onClick={() => setInvited(undefined)}>Done</button>
          </div>
        </div>
      )}
      <FormError error={changeRole.error} />
      <FormError error={withdraw.error} />
      {members.isPending ? <Loading label="Loading members…" /> : members.isError ? <ErrorMessage error={members.error} onRetry={() => members.refetch()} /> : (
        <>
          <section className="card table-card" aria-labelledby="members-title">
            <h2 id="members-title" className="card-title">People</h2>
            <div className="table-scroll">
              <table className="table compact stack-table members-table">
                <thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Second factor</th><th scope="col">Last sign-in</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
                <tbody>
                  {members.data.members.map((member) => {
                    // An admin leaves owners to the owners.
                    const editable = canManage && (member.role !== 'owner' || role === 'owner')
                    return (
                      <tr key={member.id}>
                        <td data-label="Person">
                          <strong>{member.username}</strong>{member.you && <span className="badge">You</span>}
                          <span className="destination">{member.email}</span>
                        </td>
                        <td data-label="Role">
                          {editable ? (
                            <select aria-label={`Role of ${member.username}`} value={member.role} disabled={changeRole.isPending} onChange={(event) => changeRole.mutate({ id: member.id, role: event.target.value as Role })}>
                              {assignableRoles(role).concat(assignableRoles(role).includes(member.role) ? [] : [member.role]).map((option) => <option key={option} value={option}>{ROLE_LABELS[option]}</option>)}
                            </select>
                          ) : ROLE_LABELS[member.role]}
                        </td>
                        <td data-label="Second factor">{member.twofactor ? 'On' : <span className="muted">Off</span>}</td>
                        <td className="nowrap" data-label="Last sign-in">{member.lastsignin ? formatDateTime(member.lastsignin) : <span className="muted">Never</span>}</td>
                        <td className="actions">
                          <button type="button" className="button small ghost danger-text" disabled={!editable} onClick={() => setRemoving(member)}>
                            Remove<span className="visually-hidden"> {member.username}</span>
                          </button>
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </div>
            {!canManage && <p className="muted small disabled-reason">{MANAGE_REASON}</p>}
          </section>
          <section className="card table-card" aria-labelledby="invitations-title">
            <h2 id="invitations-title" className="card-title">Pending invitations</h2>
            {members.data.invitations.length === 0 ? (
              <EmptyState title="No pending invitations"><p className="muted small">Invitations not yet accepted show here until they expire.</p></EmptyState>
            ) : (
              <div className="table-scroll">
                <table className="table compact stack-table">
                  <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Sent</th><th scope="col">Expires</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
                  <tbody>
                    {members.data.invitations.map((invitation) => (
                      <tr key={invitation.id}>
                        <td data-label="E-mail"><strong>{invitation.email}</strong></td>
                        <td data-label="Role">{ROLE_LABELS[invitation.role]}</td>
                        <td className="nowrap" data-label="Sent">{formatDate(invitation.created)}</td>
                        <td className="nowrap" data-label="Expires">{formatDate(invitation.expires)}</td>
                        <td className="actions">
                          <button type="button" className="button small ghost danger-text" disabled={!canManage || withdraw.isPending} onClick={() => withdraw.mutate(invitation.id)}>
                            Withdraw<span className="visually-hidden"> the invitation of {invitation.email}</span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
      {canManage && <SingleSignOnSection canChange={role === 'owner'} />}
      {current && role === 'owner' && <DeleteWorkspaceSection workspace={current} others={(workspaces.data?.length ?? 1) - 1} canCreate={canCreateWorkspace} />}
      {removing && (
        <ConfirmDialog title={`Remove ${removing.username}?`} confirmLabel="Remove member" busy={remove.isPending} error={remove.isError ? messageOf(remove.error) : undefined} onConfirm={() => remove.mutate(removing.id, { onSuccess: () => setRemoving(undefined) })} onCancel={() => { setRemoving(undefined); remove.reset() }}>
          <p>They lose access to this workspace at once, and the API keys they made here stop working.</p>
        </ConfirmDialog>
      )}
    </>
  )
}

type InviteField = 'email' | 'role'

function InviteForm({ canManage, roles, onInvited }: { canManage: boolean; roles: Role[]; onInvited(result: { email: string; url: string; mailed: boolean }): void }) {
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('editor')
  const invite = useInvite()
  const form = useCheckedSubmit<InviteField>({
    validate: () => (/^[^\s@]+@[^\s@]+$/.test(email.trim()) ? {} : { email: 'Enter an e-mail address.' }),
    send: async () => {
      const sent = email.trim()
      const created = await invite.mutateAsync({ email: sent, role })
      // Emptied once sent, unless another address was typed meanwhile (while the list was asked again): that one stays.
      setEmail((current) => (current.trim() === sent ? '' : current))
      onInvited({ email: sent, url: created.url, mailed: created.mailed })
    },
    fields: ['email', 'role'],
  })
  return (
    <section className="card stack" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form className="inline-form" onSubmit={form.submit} noValidate aria-label="Invite someone">
        <Field label="E-mail address" error={form.errors.email}>
          <input type="email" value={email} disabled={!canManage} placeholder="colleague@example.com" onChange={(event) => setEmail(event.target.value)} />
        </Field>
        <Field label="Role" error={form.errors.role} hint={ROLE_DESCRIPTIONS[role]}>
          <select value={role} disabled={!canManage} onChange={(event) => setRole(event.target.value as Role)}>
            {(roles.length > 0 ? roles : ROLES.slice(0, 3)).map((option) => <option key={option} value={option}>{ROLE_LABELS[option]}</option>)}
          </select>
        </Field>
        <button type="submit" className="button primary align-end" disabled={!canManage || form.submitting}>{form.submitting ? 'Inviting…' : 'Send invitation'}</button>
      </form>
      {!canManage && <p className="muted small disabled-reason">{MANAGE_REASON}</p>}
      <FormError message={form.formError} />
    </section>
  )
}
