// The account's splash pages: the page a `splash` link shows before sending visitors on.
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
import './splash.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

type SplashEntry = { id: number; name: string; date: string }

const PAGE_SIZE = 20

export function SplashPagesPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('editor')
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number(params.get('page')) || 1)
  const pages = useQuery({
    queryKey: ['splash', 'page', page],
    queryFn: async () => (await unwrap(api.GET('/api/splash', { params: { query: { page, limit: PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  })
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const [deleting, setDeleting] = useState<SplashEntry>()
  const create = <CreateAction resource="splash" to="/splash/new">+ Create splash page</CreateAction>

  return (
    <>
      <PageHeader title="Splash pages" description="A page your visitors see for a few seconds before they go on: an offer, an announcement." actions={create} />
      <RoleNote id="splash-role-reason" needed="editor" allowed={mayChange} />
      <div><UsageNote resource="splash" /></div>
      {notice && <p className="notice" role="status">{notice}</p>}
      {pages.isPending ? <Loading label="Loading splash pages…" /> : pages.isError ? <ErrorMessage error={pages.error} onRetry={() => pages.refetch()} /> : pages.data.splash.length === 0 ? (
        <div className="card">
          <EmptyState title="No splash pages yet">
            <p className="muted">Create one, then choose it as the type of a short link: its visitors see it before they reach the destination.</p>
            {create}
          </EmptyState>
        </div>
      ) : (
        <div className={pages.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <table className="table setup-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {pages.data.splash.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="Name"><Link to={`/splash/${entry.id}/edit`} className="setup-name">{entry.name}</Link></td>
                  <td data-label="Created" className="nowrap muted">{formatDate(entry.date)}</td>
                  <td className="actions">
                    <GuardedLink to={`/splash/${entry.id}/edit`} allowed={mayChange} reasonId="splash-role-reason" className="button small">Edit<span className="visually-hidden"> {entry.name}</span></GuardedLink>
                    <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'splash-role-reason'} onClick={() => setDeleting(entry)}>Delete<span className="visually-hidden"> {entry.name}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination page={page} maxPage={pages.data.maxpage} total={pages.data.result} onPage={(next) => setParams(next === 1 ? {} : { page: String(next) })} />
        </div>
      )}
      {deleting && <DeleteSplashDialog entry={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

function DeleteSplashDialog({ entry, onClose }: { entry: SplashEntry; onClose(): void }) {
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/splash/{id}/delete', { params: { path: { id: entry.id } } })),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['splash'] }), refreshUsage()])
      onClose()
    },
  })
  return (
    <ConfirmDialog title="Delete this splash page?" confirmLabel="Delete splash page" busy={remove.isPending} error={remove.isError ? messageOf(remove.error) : undefined} onConfirm={() => remove.mutate()} onCancel={onClose}>
      <p><strong>{entry.name}</strong> will be deleted. Links that show it will show the generic “you are leaving” page instead. This cannot be undone.</p>
    </ConfirmDialog>
  )
}
