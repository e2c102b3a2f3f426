// Create or edit a splash page, with the server's rendering of what visitors will see beside it.
import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { VisitorPagePreview } from '../components/VisitorPagePreview'
import { emptySplashForm, SPLASH_FIELDS, toSplashBody, toSplashPreviewBody, validateSplashForm, type SplashFormValues } from './splash-form'
import { useCreateSplashPage, useSplash, useSplashPreview, useUpdateSplashPage } from './splash-queries'
import './splash.css'

interface SplashEditorProps {
  mode: 'create' | 'edit'
  initial: SplashFormValues
  onSubmit(values: SplashFormValues): Promise<unknown>
}

function SplashEditor({ mode, initial, onSubmit }: SplashEditorProps) {
  const [values, setValues] = useState(initial)
  const set = (key: keyof SplashFormValues, value: string) => setValues((current) => ({ ...current, [key]: value }))
  const { errors, formError, submitting, submit } = useCheckedSubmit({
    validate: () => validateSplashForm(values),
    send: () => onSubmit(values),
    fields: SPLASH_FIELDS,
    summary: 'Some fields need a fix before the splash page can be saved.',
  })
  const preview = useSplashPreview(toSplashPreviewBody(values))

  return (
    <div className="editor-grid">
      <form className="card stack" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'Create splash page' : 'Edit splash page'}>
        <FormError message={formError} />
        <Field label="Name" error={errors.name} hint="For you: it names the page in lists and in the link form.">
          <input type="text" maxLength={100} value={values.name} onChange={(event) => set('name', event.target.value)} autoFocus={mode === 'create'} />
        </Field>
        <Field label="Title" error={errors.title} hint="The headline visitors see.">
          <input type="text" maxLength={100} value={values.title} onChange={(event) => set('title', event.target.value)} />
        </Field>
        <Field label="Description" optional error={errors.description}>
          <textarea rows={4} maxLength={1000} value={values.description} onChange={(event) => set('description', event.target.value)} />
        </Field>
        <Field label="Image URL" optional error={errors.image} hint="A banner shown under the title (https recommended).">
          <input type="url" inputMode="url" placeholder="https://cdn.yourbrand.com/banner.png" value={values.image} onChange={(event) => set('image', event.target.value)} />
        </Field>
        <Field label="Offer link" optional error={errors.link} hint="A “View the offer” button goes here.">
          <input type="url" inputMode="url" placeholder="https://shop.yourbrand.com/offer" value={values.link} onChange={(event) => set('link', event.target.value)} />
        </Field>
        <Field label="Seconds before going on" error={errors.counter} hint="0 to 60.">
          <input type="text" inputMode="numeric" maxLength={2} className="counter-input" value={values.counter} onChange={(event) => set('counter', event.target.value)} />
        </Field>
        <div className="row wrap">
          <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : mode === 'create' ? 'Create splash page' : 'Save changes'}</button>
          <Link to="/splash" className="button ghost">Cancel</Link>
        </div>
      </form>
      <VisitorPagePreview
        preview={preview}
        title="Preview of the splash page"
        note="example.com stands for the destination of the link that shows this page. Visitors are sent on after the countdown."
      />
    </div>
  )
}

export function CreateSplashPage() {
  const navigate = useNavigate()
  const create = useCreateSplashPage()
  return (
    <>
      <PageHeader title="Create splash page" />
      <SplashEditor
        mode="create"
        initial={emptySplashForm}
        onSubmit={async (values) => {
          await create.mutateAsync(toSplashBody(values))
          navigate('/splash', { state: { notice: `Splash page “${values.name.trim()}” created. Choose it as the type of a link to use it.` } })
        }}
      />
    </>
  )
}

export function EditSplashPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const update = useUpdateSplashPage()
  const page = useSplash(id)
  return (
    <>
      <PageHeader title="Edit splash page" description={page.data?.name} />
      {page.isError ? <ErrorMessage error={page.error} onRetry={() => page.refetch()} /> : !page.data ? <Loading /> : (
        <SplashEditor
          mode="edit"
          initial={{
            name: page.data.name,
            title: page.data.title,
            description: page.data.description ?? '',
            image: page.data.image ?? '',
            link: page.data.link ?? '',
            counter: String(page.data.counter),
          }}
          onSubmit={async (values) => {
            await update.mutateAsync({ id, body: toSplashBody(values) })
            navigate('/splash', { state: { notice: 'Splash page saved.' } })
          }}
        />
      )}
    </>
  )
}
