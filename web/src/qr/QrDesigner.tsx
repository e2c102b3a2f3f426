// The QR designer: the fields of each type, colors, a logo, and beside them the server's own
// drawing of the code (so what is shown is what scans), with the download choices once it is saved.
import { TagInput } from '../tags/TagInput'
import { useId, useState, type ReactNode } from 'react'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { sameNames } from '../components/server-field-error'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { LogoPicker } from './LogoPicker'
import { useQrPreview, type PreviewRequest } from './qr-preview'
import {
  DOWNLOAD_SIZES, hexToRgb, imageAddress, QR_TYPES, rgbToHex, toCreateBody, toUpdateBody, TYPE_LABELS, validateQrForm, VCARD_FIELDS, VCARD_LABELS,
  type QrFormValues, type VcardField, type WifiEncryption,
} from './qr-design'
import './qr.css'

interface QrDesignerProps {
  initial: QrFormValues
  /** Edit: the saved code (its id for the preview, its image address for downloads). */
  saved?: { id: number; link: string; name: string }
  submitLabel: string
  onSubmit(values: QrFormValues): Promise<unknown>
  onCancel?(): void
}

function ColorField({ label, value, error, onChange }: { label: string; value: string; error?: string; onChange(value: string): void }) {
  const id = useId()
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <div className="qr-color">
        <input type="color" aria-label={`Pick the ${label.toLowerCase()}`} value={rgbToHex(value)} onChange={(event) => onChange(hexToRgb(event.target.value))} />
        <input id={id} type="text" value={value} spellCheck={false} autoCapitalize="off" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} onChange={(event) => onChange(event.target.value)} />
      </div>
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  )
}

export function QrDesigner({ initial, saved, submitLabel, onSubmit, onCancel }: QrDesignerProps) {
  const [values, setValues] = useState<QrFormValues>(initial)
  const set = <K extends keyof QrFormValues>(key: K, value: QrFormValues[K]) => setValues((current) => ({ ...current, [key]: value }))
  const setPart = <K extends 'email' | 'sms' | 'wifi' | 'vcard'>(key: K, change: Partial<QrFormValues[K]>) =>
    setValues((current) => ({ ...current, [key]: { ...current[key], ...change } }))

  // Drawn only once the client's checks pass: the server would refuse the rest anyway.
  const clientErrors = validateQrForm(values)
  const ready = Object.keys(clientErrors).length === 0
  const request: PreviewRequest | undefined = !ready ? undefined : saved
    ? { kind: 'update', id: saved.id, body: toUpdateBody(values, initial) }
    : { kind: 'new', body: toCreateBody(values) }
  const preview = useQrPreview(request)

  // Errors are keyed by the server's field names (`data.ssid`, `foreground`): every one it names is shown.
  const { errors, formError, submitting, submit, clearErrors } = useCheckedSubmit<string>({
    validate: () => clientErrors,
    send: () => onSubmit(values),
    fields: sameNames,
    summary: 'Some fields need a fix before the QR code can be saved.',
  })

  const dataFields: Record<typeof values.type, ReactNode> = {
    link: (
      <Field label="Destination URL" error={errors.data} hint="Where people land after scanning. You can change it later without reprinting the code.">
        <input type="url" inputMode="url" placeholder="https://example.com/menu" value={values.link} onChange={(event) => set('link', event.target.value)} />
      </Field>
    ),
    text: (
      <Field label="Text to encode" error={errors.data} hint="Shown as text by the scanning phone. At most 2000 characters.">
        <textarea rows={4} value={values.text} onChange={(event) => set('text', event.target.value)} />
      </Field>
    ),
    email: (
      <>
        <Field label="E-mail address" error={errors['data.email']}>
          <input type="email" value={values.email.email} placeholder="hello@example.com" onChange={(event) => setPart('email', { email: event.target.value })} />
        </Field>
        <Field label="Subject" optional error={errors['data.subject']}>
          <input type="text" value={values.email.subject} onChange={(event) => setPart('email', { subject: event.target.value })} />
        </Field>
        <Field label="Message" optional error={errors['data.body']}>
          <textarea rows={3} value={values.email.body} onChange={(event) => setPart('email', { body: event.target.value })} />
        </Field>
      </>
    ),
    phone: (
      <Field label="Phone number" error={errors.data} hint="Digits with an optional leading +, e.g. +44 20 7946 0000.">
        <input type="tel" value={values.phone} onChange={(event) => set('phone', event.target.value)} />
      </Field>
    ),
    sms: (
      <>
        <Field label="Phone number" error={errors['data.phone']} hint="Digits with an optional leading +.">
          <input type="tel" value={values.sms.phone} onChange={(event) => setPart('sms', { phone: event.target.value })} />
        </Field>
        <Field label="Message" optional error={errors['data.message']}>
          <textarea rows={3} value={values.sms.message} onChange={(event) => setPart('sms', { message: event.target.value })} />
        </Field>
      </>
    ),
    wifi: (
      <>
        <Field label="Network name (SSID)" error={errors['data.ssid']}>
          <input type="text" value={values.wifi.ssid} autoCapitalize="off" spellCheck={false} onChange={(event) => setPart('wifi', { ssid: event.target.value })} />
        </Field>
        <div className="grid-2">
          <Field label="Security" error={errors['data.encryption']}>
            <select value={values.wifi.encryption} onChange={(event) => setPart('wifi', { encryption: event.target.value as WifiEncryption })}>
              <option value="WPA">WPA / WPA2</option>
              <option value="WEP">WEP</option>
              <option value="nopass">Open network (no password)</option>
            </select>
          </Field>
          {values.wifi.encryption !== 'nopass' && (
            <Field label="Wi-Fi password" error={errors['data.pass']}>
              <input type="text" value={values.wifi.pass} autoCapitalize="off" autoComplete="off" spellCheck={false} onChange={(event) => setPart('wifi', { pass: event.target.value })} />
            </Field>
          )}
        </div>
      </>
    ),
    vcard: (
      <div className="grid-2">
        {VCARD_FIELDS.map((field: VcardField) => (
          <Field key={field} label={VCARD_LABELS[field]} optional={field !== 'fname' && field !== 'lname'} error={errors[`data.${field}`]}>
            <input
              type={field === 'email' ? 'email' : field === 'site' ? 'url' : field === 'phone' || field === 'cell' || field === 'fax' ? 'tel' : 'text'}
              value={values.vcard[field]}
              onChange={(event) => setPart('vcard', { [field]: event.target.value })}
            />
          </Field>
        ))}
      </div>
    ),
  }

  const showsTracking = values.type === 'link'
  return (
    <form className="link-builder qr-designer" onSubmit={submit} noValidate aria-label={saved ? 'Edit QR code' : 'Create QR code'}>
      <div className="builder-main stack">
        <FormError message={formError} />
        <section className="card stack" aria-labelledby="qr-content">
          <h2 id="qr-content">Content</h2>
          {saved ? (
            <p className="muted">Type: <strong>{TYPE_LABELS[values.type]}</strong> <span className="small">(the type of a saved code cannot change)</span></p>
          ) : (
            <fieldset className="stack">
              <legend>Type</legend>
              <div className="qr-choices" role="radiogroup" aria-label="QR code type">
                {QR_TYPES.map((type) => (
                  <label key={type} className="qr-choice">
                    <input type="radio" name="qr-type" value={type} checked={values.type === type} onChange={() => { set('type', type); clearErrors() }} />
                    {TYPE_LABELS[type]}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          {dataFields[values.type]}
          <Field label="Name" optional error={errors.name} hint="For you only: it names the code in your list.">
            <input type="text" value={values.name} placeholder={`${TYPE_LABELS[values.type]} QR`} onChange={(event) => set('name', event.target.value)} />
          </Field>
          <TagInput value={values.tags} onChange={(tags) => set('tags', tags)} error={errors.tags ?? Object.entries(errors).find(([field]) => field.startsWith('tags.'))?.[1]} />
        </section>

        <section className="card stack" aria-labelledby="qr-look">
          <h2 id="qr-look">Look</h2>
          <div className="grid-2">
            <ColorField label="Foreground color" value={values.foreground} error={errors.foreground} onChange={(value) => set('foreground', value)} />
            <ColorField label="Background color" value={values.background} error={errors.background} onChange={(value) => set('background', value)} />
          </div>
          <p className="hint">Dark on light scans best. Keep a strong contrast between the two colors.</p>
          <LogoPicker
            mode={values.logoMode}
            path={values.logoPath}
            url={values.logoUrl}
            error={errors.logo}
            onChange={(change) => setValues((current) => ({
              ...current,
              ...(change.mode === undefined ? {} : { logoMode: change.mode }),
              ...(change.path === undefined ? {} : { logoPath: change.path }),
              ...(change.url === undefined ? {} : { logoUrl: change.url }),
            }))}
          />
        </section>
      </div>

      <aside className="builder-side">
        <div className="sticky stack">
          <section className="card stack" aria-labelledby="qr-preview-title">
            <h2 id="qr-preview-title">Preview</h2>
            <div className="qr-preview-frame" aria-busy={preview.pending}>
              {preview.url
                ? <img src={preview.url} alt="QR code preview" width={300} height={300} className={preview.pending || preview.error || !ready ? 'qr-preview stale' : 'qr-preview'} />
                : <span className="muted small">{ready ? 'Drawing…' : 'Fill in the content to see your code.'}</span>}
            </div>
            <p className="small muted" role="status">
              {!ready ? 'The preview updates once the fields are filled in correctly.' : preview.error ? '' : preview.pending ? 'Updating the preview…' : 'This is the image your code serves.'}
            </p>
            {ready && preview.error && <p className="field-error" role="alert">Cannot draw this design: {preview.error}</p>}
            {showsTracking && <p className="hint">Scans go through your tracking address, so they are counted before people are sent on to the destination.</p>}
            {saved ? (
              <div className="stack qr-downloads">
                <h3>Download</h3>
                <p className="hint">The saved code. Save your changes first to download them.</p>
                <div className="row wrap">
                  {DOWNLOAD_SIZES.map((size) => (
                    <a key={size} className="button small" href={imageAddress(saved.link, 'png', size)} download={`${fileNameOf(saved.name)}-${size}.png`}>PNG {size} px</a>
                  ))}
                  <a className="button small" href={imageAddress(saved.link, 'svg', 1000)} download={`${fileNameOf(saved.name)}.svg`}>SVG</a>
                </div>
              </div>
            ) : null}
            <div className="builder-actions">
              <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : submitLabel}</button>
              {onCancel && <button type="button" className="button ghost" onClick={onCancel}>Cancel</button>}
            </div>
          </section>
        </div>
      </aside>
    </form>
  )
}

/** A file name from a code's name: letters, digits and dashes. */
export function fileNameOf(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'qr-code'
}
