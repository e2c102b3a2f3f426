// An editable list of targeting rules (country, device or language → another destination).
import { useId } from 'react'

interface Rule {
  key: string
  link: string
}

interface TargetingEditorProps {
  /** The server's field name: geotarget, devicetarget or languagetarget. */
  field: string
  title: string
  description: string
  keyLabel: string
  rules: Rule[]
  /** Errors keyed by the server's field names (`geotarget.0.link`). */
  errors: Partial<Record<string, string>>
  /** Which attribute of a rule the key is, as the server names it (location, device, language). */
  keyName: string
  renderKeyInput(props: { id: string; value: string; invalid: boolean; describedBy?: string; onChange(value: string): void }): React.ReactNode
  onChange(rules: Rule[]): void
  addLabel: string
  /** Said under the description: rules that will not apply as things stand, say. */
  notice?: React.ReactNode
}

export function TargetingEditor({ field, title, description, keyLabel, rules, errors, keyName, renderKeyInput, onChange, addLabel, notice }: TargetingEditorProps) {
  const baseId = useId()
  const update = (index: number, change: Partial<Rule>) => onChange(rules.map((rule, position) => (position === index ? { ...rule, ...change } : rule)))
  return (
    <fieldset className="targeting">
      <legend>{title}</legend>
      <p className="hint">{description}</p>
      {notice}
      {errors[field] && <p className="field-error">{errors[field]}</p>}
      {rules.length > 0 && (
        <ol className="rules">
          {rules.map((rule, index) => {
            const keyError = errors[`${field}.${index}.${keyName}`] ?? errors[`${field}.${index}`]
            const linkError = errors[`${field}.${index}.link`]
            const keyId = `${baseId}-${index}-key`
            const linkId = `${baseId}-${index}-link`
            return (
              <li key={index} className="rule">
                <div className={keyError ? 'field invalid' : 'field'}>
                  <label htmlFor={keyId}>{keyLabel} {index + 1}</label>
                  {renderKeyInput({ id: keyId, value: rule.key, invalid: Boolean(keyError), describedBy: keyError ? `${keyId}-error` : undefined, onChange: (value) => update(index, { key: value }) })}
                  {keyError && <p className="field-error" id={`${keyId}-error`}>{keyError}</p>}
                </div>
                <div className={linkError ? 'field invalid grow' : 'field grow'}>
                  <label htmlFor={linkId}>{keyLabel} {index + 1} destination</label>
                  <input id={linkId} type="url" inputMode="url" placeholder="https://" value={rule.link} aria-invalid={linkError ? true : undefined} aria-describedby={linkError ? `${linkId}-error` : undefined} onChange={(event) => update(index, { link: event.target.value })} />
                  {linkError && <p className="field-error" id={`${linkId}-error`}>{linkError}</p>}
                </div>
                <button type="button" className="button ghost small remove" onClick={() => onChange(rules.filter((_, position) => position !== index))}>
                  Remove<span className="visually-hidden"> {keyLabel.toLowerCase()} rule {index + 1}</span>
                </button>
              </li>
            )
          })}
        </ol>
      )}
      <button type="button" className="button small" onClick={() => onChange([...rules, { key: '', link: '' }])}>{addLabel}</button>
    </fieldset>
  )
}
