// The account's branded domains: their redirects, a DNS check each, edit and delete.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useLocation, useSearchParams } from 'react-router'
import { api, messageOf, unwrap } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { displayUrl } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { CreateAction, UsageNote, useRefreshUsage } from '../usage/plan-usage'
import { DnsCheckResult } from './dns'
import { hostOf } from './domain-form'
import './domains.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

type DomainEntry = { id: number; domain: string; redirectroot: string | null; redirect404: string | null }

const PAGE_SIZE = 20

function useDomainPage(page: number) {
  return useQuery({
    queryKey: ['domains', 'page', page],
    queryFn: async () => (await unwrap(api.GET('/api/domains', { params: { query: { page, limit: PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  })
}

function Redirect({ url, none }: { url: string | null; none: string }) {
  return url ? <a href={url} target="_blank" rel="noreferrer" className="ellipsis" title={url}>{displayUrl(url)}</a> : <span className="muted">{none}</span>
}

export function DomainsPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('admin')
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number(params.get('page')) || 1)
  const domains = useDomainPage(page)
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const [checking, setChecking] = useState<DomainEntry>()
  const [deleting, setDeleting] = useState<DomainEntry>()
  const create = <CreateAction resource="domains" to="/domains/new">+ Add domain</CreateAction>

  return (
    <>
      <PageHeader title="Branded domains" description="Serve your short links on your own domain, like go.yourbrand.com." actions={create} />
      <RoleNote id="domains-role-reason" needed="admin" allowed={mayChange} />
      <div><UsageNote resource="domains" /></div>
      {notice && <p className="notice" role="status">{notice}</p>}
      {checking && (
        <section className="card stack" aria-labelledby="dns-check-title">
          <div className="section-title">
            <h2 id="dns-check-title">DNS of {hostOf(checking.domain)}</h2>
            <button type="button" className="button small ghost" onClick={() => setChecking(undefined)}>Close</button>
          </div>
          <DnsCheckResult domain={checking.domain} />
        </section>
      )}
      {domains.isPending ? <Loading label="Loading domains…" /> : domains.isError ? <ErrorMessage error={domains.error} onRetry={() => domains.refetch()} /> : domains.data.domains.length === 0 ? (
        <div className="card">
          <EmptyState title="No branded domains yet">
            <p className="muted">Add a domain you own; the form shows the DNS records that point it to this server. Links can then use it instead of the main domain.</p>
            {create}
          </EmptyState>
        </div>
      ) : (
        <div className={domains.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <table className="table domains-table">
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col">Root redirect</th>
                <th scope="col">404 redirect</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {domains.data.domains.map((domain) => {
                const host = hostOf(domain.domain)
                return (
                  <tr key={domain.id}>
                    <td data-label="Domain"><a href={domain.domain} target="_blank" rel="noreferrer" className="short-url">{host}</a></td>
                    <td data-label="Root redirect"><span className="cell-label" aria-hidden="true">Root → </span><Redirect url={domain.redirectroot} none="Not found page" /></td>
                    <td data-label="404 redirect"><span className="cell-label" aria-hidden="true">Unknown alias → </span><Redirect url={domain.redirect404} none="Not found page" /></td>
                    <td className="actions">
                      <button type="button" className="button small" onClick={() => setChecking(domain)}>Check DNS<span className="visually-hidden"> of {host}</span></button>
                      <GuardedLink to={`/domains/${domain.id}/edit`} allowed={mayChange} reasonId="domains-role-reason" className="button small ghost">Edit<span className="visually-hidden"> {host}</span></GuardedLink>
                      <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'domains-role-reason'} onClick={() => setDeleting(domain)}>Delete<span className="visually-hidden"> {host}</span></button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
          <Pagination page={page} maxPage={domains.data.maxpage} total={domains.data.result} onPage={(next) => setParams(next === 1 ? {} : { page: String(next) })} />
        </div>
      )}
      {deleting && <DeleteDomainDialog domain={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

function DeleteDomainDialog({ domain, onClose }: { domain: DomainEntry; onClose(): void }) {
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/domain/{id}/delete', { params: { path: { id: domain.id } } })),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['domains'] }), refreshUsage()])
      onClose()
    },
  })
  return (
    <ConfirmDialog title="Delete this domain?" confirmLabel="Delete domain" busy={remove.isPending} error={remove.isError ? messageOf(remove.error) : undefined} onConfirm={() => remove.mutate()} onCancel={onClose}>
      <p><strong>{hostOf(domain.domain)}</strong> will no longer serve links or redirects. A domain that still has short links cannot be deleted: move or delete them first.</p>
    </ConfirmDialog>
  )
}
