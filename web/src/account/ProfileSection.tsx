// The account's e-mail address and plan.
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../api/client'
import { Field } from '../components/Field'
import { formatDate } from '../components/format'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { checkEmail } from './account-forms'
import { accountQueryKey, useAccount } from './account-queries'

export function ProfileSection() {
  const account = useAccount()
  const queryClient = useQueryClient()
  const [email, setEmail] = useState(account.data?.email ?? '')
  const { errors, formError, submitting, succeeded, submit } = useCheckedSubmit<'email'>({
    validate: () => {
      const problem = checkEmail(email)
      return problem ? { email: problem } : {}
    },
    send: async () => {
      await unwrap(api.PUT('/api/account/update', { body: { email: email.trim() } }))
      await queryClient.invalidateQueries({ queryKey: accountQueryKey })
    },
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
          <input type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </Field>
        <button type="submit" className="button" disabled={submitting || email.trim() === data?.email}>{submitting ? 'Saving…' : 'Save e-mail'}</button>
      </form>
      {formError && <p className="form-error" role="alert">{formError}</p>}
      {succeeded && <p className="notice" role="status">Your e-mail address has been updated.</p>}
    </section>
  )
}
