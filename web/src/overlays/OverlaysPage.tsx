// The account's CTA overlays: a message or a contact form shown over the page a link frames.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useLocation, useSearchParams } from 'react-router'
import { api, messageOf, unwrap } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { formatDate } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { CreateAction, UsageNote, useRefreshUsage } from '../usage/plan-usage'
import './overlays.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

type OverlayEntry = { id: number; type: string; name: string; date: string }

const PAGE_SIZE = 20
const TYPE_NAMES: Record<string, string> = { message: 'Message', contact: 'Contact form' }

export function OverlaysPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('editor')
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number(params.get('page')) || 1)
  const overlays = useQuery({
    queryKey: ['overlays', 'page', page],
    queryFn: async () => (await unwrap(api.GET('/api/overlay', { params: { query: { page, limit: PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  })
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const [deleting, setDeleting] = useState<OverlayEntry>()
  const create = <CreateAction resource="overlays" to="/overlays/new">+ Create overlay</CreateAction>

  return (
    <>
      <PageHeader title="CTA overlays" description="A message or a contact form shown over the page a link opens." actions={create} />
      <RoleNote id="overlays-role-reason" needed="editor" allowed={mayChange} />
      <div><UsageNote resource="overlays" /></div>
      {notice && <p className="notice" role="status">{notice}</p>}
      {overlays.isPending ? <Loading label="Loading overlays…" /> : overlays.isError ? <ErrorMessage error={overlays.error} onRetry={() => overlays.refetch()} /> : overlays.data.cta.length === 0 ? (
        <div className="card">
          <EmptyState title="No overlays yet">
            <p className="muted">Create a message with a button, or a contact form that collects visitors' messages. Then choose it as the type of a short link.</p>
            {create}
          </EmptyState>
        </div>
      ) : (
        <div className={overlays.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <table className="table overlays-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Created</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {overlays.data.cta.map((overlay) => (
                <tr key={overlay.id}>
                  <td data-label="Name"><Link to={`/overlays/${overlay.id}/edit`} className="overlay-name">{overlay.name}</Link></td>
                  <td data-label="Type"><span className="badge">{TYPE_NAMES[overlay.type] ?? overlay.type}</span></td>
                  <td data-label="Created" className="nowrap muted">{formatDate(overlay.date)}</td>
                  <td className="actions">
                    {overlay.type === 'contact' && <Link to={`/overlays/${overlay.id}/contacts`} className="button small">Contacts<span className="visually-hidden"> of {overlay.name}</span></Link>}
                    <GuardedLink to={`/overlays/${overlay.id}/edit`} allowed={mayChange} reasonId="overlays-role-reason" className="button small ghost">Edit<span className="visually-hidden"> {overlay.name}</span></GuardedLink>
                    <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'overlays-role-reason'} onClick={() => setDeleting(overlay)}>Delete<span className="visually-hidden"> {overlay.name}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination page={page} maxPage={overlays.data.maxpage} total={overlays.data.result} onPage={(next) => setParams(next === 1 ? {} : { page: String(next) })} />
        </div>
      )}
      {deleting && <DeleteOverlayDialog overlay={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

function DeleteOverlayDialog({ overlay, onClose }: { overlay: OverlayEntry; onClose(): void }) {
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/overlay/{id}/delete', { params: { path: { id: overlay.id } } })),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['overlays'] }), refreshUsage()])
      onClose()
    },
  })
  return (
    <ConfirmDialog title="Delete this overlay?" confirmLabel="Delete overlay" busy={remove.isPending} error={remove.isError ? messageOf(remove.error) : undefined} onConfirm={() => remove.mutate()} onCancel={onClose}>
      <p><strong>{overlay.name}</strong> will be deleted; links that show it will show their page without it.</p>
      {overlay.type === 'contact' && <p>The contacts it collected will no longer be listed here: <Link to={`/overlays/${overlay.id}/contacts`}>export them</Link> first if you need them.</p>}
      <p>This cannot be undone.</p>
    </ConfirmDialog>
  )
}
