// The link builder's split test: 2 to 5 destinations with weights; on an existing link, the
// clicks each variant has had and a button that makes one the only destination.
import { Field } from '../components/Field'
import { MAX_VARIANTS, MIN_VARIANTS } from './link-form'

export interface VariantRow {
  url: string
  /** A positive whole number, as typed. */
  weight: string
}

interface VariantsEditorProps {
  rows: VariantRow[]
  errors: Partial<Record<string, string>>
  onChange(rows: VariantRow[]): void
  /** The saved variants' clicks (edit), by position. */
  clicks?: number[]
  /** Ends the test with the saved variant at `index` as the link's destination (edit). */
  onChooseWinner?(index: number): void
}

export function VariantsEditor({ rows, errors, onChange, clicks, onChooseWinner }: VariantsEditorProps) {
  const update = (index: number, row: Partial<VariantRow>) => onChange(rows.map((entry, at) => (at === index ? { ...entry, ...row } : entry)))
  const total = clicks?.reduce((sum, count) => sum + count, 0) ?? 0
  return (
    <div className="stack">
      <p className="hint">Send each visitor to one of {MIN_VARIANTS} to {MAX_VARIANTS} destinations instead, shared out by weight; a visitor sees the same one all day.</p>
      {errors.variants && <p className="field-error">{errors.variants}</p>}
      {rows.map((row, index) => (
        <div key={index} className="stack">
          <div className="grid-2">
            <Field label={`Variant ${index + 1} URL`} error={errors[`variants.${index}.url`]}>
              <input type="url" inputMode="url" placeholder="https://example.com/landing-b" value={row.url} onChange={(event) => update(index, { url: event.target.value })} />
            </Field>
            <Field label={`Variant ${index + 1} weight`} error={errors[`variants.${index}.weight`]} hint={clicks?.[index] !== undefined ? `${clicks[index]} clicks${total > 0 ? ` (${Math.round((clicks[index]! / total) * 100)} %)` : ''}` : undefined}>
              <input type="number" inputMode="numeric" min={1} step={1} value={row.weight} onChange={(event) => update(index, { weight: event.target.value })} />
            </Field>
          </div>
          <div className="row wrap">
            <button type="button" className="button ghost" onClick={() => onChange(rows.filter((_, at) => at !== index))}>Remove variant {index + 1}</button>
            {onChooseWinner && clicks?.[index] !== undefined && (
              <button type="button" className="button" onClick={() => onChooseWinner(index)}>Make variant {index + 1} the only destination</button>
            )}
          </div>
        </div>
      ))}
      <div>
        <button type="button" className="button" disabled={rows.length >= MAX_VARIANTS} onClick={() => onChange([...rows, ...(rows.length === 0 ? [{ url: '', weight: '1' }] : []), { url: '', weight: '1' }].slice(0, MAX_VARIANTS))}>
          {rows.length === 0 ? 'Start a split test' : 'Add variant'}
        </button>
      </div>
    </div>
  )
}
