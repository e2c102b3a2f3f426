// Name, description, color and star of a channel, checked as the server checks them, with the
// server's refusal beside the field it is about.
import { useId, useState } from 'react'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { CHANNEL_FIELDS, CHANNEL_SWATCHES, longHexColor, validateChannelForm, type ChannelFormValues } from './channel-form'
import './channels.css'

interface ChannelFormProps {
  mode: 'create' | 'edit'
  initial: ChannelFormValues
  submitLabel: string
  onSubmit(values: ChannelFormValues): Promise<unknown>
  onCancel(): void
}

export function ChannelForm({ mode, initial, submitLabel, onSubmit, onCancel }: ChannelFormProps) {
  const [values, setValues] = useState(initial)
  const pickerId = useId()
  const set = <K extends keyof ChannelFormValues>(key: K, value: ChannelFormValues[K]) => setValues((current) => ({ ...current, [key]: value }))

  const { errors, formError, submitting, submit } = useCheckedSubmit({
    validate: () => validateChannelForm(values),
    send: () => onSubmit(values),
    fields: CHANNEL_FIELDS,
  })

  const validColor = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(values.color)
  return (
    <form className="card stack org-form" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'New channel' : 'Edit channel'}>
      <FormError message={formError} />
      <Field label="Name" error={errors.name} hint="2 to 100 characters, different from your other channels.">
        <input type="text" value={values.name} placeholder="Instagram" maxLength={100} onChange={(event) => set('name', event.target.value)} autoFocus={mode === 'create'} />
      </Field>
      <Field label="Description" optional error={errors.description} hint={`${values.description.length}/500`}>
        <textarea rows={3} value={values.description} placeholder="What goes here, and for whom." onChange={(event) => set('description', event.target.value)} />
      </Field>
      <div className="color-row">
        <div className="field color-picker">
          <label htmlFor={pickerId}>Color picker</label>
          <input id={pickerId} type="color" value={validColor ? longHexColor(values.color) : '#000000'} onChange={(event) => set('color', event.target.value)} />
        </div>
        <Field label="Color" error={errors.color} hint="A HEX color like #1e90ff or #fff.">
          <input type="text" value={values.color} spellCheck={false} autoCapitalize="off" maxLength={7} onChange={(event) => set('color', event.target.value.trim())} />
        </Field>
        <div className="swatches" role="group" aria-label="Suggested colors">
          {CHANNEL_SWATCHES.map((swatch) => (
            <button
              key={swatch}
              type="button"
              className="swatch"
              style={{ background: swatch }}
              aria-label={`Use ${swatch}`}
              aria-pressed={values.color.toLowerCase() === swatch}
              onClick={() => set('color', swatch)}
            />
          ))}
        </div>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={values.starred} onChange={(event) => set('starred', event.target.checked)} />
        Starred: listed before the other channels
      </label>
      <div className="row wrap org-form-actions">
        <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : submitLabel}</button>
        <button type="button" className="button ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
