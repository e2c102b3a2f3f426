// Sign in with the account's e-mail (or username) and password; the server sets the session cookie.
import { useEffect, useState, type ReactNode } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { useSignIn, useVerifyCode, type SignedIn } from '../account/account-queries'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { SignInLinks } from './SignInLinks'
import { SingleSignOnButtons } from './SingleSignOnButtons'

interface SignInErrors {
  login?: string
  password?: string
}

const SIGN_IN_FIELDS: ReadonlyArray<keyof SignInErrors> = ['login', 'password']

/** The client's checks, before anything is sent. */
export function checkSignIn(login: string, password: string): SignInErrors {
  const errors: SignInErrors = {}
  if (!login.trim()) errors.login = 'Enter your e-mail address or username.'
  if (!password) errors.password = 'Enter your password.'
  return errors
}

export function SignInPage() {
  const navigate = useNavigate()
  const location = useLocation()
  const signIn = useSignIn()
  const state = (location.state ?? {}) as { from?: string; signedOut?: boolean; passwordReset?: boolean }
  const [login, setLogin] = useState('')
  const [password, setPassword] = useState('')
  useEffect(() => {
    document.title = 'Sign in · Linkwell'
  }, [])

  // The password was right and a second factor is on: the second step asks for a code (ADR 025).
  const [awaitingCode, setAwaitingCode] = useState(false)

  // A complete sign-in is the cached account by now (account-queries.ts): on to the page asked for.
  async function enter(signedIn: SignedIn) {
    if (signedIn.step === 'code' || signedIn.data === null) {
      setAwaitingCode(true)
      return
    }
    await navigate(signedIn.step === 'enrol' ? '/security' : state.from && state.from !== '/signin' ? state.from : '/', { replace: true })
  }

  const { errors, formError, submitting, submit } = useCheckedSubmit({
    validate: () => checkSignIn(login, password),
    send: async () => enter(await signIn.mutateAsync({ login: login.trim(), password })),
    fields: SIGN_IN_FIELDS,
  })

  if (awaitingCode) return <SignInFrame><SecondStep onSignedIn={enter} /></SignInFrame>

  return (
    <SignInFrame>
        <form className="card stack" onSubmit={submit} noValidate aria-labelledby="signin-title">
          <div>
            <h1 id="signin-title">Sign in</h1>
            <p className="muted">Manage your short links, campaigns and their clicks.</p>
          </div>
          {state.signedOut && !formError && <p className="notice" role="status">You have signed out.</p>}
          {state.passwordReset && !formError && <p className="notice" role="status">Your password has been changed. Sign in with the new one.</p>}
          <Field label="E-mail or username" error={errors.login}>
            <input type="text" name="login" autoComplete="username" value={login} onChange={(event) => setLogin(event.target.value)} autoFocus />
          </Field>
          <Field label="Password" error={errors.password}>
            <input type="password" name="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
          </Field>
          <FormError message={formError} />
          <button type="submit" className="button primary block" disabled={submitting}>
            {submitting ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <SignInLinks />
        <SingleSignOnButtons />
        <p className="muted small center">The first account and its password are printed in the server log at first start.</p>
    </SignInFrame>
  )
}

/** The sign-in page's frame: the brand above a card (the pages of forgotten passwords and sign-up share it). */
export function SignInFrame({ children }: { children: ReactNode }) {
  return (
    <div className="signin">
      <div className="signin-panel">
        <div className="brand signin-brand">
          <span className="brand-mark" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="18" height="18"><path d="M9.5 14.5l5-5M8 11.5l-2 2a3.5 3.5 0 005 5l2-2M16 12.5l2-2a3.5 3.5 0 00-5-5l-2 2" stroke="currentColor" strokeWidth="2.2" fill="none" strokeLinecap="round" /></svg>
          </span>
          Linkwell
        </div>
        {children}
      </div>
    </div>
  )
}

/** The second step: a code from the authenticator app, or a recovery code. */
function SecondStep({ onSignedIn }: { onSignedIn: (signedIn: SignedIn) => Promise<void> }) {
  const [code, setCode] = useState('')
  const verify = useVerifyCode()
  const { errors, formError, submitting, submit } = useCheckedSubmit({
    validate: () => (code.trim() ? {} : { code: 'Enter the six-digit code from your app, or a recovery code.' }),
    send: async () => onSignedIn(await verify.mutateAsync(code.trim())),
    fields: ['code'] as const,
  })
  return (
    <form className="card stack" onSubmit={submit} noValidate aria-labelledby="code-title">
      <div>
        <h1 id="code-title">Enter your code</h1>
        <p className="muted">Open your authenticator app and enter the six-digit code for Linkwell. Lost your phone? Enter one of your recovery codes.</p>
      </div>
      <Field label="Code" error={errors.code}>
        <input type="text" name="code" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} autoFocus />
      </Field>
      <FormError message={formError} />
      <button type="submit" className="button primary block" disabled={submitting}>{submitting ? 'Checking…' : 'Verify'}</button>
    </form>
  )
}
