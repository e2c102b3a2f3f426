// "Sign in with …" for each identity provider of the instance (ADR 033), under the password form.
// A provider that does not answer now is said so, and the password form stays the way in. A
// sign-in the server refused comes back here with `?sso_error=<reason>`: what happened and what to do.
import { useSearchParams } from 'react-router'
import { SSO_EXPLANATIONS, ssoReasonOf } from '../../../src/core/sso-reasons'
import { FormError } from '../components/FormError'
import { useSsoProviders } from './sso-queries'

export function SingleSignOnButtons() {
  const providers = useSsoProviders()
  const [search] = useSearchParams()
  const refused = ssoReasonOf(search.get('sso_error'))
  const offered = providers.data ?? []
  if (offered.length === 0 && !refused) return null
  return (
    <section className="card stack" aria-labelledby="sso-title">
      <h2 id="sso-title">Single sign-on</h2>
      {refused && <FormError message={<><strong>{SSO_EXPLANATIONS[refused].title}.</strong> {SSO_EXPLANATIONS[refused].advice}</>} />}
      {offered.map((provider) => provider.available
        ? <a key={provider.name} className="button block" href={provider.start}>Sign in with {provider.label}</a>
        : <p key={provider.name} className="notice" role="status">{provider.label} does not answer right now. Sign in with your password, or try again in a few minutes.</p>)}
    </section>
  )
}
