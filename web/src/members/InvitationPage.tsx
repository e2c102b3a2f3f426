// An invitation's link (/app/invitation#<token>: the fragment never reaches a server's log): what
// it offers, then joining, as the person signed in in this browser, or as a new person with a
// username and a password of their own. Someone who already signs in elsewhere signs in first and
// comes back here. Links mailed before carry the token in the path: the page moves it to the fragment.
import { useEffect, useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { ErrorMessage, Loading } from '../components/States'
import { useAccount, useForgetAll } from '../account/account-queries'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { ROLE_DESCRIPTIONS, ROLE_LABELS, useAcceptInvitation, useInvitationDetails } from './member-queries'

export function InvitationPage() {
  const fromPath = useParams().token
  const location = useLocation()
  const token = fromPath ?? decodeURIComponent(location.hash.replace(/^#/, ''))
  const navigate = useNavigate()
  const forgetAll = useForgetAll()
  const join = useAcceptInvitation()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  // Once joined, the invitation is spent: asking for it again would only be refused.
  const [joined, setJoined] = useState(false)
  useEffect(() => {
    document.title = 'Invitation · Linkwell'
  }, [])
  // An old link: the address bar (and so the browser's history) keeps the fragment form only.
  useEffect(() => {
    if (fromPath) void navigate({ pathname: '/invitation', hash: fromPath }, { replace: true })
  }, [fromPath, navigate])
  const details = useInvitationDetails(token, !joined)
  // Whether this browser is signed in (the session probe answers null for nobody).
  const account = useAccount()
  const signedIn = Boolean(account.data)

  const accept = useCheckedSubmit<'username' | 'password'>({
    validate: () => ({}),
    send: async () => {
      const account = await join.mutateAsync(signedIn ? { token } : { token, username: username.trim(), password })
      setJoined(true)
      // Leave first, then forget what the page showed.
      await navigate('/', { replace: true })
      forgetAll(account)
    },
    fields: ['username', 'password'],
  })

  return (
    <div className="signin">
      <div className="signin-panel">
        {token === '' ? (
          <div className="card stack">
            <h1>This invitation cannot be used</h1>
            <p className="muted small">The link is incomplete: open it again from the invitation's e-mail, or ask for a new one.</p>
          </div>
        ) : details.isPending ? <Loading label="Opening the invitation…" /> : details.isError ? (
          <div className="card stack">
            <h1>This invitation cannot be used</h1>
            <ErrorMessage error={details.error} />
            <p className="muted small">It may have been used already, withdrawn, or be more than 7 days old: ask for a new one.</p>
          </div>
        ) : (
          <form className="card stack" onSubmit={accept.submit} noValidate aria-labelledby="invitation-title">
            <div>
              <h1 id="invitation-title">Join {details.data.workspace}</h1>
              <p className="muted">You are invited as <strong>{ROLE_LABELS[details.data.role]}</strong>: {ROLE_DESCRIPTIONS[details.data.role]}.</p>
            </div>
            {signedIn ? (
              <p className="small">You join as the person signed in in this browser.</p>
            ) : details.data.registered ? (
              <p className="notice">Someone already signs in with {details.data.email}: <Link to="/signin" state={{ from: `/invitation#${token}` }}>sign in</Link>, then come back to this link.</p>
            ) : (
              <>
                <p className="small">Choose how you will sign in as <strong>{details.data.email}</strong>.</p>
                <Field label="Username" hint="3 to 32 letters, digits, _ and -" error={accept.errors.username}>
                  <input type="text" autoComplete="username" value={username} onChange={(event) => setUsername(event.target.value)} />
                </Field>
                <Field label="Password" hint="At least 8 characters" error={accept.errors.password}>
                  <input type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />
                </Field>
              </>
            )}
            <FormError message={accept.formError} />
            {(signedIn || !details.data.registered) && (
              <button type="submit" className="button primary block" disabled={accept.submitting}>{accept.submitting ? 'Joining…' : `Join ${details.data.workspace}`}</button>
            )}
          </form>
        )}
      </div>
    </div>
  )
}
