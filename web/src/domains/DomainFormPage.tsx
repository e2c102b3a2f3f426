// Add a branded domain (with the DNS records to create and a check of what it resolves to now),
// or change the redirects of one.
import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { DnsCheckResult, DnsInstructions } from './dns'
import { DOMAIN_FIELDS, domainProblem, emptyDomainForm, hostOf, validateDomainForm, type DomainFormValues } from './domain-form'
import { useAddDomain, useDomain, useUpdateDomain } from './domain-queries'
import './domains.css'

interface DomainFormProps {
  mode: 'create' | 'edit'
  initial: DomainFormValues
  submitLabel: string
  onSubmit(values: DomainFormValues): Promise<unknown>
}

function DomainForm({ mode, initial, submitLabel, onSubmit }: DomainFormProps) {
  const [values, setValues] = useState(initial)
  const [checked, setChecked] = useState<string>()
  const set = (key: keyof DomainFormValues, value: string) => setValues((current) => ({ ...current, [key]: value }))
  const typedHost = domainProblem(values.domain) ? '' : hostOf(values.domain.trim())
  const { errors, formError, submitting, submit, setError } = useCheckedSubmit({
    validate: () => validateDomainForm(values, mode),
    send: () => onSubmit(values),
    fields: DOMAIN_FIELDS,
    summary: 'Some fields need a fix before the domain can be saved.',
  })

  function checkDns() {
    const problem = domainProblem(values.domain)
    setError('domain', problem)
    if (!problem) setChecked(values.domain.trim())
  }

  return (
    <div className="domain-form-grid">
      <form className="card stack" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'Add domain' : 'Edit domain'}>
        <FormError message={formError} />
        {mode === 'create' ? (
          <>
            <Field label="Domain" error={errors.domain} hint="The address visitors will type, with http:// or https:// and no path.">
              <input type="url" inputMode="url" placeholder="https://go.yourbrand.com" value={values.domain} onChange={(event) => set('domain', event.target.value)} autoFocus />
            </Field>
            <div className="row wrap">
              <button type="button" className="button" onClick={checkDns}>Check DNS</button>
              <span className="hint">See what the domain resolves to before adding it.</span>
            </div>
            {checked && <DnsCheckResult key={checked} domain={checked} />}
          </>
        ) : (
          <div className="field">
            <span className="label-text">Domain</span>
            <p className="domain-fixed"><strong>{values.domain}</strong> <span className="muted small">(cannot be changed)</span></p>
          </div>
        )}
        <Field label="Root redirect" optional error={errors.redirectroot} hint={`Where ${typedHost ? `${typedHost}/` : 'the domain’s home page'} sends visitors. Empty: a “not found” page.`}>
          <input type="url" inputMode="url" placeholder="https://www.yourbrand.com" value={values.redirectroot} onChange={(event) => set('redirectroot', event.target.value)} />
        </Field>
        <Field label="404 redirect" optional error={errors.redirect404} hint="Where an unknown short link on this domain sends visitors. Empty: a “not found” page.">
          <input type="url" inputMode="url" placeholder="https://www.yourbrand.com/not-found" value={values.redirect404} onChange={(event) => set('redirect404', event.target.value)} />
        </Field>
        <div className="row wrap">
          <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : submitLabel}</button>
          <Link to="/domains" className="button ghost">Cancel</Link>
        </div>
      </form>
      {mode === 'create' && <DnsInstructions host={typedHost} />}
    </div>
  )
}

export function CreateDomainPage() {
  const navigate = useNavigate()
  const add = useAddDomain()
  return (
    <>
      <PageHeader title="Add domain" description="Serve short links on a domain you own." />
      <DomainForm
        mode="create"
        initial={emptyDomainForm}
        submitLabel="Add domain"
        onSubmit={async (values) => {
          const added = await add.mutateAsync({ domain: values.domain.trim(), redirectroot: values.redirectroot.trim(), redirect404: values.redirect404.trim() })
          // Next: prove control of it (the TXT record), on its own page.
          navigate(`/domains/${added.id}`, { state: { notice: `${hostOf(values.domain.trim())} has been added.` } })
        }}
      />
    </>
  )
}

export function EditDomainPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const update = useUpdateDomain()
  const domain = useDomain(id)
  return (
    <>
      <PageHeader title="Edit domain" description={domain.data ? hostOf(domain.data.domain) : undefined} />
      {domain.isError ? <ErrorMessage error={domain.error} onRetry={() => domain.refetch()} /> : !domain.data ? <Loading /> : (
        <DomainForm
          mode="edit"
          initial={{ domain: domain.data.domain, redirectroot: domain.data.redirectroot ?? '', redirect404: domain.data.redirect404 ?? '' }}
          submitLabel="Save redirects"
          onSubmit={async (values) => {
            // An empty field clears its redirect.
            await update.mutateAsync({ id, body: { redirectroot: values.redirectroot.trim(), redirect404: values.redirect404.trim() } })
            navigate('/domains', { state: { notice: 'Redirects saved.' } })
          }}
        />
      )}
    </>
  )
}
