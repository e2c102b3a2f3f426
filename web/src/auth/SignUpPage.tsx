// Sign-up (issue 38), when the server takes it (GET /api/auth/options): an address, a password and
// perhaps a username; the account is made once the mailed link is opened.
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { checkEmail } from '../account/account-forms'
import { useAuthOptions, useSignUp } from './auth-queries'
import { SignInFrame } from './SignInPage'

type SignUpField = 'username' | 'email' | 'password'

export function SignUpPage() {
  const options = useAuthOptions()
  const signUp = useSignUp()
  const [username, setUsername] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [answer, setAnswer] = useState<string>()
  useEffect(() => {
    document.title = 'Create an account · Linkwell'
  }, [])
  const { errors, formError, submitting, submit } = useCheckedSubmit<SignUpField>({
    validate: () => {
      const found: Partial<Record<SignUpField, string>> = {}
      const emailProblem = checkEmail(email)
      if (emailProblem) found.email = emailProblem
      if (username.trim() && !/^[A-Za-z0-9_-]{3,32}$/.test(username.trim())) found.username = 'Use 3 to 32 letters, digits, _ and -.'
      if (password.length < 8) found.password = 'Use at least 8 characters.'
      return found
    },
    send: async () => setAnswer(await signUp.mutateAsync({ email: email.trim(), password, ...(username.trim() ? { username: username.trim() } : {}) })),
    fields: ['username', 'email', 'password'],
  })
  if (options.isPending) return <SignInFrame><Loading /></SignInFrame>
  const offered = options.data?.signup ?? 'closed'
  if (offered === 'closed') {
    return (
      <SignInFrame>
        <div className="card stack">
          <h1>Sign-up is closed</h1>
          <p className="muted">Accounts on this server are made by invitation. Ask its administrator, or <Link to="/signin">sign in</Link>.</p>
        </div>
      </SignInFrame>
    )
  }
  return (
    <SignInFrame>
      <form className="card stack" onSubmit={submit} noValidate aria-labelledby="signup-title">
        <div>
          <h1 id="signup-title">Create an account</h1>
          <p className="muted">
            Your own workspace for short links, QR codes and their clicks.
            {offered === 'domains' && options.data?.domains && <> Open to addresses at {options.data.domains.join(', ')}.</>}
          </p>
        </div>
        <Field label="E-mail address" error={errors.email}>
          <input type="email" name="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} autoFocus />
        </Field>
        <Field label="Username" optional error={errors.username} hint="Made from your address when left empty.">
          <input type="text" name="username" autoComplete="username" value={username} onChange={(event) => setUsername(event.target.value)} />
        </Field>
        <Field label="Password" error={errors.password} hint="At least 8 characters.">
          <input type="password" name="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />
        </Field>
        <FormError message={formError} />
        {answer && <p className="notice" role="status">{answer}</p>}
        <button type="submit" className="button primary block" disabled={submitting}>{submitting ? 'Sending…' : 'Create the account'}</button>
      </form>
      <p className="signin-links small">Already have an account? <Link to="/signin">Sign in</Link></p>
    </SignInFrame>
  )
}
