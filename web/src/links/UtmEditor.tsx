// The link builder's UTM parameters: a template applied in one click, the five fields, and the
// current ones saved as a new template.
import { useState } from 'react'
import { messageOf } from '../api/client'
import { Field } from '../components/Field'
import { UTM_FIELDS, UTM_LABELS, UTM_PLACEHOLDERS, utmBody, utmValuesOf, type UtmField, type UtmValues } from './utm'

export interface UtmTemplate {
  id: number
  name: string
  utm: Partial<Record<UtmField, string>>
}

interface UtmEditorProps {
  values: UtmValues
  errors: Partial<Record<string, string>>
  templates: UtmTemplate[]
  onChange(values: UtmValues): void
  /** Saves the current parameters as a template; absent where templates cannot be saved. */
  onSaveTemplate?(name: string, utm: Partial<UtmValues>): Promise<unknown>
}

export function UtmEditor({ values, errors, templates, onChange, onSaveTemplate }: UtmEditorProps) {
  const [applied, setApplied] = useState('')
  const [templateName, setTemplateName] = useState('')
  const [saveState, setSaveState] = useState<{ error?: string; saved?: string; saving?: boolean }>({})
  const set = (field: UtmField, value: string) => onChange({ ...values, [field]: value })

  function apply(id: string) {
    setApplied(id)
    const template = templates.find((entry) => String(entry.id) === id)
    if (template) onChange(utmValuesOf(template.utm))
  }

  async function save() {
    const utm = utmBody(values)
    if (!templateName.trim()) return setSaveState({ error: 'Name the template.' })
    if (!utm) return setSaveState({ error: 'Fill in at least one UTM parameter first.' })
    setSaveState({ saving: true })
    try {
      await onSaveTemplate!(templateName.trim(), utm)
      setSaveState({ saved: `Saved as “${templateName.trim()}”.` })
      setTemplateName('')
    } catch (error) {
      setSaveState({ error: messageOf(error) })
    }
  }

  return (
    <div className="stack">
      {templates.length > 0 && (
        <Field label="UTM template" optional hint="Fills in the parameters below; change any of them afterwards.">
          <select value={applied} onChange={(event) => apply(event.target.value)}>
            <option value="">Choose a template…</option>
            {templates.map((template) => <option key={template.id} value={template.id}>{template.name}</option>)}
          </select>
        </Field>
      )}
      <div className="grid-2">
        {UTM_FIELDS.map((field) => (
          <Field key={field} label={UTM_LABELS[field]} optional error={errors[`utm.${field}`]}>
            <input type="text" placeholder={UTM_PLACEHOLDERS[field]} value={values[field]} autoCapitalize="off" spellCheck={false} onChange={(event) => set(field, event.target.value)} />
          </Field>
        ))}
      </div>
      {onSaveTemplate && (
        <div className="row wrap align-end">
          <Field label="Template name" optional error={saveState.error} hint={saveState.saved}>
            <input
              type="text"
              maxLength={100}
              placeholder="Monthly newsletter"
              value={templateName}
              onChange={(event) => setTemplateName(event.target.value)}
              // Enter does what the button beside it does: it saves the template, not the whole link.
              onKeyDown={(event) => {
                if (event.key !== 'Enter') return
                event.preventDefault()
                if (!saveState.saving) void save()
              }}
            />
          </Field>
          <button type="button" className="button" disabled={saveState.saving} onClick={() => void save()}>{saveState.saving ? 'Saving…' : 'Save as template'}</button>
        </div>
      )}
    </div>
  )
}
