// Change the password: the current one, the new one twice.
import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { ApiError, api, messageOf, ruleOfMessage, unwrap } from '../api/client'
import { Field } from '../components/Field'
import { checkPasswordChange, type PasswordChange } from './account-forms'

const empty: PasswordChange = { current: '', next: '', confirm: '' }

export function PasswordSection() {
  const [values, setValues] = useState(empty)
  const [errors, setErrors] = useState<Partial<Record<keyof PasswordChange, string>>>({})
  const change = useMutation({
    mutationFn: () => unwrap(api.PUT('/api/account/password', { body: { current: values.current, password: values.next } })),
    onSuccess: () => setValues(empty),
    onError: (error) => {
      const field = error instanceof ApiError ? error.field : undefined
      if (field === 'current') setErrors({ current: ruleOfMessage(messageOf(error)) })
      else if (field === 'password') setErrors({ next: ruleOfMessage(messageOf(error)) })
    },
  })

  function submit(event: FormEvent) {
    event.preventDefault()
    const found = checkPasswordChange(values)
    setErrors(found)
    change.reset()
    if (Object.keys(found).length === 0) change.mutate()
  }

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
        {change.isError && !errors.current && !errors.next && <p className="form-error" role="alert">{messageOf(change.error)}</p>}
        {change.isSuccess && <p className="notice" role="status">Your password has been changed. Other sessions were signed out.</p>}
        <div><button type="submit" className="button primary" disabled={change.isPending}>{change.isPending ? 'Changing…' : 'Change password'}</button></div>
      </form>
    </section>
  )
}
