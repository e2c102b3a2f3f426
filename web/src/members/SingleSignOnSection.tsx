// The workspace's single sign-on (ADR 033): its identity provider, whether members must sign in
// with it (their passwords then no longer open this workspace), and which of the provider's groups
// give which role. Owners change it; admins read it.
import { useEffect, useState } from 'react'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { useSaveWorkspaceSso, useWorkspaceSso, type WorkspaceSsoInput } from '../auth/sso-queries'

type Mapping = WorkspaceSsoInput['mapping']
const ROLE_NAMES = ['owner', 'admin', 'editor', 'viewer'] as const

/** `group: role` lines as the mapping, or the first line that is not one. */
export function parseMapping(text: string): { mapping: Mapping } | { error: string } {
  const mapping: Mapping = []
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim()
    if (line === '') continue
    const at = line.lastIndexOf(':')
    const group = line.slice(0, at).trim()
    const role = line.slice(at + 1).trim().toLowerCase()
    if (at <= 0 || group === '' || !(ROLE_NAMES as readonly string[]).includes(role)) return { error: `Line ${index + 1} is not "group: role" with a role of owner, admin, editor or viewer.` }
    mapping.push({ group, role: role as Mapping[number]['role'] })
  }
  return { mapping }
}

export function SingleSignOnSection({ canChange }: { canChange: boolean }) {
  const settings = useWorkspaceSso()
  const save = useSaveWorkspaceSso()
  const [provider, setProvider] = useState('')
  const [required, setRequired] = useState(false)
  const [mappingText, setMappingText] = useState('')
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    if (!settings.data) return
    setProvider(settings.data.provider ?? settings.data.providers[0]?.name ?? '')
    setRequired(settings.data.required)
    setMappingText(settings.data.mapping.map((entry) => `${entry.group}: ${entry.role}`).join('\n'))
  }, [settings.data])

  const { errors, formError, submitting, submit } = useCheckedSubmit({
    validate: () => {
      const parsed = parseMapping(mappingText)
      return { ...('error' in parsed ? { mapping: parsed.error } : {}), ...(provider === '' ? { provider: 'Choose the identity provider.' } : {}) }
    },
    send: async () => {
      const parsed = parseMapping(mappingText)
      if ('error' in parsed) return
      setSaved(false)
      await save.mutateAsync({ provider, required, mapping: parsed.mapping })
      setSaved(true)
    },
    fields: ['provider', 'required', 'mapping'] as const,
  })

  if (settings.isPending) return <section className="card" aria-busy="true"><p className="muted">Loading single sign-on…</p></section>
  if (settings.isError) return <section className="card"><FormError error={settings.error} /></section>
  if (settings.data.providers.length === 0) return null
  return (
    <form className="card stack" onSubmit={submit} noValidate aria-labelledby="sso-settings-title">
      <h2 id="sso-settings-title">Single sign-on</h2>
      <p className="muted">Members sign in with your identity provider; its groups give their role here at every sign-in, and within the recheck interval after a change at the provider.</p>
      <Field label="Identity provider" error={errors.provider}>
        <select value={provider} disabled={!canChange} onChange={(event) => setProvider(event.target.value)}>
          {settings.data.providers.map((entry) => <option key={entry.name} value={entry.name}>{entry.label}</option>)}
        </select>
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={required} disabled={!canChange} onChange={(event) => setRequired(event.target.checked)} />
        Require single sign-on: members' passwords no longer open this workspace (the instance administrator's still does, and it is recorded)
      </label>
      <Field label="Groups and roles" hint={'One per line, "group: role" (owner, admin, editor or viewer). A member in none of these groups is removed at their next sign-in.'} error={errors.mapping}>
        <textarea rows={4} value={mappingText} disabled={!canChange} onChange={(event) => setMappingText(event.target.value)} spellCheck={false} />
      </Field>
      <FormError message={formError} />
      {saved && !formError && <p className="notice" role="status">Saved.</p>}
      {canChange
        ? <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : 'Save single sign-on'}</button>
        : <p className="muted small">Only an owner changes these settings.</p>}
    </form>
  )
}
