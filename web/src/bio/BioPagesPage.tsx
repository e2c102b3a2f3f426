// The account's bio pages: each with its public address (open, copy), its visits, and the way to
// its statistics, editor and deletion.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useLocation, useSearchParams } from 'react-router'
import { api, messageOf, unwrap } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { CopyButton } from '../components/CopyButton'
import { displayUrl, formatCount, formatDate } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { CreateAction, UsageNote, useRefreshUsage } from '../usage/plan-usage'
import { bioQueryKey, useBioPageList, type BioListEntry } from './bio-query'
import './bio.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

export function BioPagesPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('editor')
  const [params, setParams] = useSearchParams()
  const requested = Number(params.get('page'))
  const page = Number.isInteger(requested) && requested > 0 ? requested : 1
  const list = useBioPageList(page)
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const [deleting, setDeleting] = useState<BioListEntry>()

  return (
    <>
      <PageHeader
        title="Bio pages"
        description={<span className="row wrap">One page with all your links, for a profile's single link. <UsageNote resource="bio" />
      <RoleNote id="bio-role-reason" needed="editor" allowed={mayChange} /></span>}
        actions={<CreateAction resource="bio" to="/bio/new">+ Create bio page</CreateAction>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      {list.isPending ? <Loading label="Loading bio pages…" /> : list.isError ? <ErrorMessage error={list.error} onRetry={() => list.refetch()} /> : list.data.bio.length === 0 ? (
        <div className="card">
          <EmptyState title="No bio pages yet">
            <p className="muted">A bio page gathers your links (shop, newsletter, latest video) behind one short address for your social profiles.</p>
            <CreateAction resource="bio" to="/bio/new">+ Create bio page</CreateAction>
          </EmptyState>
        </div>
      ) : (
        <div className={list.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <table className="table bio-table">
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col" className="numeric">Visits</th>
                <th scope="col">Created</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {list.data.bio.map((bio) => (
                <tr key={bio.id}>
                  <td data-label="Page">
                    <div className="link-cell">
                      <Link to={`/bio/${bio.id}`} className="short-url">{bio.name}</Link>
                      <a href={bio.url} target="_blank" rel="noreferrer" className="destination">{displayUrl(bio.url)}</a>
                    </div>
                  </td>
                  <td data-label="Visits" className="numeric">
                    <Link to={`/bio/${bio.id}/statistics`} aria-label={`${formatCount(bio.clicks)} visit${bio.clicks === 1 ? '' : 's'}: statistics of ${bio.name}`}>
                      <strong>{formatCount(bio.clicks)}</strong> <span className="muted small bio-visits-unit">{bio.clicks === 1 ? 'visit' : 'visits'}</span>
                    </Link>
                  </td>
                  <td data-label="Created" className="nowrap">{formatDate(bio.date)}</td>
                  <td className="actions">
                    <CopyButton text={bio.url} label="Copy address" what={bio.name} />
                    <Link to={`/bio/${bio.id}/statistics`} className="button small">Statistics<span className="visually-hidden"> of {bio.name}</span></Link>
                    <GuardedLink to={`/bio/${bio.id}`} allowed={mayChange} reasonId="bio-role-reason" className="button small ghost">Edit<span className="visually-hidden"> {bio.name}</span></GuardedLink>
                    <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'bio-role-reason'} onClick={() => setDeleting(bio)}>Delete<span className="visually-hidden"> {bio.name}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination page={page} maxPage={list.data.maxpage} total={list.data.result} onPage={(next) => setParams(next === 1 ? {} : { page: String(next) })} />
        </div>
      )}
      {deleting && <DeleteBioDialog bio={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

export function DeleteBioDialog({ bio, onClose, onDeleted }: { bio: { id: number; name: string; url: string }; onClose(): void; onDeleted?(): void }) {
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/bio/{id}/delete', { params: { path: { id: bio.id } } })),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: bioQueryKey }), refreshUsage()])
      onClose()
      onDeleted?.()
    },
  })
  return (
    <ConfirmDialog title="Delete this bio page?" confirmLabel="Delete bio page" busy={remove.isPending} error={remove.isError ? messageOf(remove.error) : undefined} onConfirm={() => remove.mutate()} onCancel={onClose}>
      <p><strong>{bio.name}</strong> at {displayUrl(bio.url)} will stop working for visitors, and its statistics go with it. This cannot be undone.</p>
    </ConfirmDialog>
  )
}
