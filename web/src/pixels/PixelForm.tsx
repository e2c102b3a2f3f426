// A pixel's provider, name and tag; the tag is checked against the provider's form as the server
// checks it, and the server's refusal shows beside the field it is about. The provider is fixed
// once the pixel exists (the API cannot change it).
import { useState } from 'react'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { PIXEL_FIELDS, validatePixelForm, type PixelFormValues, type PixelProvider } from './pixel-form'

interface PixelFormProps {
  mode: 'create' | 'edit'
  initial: PixelFormValues
  providers: PixelProvider[]
  submitLabel: string
  onSubmit(values: PixelFormValues): Promise<unknown>
  onCancel(): void
}

export function PixelForm({ mode, initial, providers, submitLabel, onSubmit, onCancel }: PixelFormProps) {
  const [values, setValues] = useState(initial)
  const provider = providers.find((entry) => entry.type === values.type)
  const set = <K extends keyof PixelFormValues>(key: K, value: PixelFormValues[K]) => setValues((current) => ({ ...current, [key]: value }))

  const { errors, formError, submitting, submit, setError } = useCheckedSubmit({
    validate: () => validatePixelForm(values, provider),
    send: () => onSubmit({ ...values, name: values.name.trim(), tag: values.tag.trim() }),
    fields: PIXEL_FIELDS,
  })

  return (
    <form className="stack pixel-form" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'New pixel' : `Edit pixel ${initial.name}`}>
      <FormError message={formError} />
      <div className="pixel-form-grid">
        {mode === 'create' ? (
          <Field label="Provider" error={errors.type}>
            <select value={values.type} onChange={(event) => { set('type', event.target.value); setError('tag', undefined) }} autoFocus>
              <option value="">Choose…</option>
              {providers.map((entry) => <option key={entry.type} value={entry.type}>{entry.label}</option>)}
            </select>
          </Field>
        ) : (
          <div className="field">
            <span className="label-like">Provider</span>
            <span className="fixed-value">{provider?.label ?? values.type}</span>
          </div>
        )}
        <Field label="Name" error={errors.name} hint="Yours to recognise it by, up to 100 characters.">
          <input type="text" value={values.name} maxLength={100} placeholder="Shop conversions" onChange={(event) => set('name', event.target.value)} />
        </Field>
        <Field label="Tag" error={errors.tag} hint={provider ? `${provider.expected.charAt(0).toUpperCase()}${provider.expected.slice(1)}.` : 'Choose the provider first.'}>
          <input type="text" value={values.tag} spellCheck={false} autoCapitalize="off" placeholder={provider?.example ?? ''} onChange={(event) => set('tag', event.target.value)} />
        </Field>
      </div>
      <div className="row wrap">
        <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : submitLabel}</button>
        <button type="button" className="button ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
