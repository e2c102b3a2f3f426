// Create or edit a CTA overlay, with the server's rendering of what visitors will see beside it.
import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { VisitorPagePreview } from '../components/VisitorPagePreview'
import {
  emptyOverlayForm, OVERLAY_FORM_FIELDS, toOverlayCreateBody, toOverlayPreviewBody, toOverlayUpdateBody, validateOverlayForm,
  type OverlayFormValues, type OverlayType,
} from './overlay-form'
import { useCreateOverlay, useOverlay, useOverlayPreview, useUpdateOverlay } from './overlay-queries'
import './overlays.css'

interface OverlayEditorProps {
  mode: 'create' | 'edit'
  initial: OverlayFormValues
  onSubmit(values: OverlayFormValues): Promise<unknown>
}

function ColorField({ label, value, error, onChange }: { label: string; value: string; error?: string; onChange(value: string): void }) {
  const valid = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value.trim())
  return (
    <div className="color-field">
      <Field label={label} optional error={error} hint="HEX, like #1e90ff.">
        <input type="text" placeholder="#1e90ff" maxLength={7} value={value} onChange={(event) => onChange(event.target.value)} />
      </Field>
      <span className="swatch" aria-hidden="true" style={valid ? { background: value.trim() } : undefined} />
    </div>
  )
}

function OverlayEditor({ mode, initial, onSubmit }: OverlayEditorProps) {
  const [values, setValues] = useState(initial)
  const set = (key: Exclude<keyof OverlayFormValues, 'type'>, value: string) => setValues((current) => ({ ...current, [key]: value }))
  const { errors, formError, submitting, submit, clearErrors } = useCheckedSubmit({
    validate: () => validateOverlayForm(values),
    send: () => onSubmit(values),
    fields: OVERLAY_FORM_FIELDS,
    summary: 'Some fields need a fix before the overlay can be saved.',
  })
  const preview = useOverlayPreview(toOverlayPreviewBody(values))

  return (
    <div className="editor-grid">
      <form className="card stack" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'Create overlay' : 'Edit overlay'}>
        <FormError message={formError} />
        {mode === 'create' ? (
          <Field label="Type" hint="Cannot be changed later.">
            <select value={values.type} onChange={(event) => { setValues((current) => ({ ...current, type: event.target.value as OverlayType })); clearErrors() }}>
              <option value="message">Message with a button</option>
              <option value="contact">Contact form</option>
            </select>
          </Field>
        ) : (
          <p className="muted">Type: <strong>{values.type === 'contact' ? 'Contact form' : 'Message with a button'}</strong></p>
        )}
        <Field label="Name" error={errors.name} hint="For you: it names the overlay in lists and in the link form.">
          <input type="text" maxLength={100} value={values.name} onChange={(event) => set('name', event.target.value)} autoFocus={mode === 'create'} />
        </Field>
        {values.type === 'message' ? (
          <>
            <Field label="Message" error={errors.message}>
              <textarea rows={3} maxLength={500} value={values.message} onChange={(event) => set('message', event.target.value)} />
            </Field>
            <div className="grid-2">
              <Field label="Button text" optional error={errors.label} hint="Default: “Learn more”.">
                <input type="text" maxLength={50} value={values.label} onChange={(event) => set('label', event.target.value)} />
              </Field>
              <Field label="Button link" optional error={errors.link} hint="No link: no button.">
                <input type="url" inputMode="url" placeholder="https://shop.yourbrand.com" value={values.link} onChange={(event) => set('link', event.target.value)} />
              </Field>
            </div>
            <div className="grid-2">
              <ColorField label="Text color" value={values.color} error={errors.color} onChange={(value) => set('color', value)} />
              <ColorField label="Background color" value={values.bg} error={errors.bg} onChange={(value) => set('bg', value)} />
            </div>
          </>
        ) : (
          <>
            <Field label="Title" optional error={errors.title} hint="Default: “Contact us”.">
              <input type="text" maxLength={100} value={values.title} onChange={(event) => set('title', event.target.value)} />
            </Field>
            <Field label="Description" optional error={errors.description}>
              <textarea rows={3} maxLength={500} value={values.description} onChange={(event) => set('description', event.target.value)} />
            </Field>
            <Field label="Button text" optional error={errors.label} hint="Default: “Send”.">
              <input type="text" maxLength={50} value={values.label} onChange={(event) => set('label', event.target.value)} />
            </Field>
            <Field label="Your e-mail" error={errors.email} hint="Who the messages are for; visitors do not see it. Every message is listed under this overlay's contacts.">
              <input type="email" inputMode="email" placeholder="sales@yourbrand.com" value={values.email} onChange={(event) => set('email', event.target.value)} />
            </Field>
          </>
        )}
        <div className="row wrap">
          <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : mode === 'create' ? 'Create overlay' : 'Save changes'}</button>
          <Link to="/overlays" className="button ghost">Cancel</Link>
        </div>
      </form>
      <VisitorPagePreview
        preview={preview}
        title="Preview of the overlay"
        note="The striped area stands for the page your link opens; the overlay sits over it, and visitors can close it."
      />
    </div>
  )
}

export function CreateOverlayPage() {
  const navigate = useNavigate()
  const create = useCreateOverlay()
  return (
    <>
      <PageHeader title="Create overlay" />
      <OverlayEditor
        mode="create"
        initial={emptyOverlayForm}
        onSubmit={async (values) => {
          await create.mutateAsync(toOverlayCreateBody(values))
          navigate('/overlays', { state: { notice: `Overlay “${values.name.trim()}” created. Choose it as the type of a link to show it.` } })
        }}
      />
    </>
  )
}

export function EditOverlayPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const update = useUpdateOverlay()
  const overlay = useOverlay(id)
  const data = overlay.data
  return (
    <>
      <PageHeader title="Edit overlay" description={data?.name} actions={data?.type === 'contact' ? <Link to={`/overlays/${id}/contacts`} className="button">Contacts</Link> : undefined} />
      {overlay.isError ? <ErrorMessage error={overlay.error} onRetry={() => overlay.refetch()} /> : !data ? <Loading /> : (
        <OverlayEditor
          mode="edit"
          initial={{
            ...emptyOverlayForm,
            type: data.type === 'contact' ? 'contact' : 'message',
            name: data.name,
            message: data.message ?? '', label: data.label ?? '', link: data.link ?? '', color: data.color ?? '', bg: data.bg ?? '',
            title: data.title ?? '', description: data.description ?? '', email: data.email ?? '',
          }}
          onSubmit={async (values) => {
            await update.mutateAsync({ id, body: toOverlayUpdateBody(values) })
            navigate('/overlays', { state: { notice: 'Overlay saved.' } })
          }}
        />
      )}
    </>
  )
}
