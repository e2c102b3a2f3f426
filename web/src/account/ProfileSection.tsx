// The account's e-mail address and plan; the address is the workspace's, an owner's to change.
import { useState } from 'react'
import { Field } from '../components/Field'
import { formatDate } from '../components/format'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { checkEmail } from './account-forms'
import { useAccount, useUpdateAccount } from './account-queries'
import { RoleNote, useMay } from '../members/RoleGuard'

export function ProfileSection() {
  const account = useAccount()
  const update = useUpdateAccount()
  const [email, setEmail] = useState(account.data?.email ?? '')
  const mayChange = useMay('owner')
  const { errors, formError, submitting, succeeded, submit } = useCheckedSubmit<'email'>({
    validate: () => {
      const problem = checkEmail(email)
      return problem ? { email: problem } : {}
    },
    send: () => update.mutateAsync({ email: email.trim() }),
    fields: ['email'],
  })

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
        <Field label="E-mail address" error={errors.email}>
          <input type="email" autoComplete="email" value={email} disabled={!mayChange} aria-describedby={mayChange ? undefined : 'profile-role-reason'} onChange={(event) => setEmail(event.target.value)} />
        </Field>
        <button type="submit" className="button" disabled={!mayChange || submitting || email.trim() === data?.email}>{submitting ? 'Saving…' : 'Save e-mail'}</button>
      </form>
      <RoleNote id="profile-role-reason" needed="owner" allowed={mayChange} />
      <FormError message={formError} />
      {succeeded && <p className="notice" role="status">Your e-mail address has been updated.</p>}
    </section>
  )
}
