// The person's sign-in address and the plan. A new address is confirmed by a link mailed to it,
// and the current password confirms who asks (issue 38); the workspaces they own that had the old
// address follow it.
import { useState } from 'react'
import { Field } from '../components/Field'
import { formatDate } from '../components/format'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { checkEmail } from './account-forms'
import { useAccount } from './account-queries'
import { useRequestEmailChange } from '../auth/auth-queries'

export function ProfileSection() {
  const account = useAccount()
  const change = useRequestEmailChange()
  const [email, setEmail] = useState('')
  const [current, setCurrent] = useState('')
  const [sent, setSent] = useState<string>()
  const { errors, formError, submitting, submit } = useCheckedSubmit<'email' | 'current'>({
    validate: () => {
      const found: Partial<Record<'email' | 'current', string>> = {}
      const problem = checkEmail(email)
      if (problem) found.email = problem
      return found
    },
    send: async () => {
      // Without a password the server takes a single sign-on of the last ten minutes, or says what it needs.
      setSent(await change.mutateAsync({ email: email.trim(), ...(current ? { current } : {}) }))
      setCurrent('')
    },
    fields: ['email', 'current'],
  })

  const data = account.data
  return (
    <section className="card stack" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      {data && (
        <p className="muted small">
          Signed in as <strong>{data.username}</strong> ({data.email}) · {data.status} plan{data.expires ? ` until ${formatDate(data.expires)}` : ''} · member since {formatDate(data.registered)}
        </p>
      )}
      <form className="stack" onSubmit={submit} noValidate aria-labelledby="email-change-title">
        <h3 id="email-change-title">Change your e-mail address</h3>
        <Field label="New e-mail address" error={errors.email} hint="We mail a link there; the change happens when you open it.">
          <input type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </Field>
        <Field label="Current password" hint="Signed in with single sign-on? Leave it empty within ten minutes of signing in." error={errors.current}>
          <input type="password" autoComplete="current-password" value={current} onChange={(event) => setCurrent(event.target.value)} />
        </Field>
        <FormError message={formError} />
        {sent && <p className="notice" role="status">{sent}</p>}
        <div><button type="submit" className="button" disabled={submitting}>{submitting ? 'Sending…' : 'Send the confirmation link'}</button></div>
      </form>
    </section>
  )
}
