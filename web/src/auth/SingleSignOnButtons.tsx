// "Sign in with …" for each identity provider of the instance (ADR 033), under the password form.
// A provider that does not answer now is said so, and the password form stays the way in.
import { useSsoProviders } from './sso-queries'

export function SingleSignOnButtons() {
  const providers = useSsoProviders()
  const offered = providers.data ?? []
  if (offered.length === 0) return null
  return (
    <section className="card stack" aria-labelledby="sso-title">
      <h2 id="sso-title">Single sign-on</h2>
      {offered.map((provider) => provider.available
        ? <a key={provider.name} className="button block" href={provider.start}>Sign in with {provider.label}</a>
        : <p key={provider.name} className="notice" role="status">{provider.label} does not answer right now. Sign in with your password, or try again in a few minutes.</p>)}
    </section>
  )
}
