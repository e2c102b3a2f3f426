// The account's branded domains: their redirects, a DNS check each, edit and delete.
import { useState } from 'react'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { displayUrl } from '../components/format'
import { ListPageBody, useListPage } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { EmptyState } from '../components/States'
import { CreateAction, UsageNote } from '../usage/plan-usage'
import { Link } from 'react-router'
import { DnsCheckResult } from './dns'
import { ownershipLabel } from './DomainPage'
import { hostOf } from './domain-form'
import { useDeleteDomain, useDomainPage, type DomainEntry } from './domain-queries'
import './domains.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

function Redirect({ url, none }: { url: string | null; none: string }) {
  return url ? <a href={url} target="_blank" rel="noreferrer" className="ellipsis" title={url}>{displayUrl(url)}</a> : <span className="muted">{none}</span>
}

export function DomainsPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('admin')
  const list = useListPage<DomainEntry>()
  const domains = useDomainPage(list.page)
  const [checking, setChecking] = useState<DomainEntry>()
  const create = <CreateAction resource="domains" to="/domains/new">+ Add domain</CreateAction>

  return (
    <>
      <PageHeader title="Branded domains" description="Serve your short links on your own domain, like go.yourbrand.com." actions={create} />
      <RoleNote id="domains-role-reason" needed="admin" allowed={mayChange} />
      <div><UsageNote resource="domains" /></div>
      {list.notice && <p className="notice" role="status">{list.notice}</p>}
      {checking && (
        <section className="card stack" aria-labelledby="dns-check-title">
          <div className="section-title">
            <h2 id="dns-check-title">DNS of {hostOf(checking.domain)}</h2>
            <button type="button" className="button small ghost" onClick={() => setChecking(undefined)}>Close</button>
          </div>
          <DnsCheckResult domain={checking.domain} />
        </section>
      )}
      <ListPageBody
        query={domains}
        entries={(answer) => answer.domains}
        loadingLabel="Loading domains…"
        state={list}
        empty={(
          <EmptyState title="No branded domains yet">
            <p className="muted">Add a domain you own; the form shows the DNS records that point it to this server. Links can then use it instead of the main domain.</p>
            {create}
          </EmptyState>
        )}
      >
        {(entries) => (
          <table className="table domains-table">
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col">State</th>
                <th scope="col">Root redirect</th>
                <th scope="col">404 redirect</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {entries.map((domain) => {
                const host = hostOf(domain.domain)
                return (
                  <tr key={domain.id}>
                    <td data-label="Domain"><Link to={`/domains/${domain.id}`} className="short-url">{host}</Link></td>
                    <td data-label="State"><span className="badges"><span className={`badge domain-state ${ownershipLabel(domain).tone}`}>{ownershipLabel(domain).text}</span>{domain.certificate.status === 'active' && <span className="badge domain-state ok">HTTPS</span>}</span></td>
                    <td data-label="Root redirect"><span className="cell-label" aria-hidden="true">Root → </span><Redirect url={domain.redirectroot} none="Not found page" /></td>
                    <td data-label="404 redirect"><span className="cell-label" aria-hidden="true">Unknown alias → </span><Redirect url={domain.redirect404} none="Not found page" /></td>
                    <td className="actions">
                      <button type="button" className="button small" onClick={() => setChecking(domain)}>Check DNS<span className="visually-hidden"> of {host}</span></button>
                      <GuardedLink to={`/domains/${domain.id}/edit`} allowed={mayChange} reasonId="domains-role-reason" className="button small ghost">Edit<span className="visually-hidden"> {host}</span></GuardedLink>
                      <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'domains-role-reason'} onClick={() => list.setDeleting(domain)}>Delete<span className="visually-hidden"> {host}</span></button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      </ListPageBody>
      {list.deleting && <DeleteDomainDialog domain={list.deleting} onClose={() => list.setDeleting(undefined)} />}
    </>
  )
}

function DeleteDomainDialog({ domain, onClose }: { domain: DomainEntry; onClose(): void }) {
  const deletion = useDeleteDomain()
  return (
    <DeleteRecordDialog
      title="Delete this domain?"
      confirmLabel="Delete domain"
      deletion={deletion}
      id={domain.id}
      onClose={onClose}
    >
      <p><strong>{hostOf(domain.domain)}</strong> will no longer serve links or redirects. A domain that still has short links cannot be deleted: move or delete them first.</p>
    </DeleteRecordDialog>
  )
}
