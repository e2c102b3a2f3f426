// Address, description and the events a webhook receives (grouped, with "all" per group and in all).
import { useId, useState } from 'react'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { ALL_EVENTS, EVENT_GROUPS } from './webhook-events'
import { validateWebhookForm, webhookFieldOf, type WebhookFormValues } from './webhook-form'
import type { WebhookEvent } from './webhook-queries'

interface WebhookFormProps {
  mode: 'create' | 'edit'
  initial: WebhookFormValues
  submitLabel: string
  onSubmit(values: WebhookFormValues): Promise<unknown>
  onCancel(): void
}

export function WebhookForm({ mode, initial, submitLabel, onSubmit, onCancel }: WebhookFormProps) {
  const [values, setValues] = useState(initial)
  const pickerId = useId()
  const { errors, formError, submitting, submit, setError } = useCheckedSubmit({
    validate: () => validateWebhookForm(values),
    send: () => onSubmit({ ...values, url: values.url.trim() }),
    fields: webhookFieldOf,
  })
  const clearError = (field: 'url' | 'events') => setError(field, undefined)
  const chosen = new Set(values.events)
  // Kept in the server's order, whatever order they were ticked in.
  const setEvents = (next: Set<WebhookEvent>) => setValues((current) => ({ ...current, events: ALL_EVENTS.filter((type) => next.has(type)) }))
  const toggle = (types: WebhookEvent[], on: boolean) => {
    const next = new Set(chosen)
    for (const type of types) if (on) next.add(type); else next.delete(type)
    setEvents(next)
    clearError('events')
  }

  return (
    <form className="stack webhook-form" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'New webhook' : 'Edit webhook'}>
      <FormError message={formError} />
      <Field label="Endpoint URL" error={errors.url} hint="Events are POSTed here as JSON, signed with the webhook's secret.">
        <input type="url" value={values.url} placeholder="https://crm.example.com/hooks/linkwell" spellCheck={false} autoCapitalize="off" onChange={(event) => { setValues({ ...values, url: event.target.value }); clearError('url') }} autoFocus={mode === 'create'} />
      </Field>
      <Field label="Description" optional error={errors.description} hint={`${values.description.length}/500`}>
        <input type="text" value={values.description} placeholder="New leads to the CRM" onChange={(event) => setValues({ ...values, description: event.target.value })} />
      </Field>
      <fieldset className="event-picker" aria-describedby={errors.events ? `${pickerId}-error` : undefined} aria-invalid={errors.events ? true : undefined}>
        <legend>Events</legend>
        <label className="checkbox">
          <input type="checkbox" checked={chosen.size === ALL_EVENTS.length} onChange={(event) => toggle(ALL_EVENTS, event.target.checked)} />
          Every event
        </label>
        <div className="event-groups">
          {EVENT_GROUPS.map((group) => {
            const types = group.events.map((event) => event.type)
            const all = types.every((type) => chosen.has(type))
            return (
              <fieldset key={group.label} className="event-group">
                <legend>
                  <label className="checkbox">
                    <input type="checkbox" checked={all} onChange={(event) => toggle(types, event.target.checked)} aria-label={`All ${group.label.toLowerCase()} events`} />
                    {group.label}
                  </label>
                </legend>
                {group.events.map((event) => (
                  <label key={event.type} className="checkbox">
                    <input type="checkbox" checked={chosen.has(event.type)} onChange={(change) => toggle([event.type], change.target.checked)} />
                    <span>{event.label} <code className="event-code">{event.type}</code></span>
                  </label>
                ))}
              </fieldset>
            )
          })}
        </div>
        {errors.events && <p className="field-error" id={`${pickerId}-error`}>{errors.events}</p>}
      </fieldset>
      <div className="row wrap">
        <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : submitLabel}</button>
        <button type="button" className="button ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
