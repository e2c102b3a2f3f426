// The bio page editor: name, address, description, avatar and the link blocks, checked as the
// server checks them, the server's own message beside the field it names, and beside the form a
// live preview: the public page as the server renders it (POST /api/bio/preview) in a sandboxed frame.
import { TagInput } from '../tags/TagInput'
import { useState } from 'react'
import { messageOf } from '../api/client'
import { CopyButton } from '../components/CopyButton'
import { Field } from '../components/Field'
import { displayUrl } from '../components/format'
import { FormError } from '../components/FormError'
import { sameNames } from '../components/server-field-error'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { toPreviewBody, validateBioDraft, type BioDraft } from './bio-form'
import { useBioPreview } from './bio-queries'
import { BlockListEditor } from './BlockListEditor'

interface BioEditorProps {
  initial: BioDraft
  mode: 'create' | 'edit'
  /** Edit: the saved page's public address. */
  publicUrl?: string
  submitLabel: string
  onSubmit(draft: BioDraft): Promise<unknown>
  onCancel(): void
}

export function BioEditor({ initial, mode, publicUrl, submitLabel, onSubmit, onCancel }: BioEditorProps) {
  const [draft, setDraft] = useState<BioDraft>(initial)
  const set = <K extends keyof BioDraft>(key: K, value: BioDraft[K]) => setDraft((current) => ({ ...current, [key]: value }))
  // Errors are keyed by the server's field names (`alias`, `blocks.2.url`): every one it names is shown.
  const { errors, formError, submitting, submit } = useCheckedSubmit<string>({
    validate: () => validateBioDraft(draft),
    send: () => onSubmit(draft),
    fields: sameNames,
    summary: 'Some fields need a fix before the page can be saved.',
  })

  const origin = window.location.origin
  const address = publicUrl ?? (draft.alias ? `${origin}/${draft.alias}` : undefined)

  return (
    <form className="bio-editor" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'Create bio page' : 'Edit bio page'}>
      <div className="stack">
        <FormError message={formError} />
        <section className="card stack" aria-labelledby="bio-profile">
          <h2 id="bio-profile">Profile</h2>
          <Field label="Name" error={errors.name} hint="The page's title, shown at the top.">
            <input type="text" value={draft.name} maxLength={100} placeholder="Jane Doe" onChange={(event) => set('name', event.target.value)} autoFocus={mode === 'create'} />
          </Field>
          <Field label="Address" optional error={errors.alias} hint={`The page lives at ${displayUrl(origin)}/<address>. ${mode === 'create' ? 'Leave empty for a random one. ' : ''}3–64 letters, digits, _ or -.`}>
            <input type="text" value={draft.alias} maxLength={64} placeholder="jane" autoCapitalize="off" spellCheck={false} onChange={(event) => set('alias', event.target.value)} />
          </Field>
          <Field label="Description" optional error={errors.description} hint={`${draft.description.length} of 500 characters.`}>
            <textarea rows={3} value={draft.description} maxLength={500} placeholder="Designer in Lisbon. Prints, talks and the newsletter." onChange={(event) => set('description', event.target.value)} />
          </Field>
          <Field label="Avatar image URL" optional error={errors.avatar} hint="An https address of a square picture.">
            <input type="url" inputMode="url" value={draft.avatar} placeholder="https://example.com/me.jpg" onChange={(event) => set('avatar', event.target.value)} />
          </Field>
          <TagInput value={draft.tags} onChange={(tags) => set('tags', tags)} error={errors.tags ?? Object.entries(errors).find(([field]) => field.startsWith('tags.'))?.[1]} />
        </section>
        <section className="card stack" aria-labelledby="bio-blocks-title">
          <h2 id="bio-blocks-title">Link blocks</h2>
          <BlockListEditor blocks={draft.blocks} errors={errors} onChange={(blocks) => set('blocks', blocks)} />
        </section>
        <div className="row wrap bio-editor-actions">
          <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : submitLabel}</button>
          <button type="button" className="button ghost" onClick={onCancel}>Cancel</button>
        </div>
      </div>
      <aside className="bio-side stack" aria-label="Preview">
        <section className="card stack">
          <h2>Public address</h2>
          {address ? (
            <>
              <p className="short-preview">{address}</p>
              {mode === 'edit' && publicUrl ? (
                <div className="row wrap">
                  <CopyButton text={publicUrl} label="Copy address" what={displayUrl(publicUrl)} />
                  <a className="button small ghost" href={publicUrl} target="_blank" rel="noreferrer">Open page</a>
                </div>
              ) : <p className="muted small">Ready once you create the page.</p>}
            </>
          ) : <p className="muted small">A random address is chosen when you create the page.</p>}
        </section>
        <BioPreview draft={draft} />
      </aside>
    </form>
  )
}

/** The public page of the draft as the server renders it, a moment after the last change. */
function BioPreview({ draft }: { draft: BioDraft }) {
  const preview = useBioPreview(toPreviewBody(draft))
  return (
    <section className="card stack bio-preview" aria-labelledby="bio-preview-title">
      <div className="row between">
        <h2 id="bio-preview-title">Preview</h2>
        {preview.isFetching && <span className="muted small" role="status">Updating…</span>}
      </div>
      {preview.isError ? (
        <FormError message={`The preview could not be drawn: ${messageOf(preview.error)}`} />
      ) : preview.data === undefined ? (
        <p className="muted small">Drawing the preview…</p>
      ) : (
        // No scripts and an opaque origin: the page cannot touch the dashboard; its links open a new tab.
        <iframe className="bio-preview-frame" title="Preview of the public page" sandbox="allow-popups allow-popups-to-escape-sandbox" srcDoc={preview.data} />
      )}
    </section>
  )
}
