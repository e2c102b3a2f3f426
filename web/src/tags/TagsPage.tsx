// The workspace's tags: how many links, QR codes and bio pages carry each; rename one, give it a
// color, or delete it (it leaves every item). Tags are made by the items that name them.
import { useState } from 'react'
import { Link } from 'react-router'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { formatCount } from '../components/format'
import { FormError } from '../components/FormError'
import { ListPageBody, useListPage } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { EmptyState } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { RoleNote, useMay } from '../members/RoleGuard'
import { useDeleteTag, useTagPage, useUpdateTag, type Tag } from './tag-queries'
import { chipStyle, MAX_TAG_LENGTH } from './tag-rules'
import './tags.css'

const DEFAULT_COLOR = '#4f46e5'

function TagEditor({ tag, onDone }: { tag: Tag; onDone(): void }) {
  const [name, setName] = useState(tag.name)
  const [color, setColor] = useState(tag.color ?? '')
  const save = useUpdateTag()
  const form = useCheckedSubmit<'name' | 'color'>({
    validate: () => {
      const trimmed = name.trim()
      if (!trimmed) return { name: 'Enter a name.' }
      if ([...trimmed].length > MAX_TAG_LENGTH) return { name: `Use at most ${MAX_TAG_LENGTH} characters.` }
      return {}
    },
    send: async () => {
      await save.mutateAsync({ id: tag.id, body: { name: name.trim(), color } })
      onDone()
    },
    fields: ['name', 'color'],
  })
  return (
    <form className="tag-edit" onSubmit={form.submit} aria-label={`Edit tag ${tag.name}`} noValidate>
      <div className={form.errors.name ? 'field invalid' : 'field'}>
        <label htmlFor={`tag-name-${tag.id}`}>Name</label>
        <input id={`tag-name-${tag.id}`} type="text" value={name} aria-invalid={form.errors.name ? true : undefined} onChange={(event) => setName(event.target.value)} />
        {form.errors.name && <p className="field-error">{form.errors.name}</p>}
      </div>
      <div className="field">
        <label htmlFor={`tag-color-${tag.id}`}>Color</label>
        <input id={`tag-color-${tag.id}`} type="color" value={color || DEFAULT_COLOR} onChange={(event) => setColor(event.target.value)} />
      </div>
      <button type="button" className="button small ghost" onClick={() => setColor('')}>Default color</button>
      <button type="submit" className="button small primary" disabled={form.submitting}>Save tag</button>
      <button type="button" className="button small ghost" onClick={onDone}>Cancel</button>
      <FormError message={form.formError} small />
    </form>
  )
}

export function TagsPage() {
  const mayChange = useMay('editor')
  const { page, setPage, deleting, setDeleting } = useListPage<Tag>()
  const tags = useTagPage(page)
  const [editing, setEditing] = useState<number>()

  return (
    <>
      <PageHeader
        title="Tags"
        description={<>Label links, QR codes and bio pages, then filter lists by label. Tags are created when you first add them to an item. <RoleNote id="tags-role-reason" needed="editor" allowed={mayChange} /></>}
      />
      <ListPageBody
        query={tags}
        entries={(answer) => answer.tags}
        loadingLabel="Loading tags…"
        state={{ page, setPage }}
        empty={(
          <EmptyState title="No tags yet">
            <p className="muted">Add tags such as “spring” or “print” to a link in the link builder; they show up here to rename, colour or delete.</p>
            <Link to="/links/new" className="button primary">+ Create link</Link>
          </EmptyState>
        )}
      >
        {(entries) => (
          <ul className="org-list" aria-label="Tags">
            {entries.map((tag) => (
              <li key={tag.id} className="org-row">
                <div className="org-main">
                  <span className="org-title"><span className="tag-swatch" style={chipStyle(tag.color)} aria-hidden="true" />{tag.name}</span>
                  <span className="tag-counts">
                    <Link to={`/links?tag=${encodeURIComponent(tag.name)}`}>{formatCount(tag.links)} {tag.links === 1 ? 'link' : 'links'}</Link>
                    {' · '}{formatCount(tag.qrs)} QR {tag.qrs === 1 ? 'code' : 'codes'} · {formatCount(tag.bios)} bio {tag.bios === 1 ? 'page' : 'pages'}
                  </span>
                </div>
                <div className="actions">
                  <button type="button" className="button small ghost" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'tags-role-reason'} onClick={() => setEditing(tag.id)}>Edit<span className="visually-hidden"> tag {tag.name}</span></button>
                  <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'tags-role-reason'} onClick={() => setDeleting(tag)}>Delete<span className="visually-hidden"> tag {tag.name}</span></button>
                </div>
                {/* The editor takes the row's whole width, under the name and the buttons (at 375 px it was squeezed beside them). */}
                {editing === tag.id && <TagEditor tag={tag} onDone={() => setEditing(undefined)} />}
              </li>
            ))}
          </ul>
        )}
      </ListPageBody>
      {deleting && <DeleteTagDialog tag={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

function DeleteTagDialog({ tag, onClose }: { tag: Tag; onClose(): void }) {
  const deletion = useDeleteTag()
  return (
    <DeleteRecordDialog title="Delete this tag?" confirmLabel="Delete tag" deletion={deletion} id={tag.id} onClose={onClose}>
      <p><strong>{tag.name}</strong> will be removed from {formatCount(tag.links + tag.qrs + tag.bios)} items. The items themselves stay.</p>
    </DeleteRecordDialog>
  )
}
