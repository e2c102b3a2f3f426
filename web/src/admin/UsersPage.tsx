// Administration: every account with its plan and state. Create an account (its API key shown
// once), move it to another plan, suspend or unsuspend it, delete it with everything it owns.
import { useState } from 'react'
import { useAccount } from '../account/account-queries'
import { messageOf } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { CopyButton } from '../components/CopyButton'
import { Field } from '../components/Field'
import { formatDate } from '../components/format'
import { FormError } from '../components/FormError'
import { usePageParam } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { checkUserDraft, toUserBody, USER_FIELDS, type UserDraft } from './admin-forms'
import { useAssignPlan, useCreateUser, usePlans, useUserAction, useUsers, type PlanEntry, type UserEntry } from './admin-queries'
import './admin.css'

const EMPTY_USER: UserDraft = { email: '', username: '', password: '', planid: '', admin: false }

export function UsersPage() {
  const [page, setPage] = usePageParam()
  const users = useUsers(page)
  const plans = usePlans()
  const self = useAccount().data
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<{ username: string; apiKey: string }>()
  const [confirming, setConfirming] = useState<{ user: UserEntry; action: 'suspend' | 'delete' }>()
  const [notice, setNotice] = useState<string>()

  return (
    <>
      <PageHeader
        title="Users"
        description="Every account of this Linkwell: its plan, its state, and the way to add or remove one."
        actions={!creating && <button type="button" className="button primary" onClick={() => { setCreating(true); setCreated(undefined) }}>+ Create user</button>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      {created && (
        <div className="card stack" role="status">
          <p><strong>Copy the API key of {created.username} now.</strong> It is shown only this once; give it to them through a safe channel.</p>
          <div className="secret">
            <code aria-label="New account's API key">{created.apiKey}</code>
            <CopyButton text={created.apiKey} label="Copy key" className="button small primary" />
            <button type="button" className="button small ghost" onClick={() => setCreated(undefined)}>Done</button>
          </div>
        </div>
      )}
      {creating && (
        <CreateUserForm
          plans={plans.data ?? []}
          onCancel={() => setCreating(false)}
          onCreated={(result) => { setCreating(false); setCreated(result); setNotice(undefined) }}
        />
      )}
      {users.isPending ? <Loading label="Loading users…" /> : users.isError ? <ErrorMessage error={users.error} onRetry={() => users.refetch()} /> : users.data.users.length === 0 ? (
        <div className="card"><EmptyState title="No users on this page"><button type="button" className="button" onClick={() => setPage(1)}>First page</button></EmptyState></div>
      ) : (
        <div className={users.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <table className="table admin-table users-table">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Plan</th>
                <th scope="col">Registered</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((user) => {
                const isSelf = user.id === self?.id
                return (
                  <tr key={user.id}>
                    <td data-label="User">
                      <div className="link-cell">
                        <strong className="ellipsis">{user.username}</strong>
                        <span className="destination">{user.email}</span>
                        <span className="badges">
                          {isSelf && <span className="badge campaign">You</span>}
                          {user.admin && <span className="badge">Administrator</span>}
                          {user.suspended && <span className="badge suspended">Suspended</span>}
                        </span>
                      </div>
                    </td>
                    <td data-label="Plan"><PlanSelect user={user} plans={plans.data} onChanged={setNotice} /></td>
                    <td data-label="Registered" className="nowrap">{formatDate(user.registered)}</td>
                    <td className="actions">
                      {user.suspended
                        ? <UnsuspendButton user={user} onDone={setNotice} />
                        : <button type="button" className="button small" disabled={isSelf} title={isSelf ? 'You cannot suspend your own account.' : undefined} onClick={() => setConfirming({ user, action: 'suspend' })}>Suspend<span className="visually-hidden"> {user.username}</span></button>}
                      <button type="button" className="button small ghost danger-text" disabled={isSelf} title={isSelf ? 'You cannot delete your own account.' : undefined} onClick={() => setConfirming({ user, action: 'delete' })}>Delete<span className="visually-hidden"> {user.username}</span></button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
          <Pagination page={page} maxPage={users.data.maxpage} total={users.data.result} onPage={setPage} />
        </div>
      )}
      {confirming && <ConfirmUserAction {...confirming} onClose={() => setConfirming(undefined)} onDone={setNotice} />}
    </>
  )
}

function CreateUserForm({ plans, onCancel, onCreated }: { plans: PlanEntry[]; onCancel(): void; onCreated(result: { username: string; apiKey: string }): void }) {
  const create = useCreateUser()
  const [draft, setDraft] = useState<UserDraft>(EMPTY_USER)
  const set = <K extends keyof UserDraft>(key: K, value: UserDraft[K]) => setDraft((current) => ({ ...current, [key]: value }))
  const { errors, formError, submitting, submit } = useCheckedSubmit({
    validate: () => checkUserDraft(draft),
    send: async () => {
      const result = await create.mutateAsync(toUserBody(draft))
      onCreated({ username: result.username, apiKey: result.apiKey })
    },
    fields: USER_FIELDS,
    summary: 'Some fields need a fix before the user can be created.',
  })

  const defaultPlan = plans.find((plan) => plan.default)
  return (
    <form className="card stack" onSubmit={submit} noValidate aria-label="Create user">
      <h2>New user</h2>
      <FormError message={formError} />
      <div className="grid-2">
        <Field label="E-mail address" error={errors.email}>
          <input type="email" autoComplete="off" value={draft.email} onChange={(event) => set('email', event.target.value)} autoFocus />
        </Field>
        <Field label="Username" error={errors.username} hint="3–32 letters, digits, _ or -. They sign in with it or the e-mail address.">
          <input type="text" autoComplete="off" autoCapitalize="off" spellCheck={false} value={draft.username} onChange={(event) => set('username', event.target.value)} />
        </Field>
        <Field label="Password" optional error={errors.password} hint="8 or more characters, for the dashboard. Without one they can use the API key only, until a password is set.">
          <input type="password" autoComplete="new-password" value={draft.password} onChange={(event) => set('password', event.target.value)} />
        </Field>
        <Field label="Plan" error={errors.planid}>
          <select value={draft.planid} onChange={(event) => set('planid', event.target.value)}>
            <option value="">{defaultPlan ? `${defaultPlan.name} (default)` : 'The default plan'}</option>
            {plans.filter((plan) => !plan.default).map((plan) => <option key={plan.id} value={plan.id}>{plan.name}</option>)}
          </select>
        </Field>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={draft.admin} onChange={(event) => set('admin', event.target.checked)} />
        Administrator (may manage users and plans)
      </label>
      <div className="row wrap">
        <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Creating…' : 'Create user'}</button>
        <button type="button" className="button ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}

function PlanSelect({ user, plans, onChanged }: { user: UserEntry; plans: PlanEntry[] | undefined; onChanged(notice: string): void }) {
  const assign = useAssignPlan()
  const choose = (planId: number) => assign.mutate({ user: user.id, plan: planId }, {
    onSuccess: () => onChanged(`${user.username} is now on the ${plans?.find((plan) => plan.id === planId)?.name ?? 'new'} plan.`),
  })
  return (
    <div className="field plan-select">
      <label className="visually-hidden" htmlFor={`plan-of-${user.id}`}>Plan of {user.username}</label>
      <select id={`plan-of-${user.id}`} value={user.planid} disabled={!plans || assign.isPending} onChange={(event) => choose(Number(event.target.value))}>
        {!plans?.some((plan) => plan.id === user.planid) && <option value={user.planid}>{user.status}</option>}
        {plans?.map((plan) => <option key={plan.id} value={plan.id}>{plan.name}</option>)}
      </select>
      {assign.isError && <p className="field-error" role="alert">{messageOf(assign.error)}</p>}
    </div>
  )
}

function UnsuspendButton({ user, onDone }: { user: UserEntry; onDone(notice: string): void }) {
  const unsuspend = useUserAction('unsuspend')
  const run = () => unsuspend.mutate(user.id, {
    onSuccess: () => onDone(`${user.username} can sign in and use their keys again.`),
    onError: (error) => onDone(messageOf(error)),
  })
  return <button type="button" className="button small" disabled={unsuspend.isPending} onClick={run}>Unsuspend<span className="visually-hidden"> {user.username}</span></button>
}

function ConfirmUserAction({ user, action, onClose, onDone }: { user: UserEntry; action: 'suspend' | 'delete'; onClose(): void; onDone(notice: string): void }) {
  const run = useUserAction(action)
  const confirm = () => run.mutate(user.id, {
    onSuccess: () => {
      onClose()
      onDone(action === 'suspend' ? `${user.username} is suspended: their sessions and keys are refused.` : `${user.username} and everything they owned are deleted.`)
    },
  })
  const error = run.isError ? messageOf(run.error) : undefined
  return action === 'suspend' ? (
    <ConfirmDialog title={`Suspend ${user.username}?`} confirmLabel="Suspend user" busy={run.isPending} error={error} onConfirm={confirm} onCancel={onClose}>
      <p>They are signed out of the dashboard and their API keys stop working until you unsuspend them. Their links keep working for visitors.</p>
    </ConfirmDialog>
  ) : (
    <ConfirmDialog title={`Delete ${user.username}?`} confirmLabel="Delete user" busy={run.isPending} error={error} onConfirm={confirm} onCancel={onClose}>
      <p><strong>{user.username}</strong> ({user.email}) and everything they own (links, QR codes, bio pages, campaigns, statistics) are deleted. This cannot be undone.</p>
    </ConfirmDialog>
  )
}
