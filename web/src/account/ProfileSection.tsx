// The account's e-mail address and plan; the address is the workspace's, an owner's to change.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { api, messageOf, unwrap } from '../api/client'
import { Field } from '../components/Field'
import { formatDate } from '../components/format'
import { accountQueryKey, useAccount } from '../shell/session'
import { checkEmail } from './account-forms'
import { RoleNote, useMay } from '../members/RoleGuard'

export function ProfileSection() {
  const account = useAccount()
  const queryClient = useQueryClient()
  const [email, setEmail] = useState(account.data?.email ?? '')
  const [error, setError] = useState<string>()
  const mayChange = useMay('owner')
  const save = useMutation({
    mutationFn: () => unwrap(api.PUT('/api/account/update', { body: { email: email.trim() } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueryKey }),
  })

  function submit(event: FormEvent) {
    event.preventDefault()
    const problem = checkEmail(email)
    setError(problem)
    if (!problem) save.mutate()
  }

  const data = account.data
  return (
    <section className="card stack" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      {data && (
        <p className="muted small">
          Signed in as <strong>{data.username}</strong> · {data.status} plan{data.expires ? ` until ${formatDate(data.expires)}` : ''} · member since {formatDate(data.registered)}
        </p>
      )}
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field label="E-mail address" error={error ?? (save.isError ? messageOf(save.error) : undefined)}>
          <input type="email" autoComplete="email" value={email} disabled={!mayChange} aria-describedby={mayChange ? undefined : 'profile-role-reason'} onChange={(event) => { setEmail(event.target.value); save.reset() }} />
        </Field>
        <button type="submit" className="button" disabled={!mayChange || save.isPending || email.trim() === data?.email}>{save.isPending ? 'Saving…' : 'Save e-mail'}</button>
      </form>
      <RoleNote id="profile-role-reason" needed="owner" allowed={mayChange} />
      {save.isSuccess && <p className="notice" role="status">Your e-mail address has been updated.</p>}
    </section>
  )
}
