// Forgotten password (issue 38): a username or an address; the server mails a link if it names an
// account, and answers the same either way, so this page says the same either way.
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { useForgotPassword } from './auth-queries'
import { SignInFrame } from './SignInPage'

export function ForgotPasswordPage() {
  const [login, setLogin] = useState('')
  const [answer, setAnswer] = useState<string>()
  const forgot = useForgotPassword()
  useEffect(() => {
    document.title = 'Forgot your password? · Linkwell'
  }, [])
  const { errors, formError, submitting, submit } = useCheckedSubmit<'login'>({
    validate: () => (login.trim() ? {} : { login: 'Enter your e-mail address or username.' }),
    send: async () => setAnswer(await forgot.mutateAsync(login.trim())),
    fields: ['login'],
  })
  return (
    <SignInFrame>
      <form className="card stack" onSubmit={submit} noValidate aria-labelledby="forgot-title">
        <div>
          <h1 id="forgot-title">Forgot your password?</h1>
          <p className="muted">Enter the e-mail address or username you sign in with. We will mail you a link to choose a new password.</p>
        </div>
        <Field label="E-mail or username" error={errors.login}>
          <input type="text" name="login" autoComplete="username" value={login} onChange={(event) => setLogin(event.target.value)} autoFocus />
        </Field>
        <FormError message={formError} />
        {answer && <p className="notice" role="status">{answer}</p>}
        <button type="submit" className="button primary block" disabled={submitting}>{submitting ? 'Sending…' : 'Send the link'}</button>
      </form>
      <p className="signin-links small"><Link to="/signin">Back to sign-in</Link></p>
    </SignInFrame>
  )
}
