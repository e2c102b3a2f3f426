// Change the password: the current one, the new one twice.
import { useState } from 'react'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { checkPasswordChange, type PasswordChange } from './account-forms'
import { useChangePassword } from './account-queries'

const empty: PasswordChange = { current: '', next: '', confirm: '' }

/** The request's names for the form's fields: the new password is `password`. */
const PASSWORD_FIELDS = (serverField: string): keyof PasswordChange | undefined =>
  serverField === 'current' ? 'current' : serverField === 'password' ? 'next' : undefined

export function PasswordSection() {
  const [values, setValues] = useState(empty)
  const change = useChangePassword()
  const { errors, formError, submitting, succeeded, submit } = useCheckedSubmit({
    validate: () => checkPasswordChange(values),
    send: async () => {
      await change.mutateAsync({ current: values.current, password: values.next })
      setValues(empty)
    },
    fields: PASSWORD_FIELDS,
  })

  const set = (key: keyof PasswordChange, value: string) => setValues((current) => ({ ...current, [key]: value }))
  return (
    <section className="card stack" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form className="stack" onSubmit={submit} noValidate>
        <Field label="Current password" error={errors.current}>
          <input type="password" autoComplete="current-password" value={values.current} onChange={(event) => set('current', event.target.value)} />
        </Field>
        <Field label="New password" error={errors.next} hint="At least 8 characters.">
          <input type="password" autoComplete="new-password" value={values.next} onChange={(event) => set('next', event.target.value)} />
        </Field>
        <Field label="Repeat the new password" error={errors.confirm}>
          <input type="password" autoComplete="new-password" value={values.confirm} onChange={(event) => set('confirm', event.target.value)} />
        </Field>
        <FormError message={formError} />
        {succeeded && <p className="notice" role="status">Your password has been changed. Other sessions were signed out.</p>}
        <div><button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Changing…' : 'Change password'}</button></div>
      </form>
    </section>
  )
}
