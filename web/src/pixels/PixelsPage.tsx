// The account's tracking pixels: add one per provider with its tag checked as the server checks
// it, rename it or change its tag in place, delete it behind a confirmation.
import { useState } from 'react'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { formatDate } from '../components/format'
import { usePageParam } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { CreateAction, UsageNote } from '../usage/plan-usage'
import { PixelForm } from './PixelForm'
import { useCreatePixel, useDeletePixel, usePixelPage, usePixelProviders, useUpdatePixel, type Pixel } from './pixel-queries'
import './pixels.css'
import { RoleNote, useMay } from '../members/RoleGuard'

export function PixelsPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('editor')
  const [page, setPage] = usePageParam()
  const pixels = usePixelPage(page)
  const providers = usePixelProviders()
  const create = useCreatePixel()
  const update = useUpdatePixel()
  const [creating, setCreating] = useState(false)
  const [editing, setEditing] = useState<number>()
  const [deleting, setDeleting] = useState<Pixel>()
  const [notice, setNotice] = useState<string>()

  const labelOf = (type: string) => providers.data?.find((provider) => provider.type === type)?.label ?? type
  const error = pixels.error ?? providers.error
  const startCreating = () => { setCreating(true); setEditing(undefined); setNotice(undefined) }

  return (
    <>
      <PageHeader
        title="Pixels"
        description={<>Tracking pixels of your ad and analytics providers, fired on visits of the links you add them to. <UsageNote resource="pixels" />
      <RoleNote id="pixels-role-reason" needed="editor" allowed={mayChange} /></>}
        actions={<CreateAction resource="pixels" onClick={startCreating}>+ New pixel</CreateAction>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      {creating && providers.data && (
        <section className="card stack" aria-labelledby="new-pixel-title">
          <h2 id="new-pixel-title">New pixel</h2>
          <PixelForm
            mode="create"
            initial={{ type: '', name: '', tag: '' }}
            providers={providers.data}
            submitLabel="Add pixel"
            onCancel={() => setCreating(false)}
            onSubmit={async (values) => {
              // The form only submits a tag checked against one of these providers.
              const type = providers.data.find((provider) => provider.type === values.type)!.type
              const created = await create.mutateAsync({ type, name: values.name, tag: values.tag })
              setCreating(false)
              setNotice(`Pixel “${created.name}” added. Choose it in a link's options to fire it on visits.`)
            }}
          />
        </section>
      )}
      {error ? <ErrorMessage error={error} onRetry={() => { void pixels.refetch(); void providers.refetch() }} /> : !pixels.data || !providers.data ? <Loading label="Loading pixels…" /> : pixels.data.pixels.length === 0 ? (
        !creating && (
          <div className="card">
            <EmptyState title="No pixels yet">
              <p className="muted">Add the pixel of Google, Meta, LinkedIn, TikTok or another provider, then pick it in a link's options: visitors are counted by the provider too.</p>
              <CreateAction resource="pixels" onClick={startCreating}>+ New pixel</CreateAction>
            </EmptyState>
          </div>
        )
      ) : (
        <div className={pixels.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <ul className="org-list" aria-label="Pixels">
            {pixels.data.pixels.map((pixel) => editing === pixel.id ? (
              <li key={pixel.id} className="pixel-row-form">
                <PixelForm
                  mode="edit"
                  initial={{ type: pixel.type, name: pixel.name, tag: pixel.tag }}
                  providers={providers.data}
                  submitLabel="Save pixel"
                  onCancel={() => setEditing(undefined)}
                  onSubmit={async (values) => {
                    await update.mutateAsync({ id: pixel.id, body: { name: values.name, tag: values.tag } })
                    setEditing(undefined)
                    setNotice(`Pixel “${values.name}” saved.`)
                  }}
                />
              </li>
            ) : (
              <li key={pixel.id} className="org-row">
                <div className="org-main">
                  <span className="org-title">{pixel.name}</span>
                  <span className="badges"><span className="badge campaign">{labelOf(pixel.type)}</span><span className="muted small">Added {formatDate(pixel.date)}</span></span>
                </div>
                <span className="pixel-tag">{pixel.tag}</span>
                <div className="org-actions">
                  <button type="button" className="button small ghost" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'pixels-role-reason'} onClick={() => { setEditing(pixel.id); setCreating(false); setNotice(undefined) }}>Edit<span className="visually-hidden"> {pixel.name}</span></button>
                  <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'pixels-role-reason'} onClick={() => setDeleting(pixel)}>Delete<span className="visually-hidden"> {pixel.name}</span></button>
                </div>
              </li>
            ))}
          </ul>
          <Pagination page={page} maxPage={pixels.data.maxpage} total={pixels.data.result} onPage={setPage} />
        </div>
      )}
      {deleting && <DeletePixelDialog pixel={deleting} providerLabel={labelOf(deleting.type)} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

function DeletePixelDialog({ pixel, providerLabel, onClose }: { pixel: Pixel; providerLabel: string; onClose(): void }) {
  const deletion = useDeletePixel()
  return (
    <DeleteRecordDialog
      title="Delete this pixel?"
      confirmLabel="Delete pixel"
      deletion={deletion}
      id={pixel.id}
      onClose={onClose}
    >
      <p><strong>{pixel.name}</strong> ({providerLabel} {pixel.tag}) will be deleted and no longer fire on the links that use it. This cannot be undone.</p>
    </DeleteRecordDialog>
  )
}
