// A reset link (/app/reset-password#token=…, issue 38): a new password, twice. Every session of
// the person ends; they sign in again with it.
import { useEffect, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { tokenOfHash, useResetPassword } from './auth-queries'
import { SignInFrame } from './SignInPage'

type ResetField = 'password' | 'confirm' | 'token'

export function ResetPasswordPage() {
  const token = tokenOfHash(useLocation().hash)
  const navigate = useNavigate()
  const reset = useResetPassword()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  useEffect(() => {
    document.title = 'Choose a new password · Linkwell'
  }, [])
  const { errors, formError, submitting, submit } = useCheckedSubmit<ResetField>({
    validate: () => {
      const found: Partial<Record<ResetField, string>> = {}
      if (password.length < 8) found.password = 'Use at least 8 characters.'
      else if (password.length > 256) found.password = 'Use at most 256 characters.'
      else if (confirm !== password) found.confirm = 'The two passwords differ.'
      return found
    },
    send: async () => {
      await reset.mutateAsync({ token, password })
      await navigate('/signin', { replace: true, state: { passwordReset: true } })
    },
    // A refused link is the form's error line: it is no field the person can fix.
    fields: ['password'],
  })
  if (token === '') {
    return (
      <SignInFrame>
        <div className="card stack">
          <h1>This link is incomplete</h1>
          <p className="muted">Open it again from the e-mail, or <Link to="/forgot-password">ask for a new one</Link>.</p>
        </div>
      </SignInFrame>
    )
  }
  return (
    <SignInFrame>
      <form className="card stack" onSubmit={submit} noValidate aria-labelledby="reset-title">
        <div>
          <h1 id="reset-title">Choose a new password</h1>
          <p className="muted">You will be signed out everywhere, then sign in with the new password.</p>
        </div>
        <Field label="New password" error={errors.password} hint="At least 8 characters.">
          <input type="password" name="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} autoFocus />
        </Field>
        <Field label="Repeat the new password" error={errors.confirm}>
          <input type="password" name="confirm" autoComplete="new-password" value={confirm} onChange={(event) => setConfirm(event.target.value)} />
        </Field>
        <FormError message={formError} />
        {formError && <p className="small"><Link to="/forgot-password">Ask for a new link</Link></p>}
        <button type="submit" className="button primary block" disabled={submitting}>{submitting ? 'Saving…' : 'Set the new password'}</button>
      </form>
    </SignInFrame>
  )
}
