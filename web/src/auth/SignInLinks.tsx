// Below the sign-in form (issue 38): "Forgot your password?" and, where the server takes sign-ups,
// "Create an account". Other ways of signing in add their own buttons beside this, not in it.
import { Link } from 'react-router'
import { useAuthOptions } from './auth-queries'

export function SignInLinks() {
  const options = useAuthOptions()
  const signUp = options.data && options.data.signup !== 'closed'
  return (
    <p className="signin-links small">
      <Link to="/forgot-password">Forgot your password?</Link>
      {signUp && <> · <Link to="/sign-up">Create an account</Link></>}
    </p>
  )
}
