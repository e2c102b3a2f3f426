// The identity providers of the instance (ADR 033): the one OIDC_ISSUER configures, shown as it
// is, and those the administrator adds here (the client secret is sealed at rest with SECRETS_KEY).
// The redirect URI to register at each provider is shown to copy.
import { useEffect, useState } from 'react'
import { PageHeader } from '../components/PageHeader'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { useAddProvider, useAdminProviders, useDeleteProvider } from '../auth/sso-queries'
import './admin.css'

const EMPTY = { name: '', label: '', issuer: '', clientid: '', clientsecret: '', groupclaim: 'groups', alloweddomains: '' }
type ProviderField = keyof typeof EMPTY

export function SsoProvidersPage() {
  useEffect(() => {
    document.title = 'Single sign-on · Linkwell'
  }, [])
  const providers = useAdminProviders()
  const add = useAddProvider()
  const remove = useDeleteProvider()
  const [form, setForm] = useState(EMPTY)
  const set = (field: ProviderField) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value })
  const { errors, formError, submitting, submit } = useCheckedSubmit<ProviderField>({
    validate: () => {
      const found: Partial<Record<ProviderField, string>> = {}
      if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(form.name)) found.name = 'Use 1 to 32 lower-case letters, digits and dashes.'
      if (!form.label.trim()) found.label = 'Enter the text of the button.'
      if (!/^https?:\/\//.test(form.issuer.trim())) found.issuer = 'Enter the provider\'s issuer URL.'
      if (!form.clientid.trim()) found.clientid = 'Enter the client id registered at the provider.'
      if (!form.clientsecret) found.clientsecret = 'Enter the client secret.'
      return found
    },
    send: async () => {
      await add.mutateAsync({ ...form, groupclaim: form.groupclaim.trim() || 'groups' })
      setForm(EMPTY)
    },
    fields: ['name', 'label', 'issuer', 'clientid', 'clientsecret', 'groupclaim', 'alloweddomains'],
  })

  return (
    <>
      <PageHeader title="Single sign-on" description="Identity providers people sign in with (OpenID Connect)." />
      {providers.isPending && <section className="card" aria-busy="true"><p className="muted">Loading providers…</p></section>}
      {providers.isError && <section className="card"><FormError error={providers.error} /></section>}
      {providers.data && (
        <section className="card stack sso-providers" aria-labelledby="providers-title">
          <h2 id="providers-title">Providers</h2>
          <p>Register this redirect URI at each provider: <code>{providers.data.callback}</code></p>
          {providers.data.configured && <p className="muted">From the configuration (OIDC_ISSUER): <code>{providers.data.configured.issuer}</code>, client <code>{providers.data.configured.clientid}</code>.</p>}
          {providers.data.providers.length === 0
            ? <p className="muted">No provider added here yet.</p>
            : (
              <ul className="stack">
                {providers.data.providers.map((provider) => (
                  <li key={provider.id}>
                    <strong>{provider.label}</strong> <span className="muted">({provider.name}) · {provider.issuer} · groups from “{provider.groupclaim}”</span>{' '}
                    <button type="button" className="button small" disabled={remove.isPending} onClick={() => remove.mutate(provider.id)}>Remove {provider.label}</button>
                  </li>
                ))}
              </ul>
            )}
          <FormError error={remove.error} />
        </section>
      )}
      <form className="card stack" onSubmit={submit} noValidate aria-labelledby="add-provider-title">
        <h2 id="add-provider-title">Add a provider</h2>
        <Field label="Name" hint="What the sign-in link names it by, e.g. okta." error={errors.name}><input value={form.name} onChange={set('name')} /></Field>
        <Field label="Button text" hint={'Shown as "Sign in with …".'} error={errors.label}><input value={form.label} onChange={set('label')} /></Field>
        <Field label="Issuer URL" error={errors.issuer}><input type="url" value={form.issuer} onChange={set('issuer')} /></Field>
        <Field label="Client id" error={errors.clientid}><input value={form.clientid} onChange={set('clientid')} autoComplete="off" /></Field>
        <Field label="Client secret" error={errors.clientsecret}><input type="password" value={form.clientsecret} onChange={set('clientsecret')} autoComplete="new-password" /></Field>
        <Field label="Group claim" optional error={errors.groupclaim}><input value={form.groupclaim} onChange={set('groupclaim')} /></Field>
        <Field label="Allowed e-mail domains" optional hint="Comma-separated: people of these domains are created at their first sign-in." error={errors.alloweddomains}><input value={form.alloweddomains} onChange={set('alloweddomains')} /></Field>
        <FormError message={formError} />
        <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Adding…' : 'Add provider'}</button>
      </form>
    </>
  )
}
