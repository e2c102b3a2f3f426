// Name, rotator slug and visibility of a campaign, checked as the server checks them, with the
// server's refusal beside the field it is about.
import { useState } from 'react'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { CAMPAIGN_FIELDS, validateCampaignForm, type CampaignFormValues } from './campaign-form'
import './campaigns.css'

interface CampaignFormProps {
  mode: 'create' | 'edit'
  initial: CampaignFormValues
  /** Where rotators live (`https://example.com/r/`), for the live preview. */
  rotatorBase: string
  submitLabel: string
  onSubmit(values: CampaignFormValues): Promise<unknown>
  onCancel(): void
}

export function CampaignForm({ mode, initial, rotatorBase, submitLabel, onSubmit, onCancel }: CampaignFormProps) {
  const [values, setValues] = useState(initial)
  const set = <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) => setValues((current) => ({ ...current, [key]: value }))

  const { errors, formError, submitting, submit } = useCheckedSubmit({
    validate: () => validateCampaignForm(values, mode),
    send: () => onSubmit(values),
    fields: CAMPAIGN_FIELDS,
  })

  return (
    <form className="card stack org-form" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'New campaign' : 'Edit campaign'}>
      <FormError message={formError} />
      <Field label="Name" optional={mode === 'create'} error={errors.name} hint={mode === 'create' ? '2 to 100 characters. Left empty, the campaign is named after its slug.' : '2 to 100 characters.'}>
        <input type="text" value={values.name} placeholder="Spring sale" maxLength={100} onChange={(event) => set('name', event.target.value)} autoFocus={mode === 'create'} />
      </Field>
      <Field
        label="Rotator slug"
        optional
        error={errors.slug}
        hint={values.slug ? `Visitors of ${rotatorBase}${values.slug} are sent to the campaign's links in turn.` : mode === 'edit' ? 'Empty: no rotator address.' : '3 to 64 letters, digits, _ or -. Gives the campaign one address that sends visitors to its links in turn.'}
      >
        <input type="text" value={values.slug} placeholder="spring-sale" autoCapitalize="off" spellCheck={false} onChange={(event) => set('slug', event.target.value.trim())} />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={values.isPublic} onChange={(event) => set('isPublic', event.target.checked)} />
        Public list page: anyone with its address sees the campaign's links
      </label>
      <div className="row wrap org-form-actions">
        <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : submitLabel}</button>
        <button type="button" className="button ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
