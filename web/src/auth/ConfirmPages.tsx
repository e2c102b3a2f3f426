// The confirmation links (issue 38): /app/confirm-sign-up#token=… makes the account and signs in;
// /app/confirm-email#token=… makes the new address the one to sign in with. Each asks for one
// click rather than acting on load: a mail scanner that opens links must not spend them.
import { useEffect, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { tokenOfHash, useConfirmEmail, useConfirmSignUp } from './auth-queries'
import { SignInFrame } from './SignInPage'

function IncompleteLink({ again }: { again: string }) {
  return (
    <SignInFrame>
      <div className="card stack">
        <h1>This link is incomplete</h1>
        <p className="muted">Open it again from the e-mail, or {again}.</p>
      </div>
    </SignInFrame>
  )
}

export function ConfirmSignUpPage() {
  const token = tokenOfHash(useLocation().hash)
  const navigate = useNavigate()
  const confirm = useConfirmSignUp()
  useEffect(() => {
    document.title = 'Confirm your account · Linkwell'
  }, [])
  const { formError, submitting, submit } = useCheckedSubmit<never>({
    validate: () => ({}),
    send: async () => {
      await confirm.mutateAsync(token)
      await navigate('/', { replace: true })
    },
    fields: [],
  })
  if (token === '') return <IncompleteLink again="sign up again" />
  return (
    <SignInFrame>
      <form className="card stack" onSubmit={submit} noValidate aria-labelledby="confirm-signup-title">
        <div>
          <h1 id="confirm-signup-title">Confirm your account</h1>
          <p className="muted">One last step: confirm your e-mail address. We set up your workspace and sign you in.</p>
        </div>
        <FormError message={formError} />
        {formError && <p className="small"><Link to="/sign-up">Sign up again</Link> · <Link to="/signin">Sign in</Link></p>}
        <button type="submit" className="button primary block" disabled={submitting}>{submitting ? 'Creating…' : 'Confirm and sign in'}</button>
      </form>
    </SignInFrame>
  )
}

export function ConfirmEmailPage() {
  const token = tokenOfHash(useLocation().hash)
  const confirm = useConfirmEmail()
  const [answer, setAnswer] = useState<string>()
  useEffect(() => {
    document.title = 'Confirm your new address · Linkwell'
  }, [])
  const { formError, submitting, submit } = useCheckedSubmit<never>({
    validate: () => ({}),
    send: async () => setAnswer(await confirm.mutateAsync(token)),
    fields: [],
  })
  if (token === '') return <IncompleteLink again="ask for the change again on your account page" />
  return (
    <SignInFrame>
      <form className="card stack" onSubmit={submit} noValidate aria-labelledby="confirm-email-title">
        <div>
          <h1 id="confirm-email-title">Confirm your new address</h1>
          <p className="muted">From now on you sign in with this address. Your old address is told about the change.</p>
        </div>
        <FormError message={formError} />
        {answer ? (
          <p className="notice" role="status">{answer} <Link to="/">Go to the dashboard</Link></p>
        ) : (
          <button type="submit" className="button primary block" disabled={submitting}>{submitting ? 'Confirming…' : 'Confirm the new address'}</button>
        )}
      </form>
    </SignInFrame>
  )
}
