// The workspace's time zone: the zone its statistics count days, hours, weeks and months in
// (issue 24; UTC until set), chosen among the browser's IANA names, an owner's to change.
// Data: GET /api/account/settings, PUT /api/account/update {timezone}.
import { useEffect, useState } from 'react'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { useMay } from '../members/RoleGuard'
import { useAccountSettings, useUpdateAccount } from './account-queries'

/** Every IANA zone the browser knows, UTC first (and `current`, should the browser not list it). */
export function timeZoneChoices(current?: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return [...new Set(['UTC', ...(current ? [current] : []), ...known])].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)))
}

/** "UTC+01:00" now in the zone, to tell zones of the same city name apart. */
function offsetOf(zone: string): string {
  try {
    const part = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date()).find((entry) => entry.type === 'timeZoneName')
    return part?.value === 'GMT' ? 'UTC' : (part?.value.replace('GMT', 'UTC') ?? '')
  } catch {
    return ''
  }
}

export function TimeZoneSection() {
  const settings = useAccountSettings()
  const update = useUpdateAccount()
  const saved = settings.data?.timezone
  const [zone, setZone] = useState(saved ?? 'UTC')
  useEffect(() => { if (saved) setZone(saved) }, [saved])
  const mayChange = useMay('owner')
  const choices = timeZoneChoices(saved)
  const { errors, formError, submitting, succeeded, submit } = useCheckedSubmit<'timezone'>({
    validate: () => (choices.includes(zone) ? {} : { timezone: 'Choose a time zone from the list.' }),
    send: () => update.mutateAsync({ timezone: zone }),
    fields: ['timezone'],
  })

  return (
    <section className="card stack" aria-labelledby="time-zone-title" id="time-zone">
      <h2 id="time-zone-title">Time zone</h2>
      <p className="muted small">Statistics count days, hours, weeks and months in this zone, for everyone in the workspace.</p>
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field label="Statistics time zone" error={errors.timezone} hint={mayChange ? undefined : 'An owner of the workspace can change it.'}>
          <select value={zone} disabled={!mayChange || settings.isPending} onChange={(event) => setZone(event.target.value)}>
            {choices.map((name) => <option key={name} value={name}>{name.replaceAll('_', ' ')} ({offsetOf(name)})</option>)}
          </select>
        </Field>
        <button type="submit" className="button" disabled={!mayChange || submitting || zone === saved}>{submitting ? 'Saving…' : 'Save time zone'}</button>
      </form>
      <FormError message={settings.isError ? 'Could not load the workspace\'s time zone.' : undefined} />
      <FormError message={formError} />
      {succeeded && <p className="notice" role="status">Statistics now count in {saved}.</p>}
    </section>
  )
}
