// One branded domain (issue 43): whether the workspace has proven it controls the name, the TXT
// record to create, what the last check found in words, a check on demand, and the name's
// certificate. While something is on its way (a check, a certificate), the page asks again every
// few seconds, so a person watching sees it arrive.
import { Link, useLocation, useParams } from 'react-router'
import { CopyButton } from '../components/CopyButton'
import { formatDateTime } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'
import { hostOf } from './domain-form'
import { useDomain, useVerifyDomain, type DomainEntry } from './domain-queries'
import './domains.css'

/** The domain's state in a few words, for the page and the list. */
export function ownershipLabel(domain: DomainEntry): { text: string; tone: 'ok' | 'waiting' | 'failed' } {
  if (domain.status === 'verified') return { text: 'Verified', tone: 'ok' }
  if (domain.status === 'failed') return { text: 'Not verified', tone: 'failed' }
  return { text: 'Waiting for the TXT record', tone: 'waiting' }
}

/** The certificate in a few words: what https on the domain looks like now. */
export function certificateLabel(domain: DomainEntry): { text: string; tone: 'ok' | 'waiting' | 'failed' | 'none' } {
  const { certificate } = domain
  if (certificate.status === 'active') return { text: `HTTPS active until ${formatDateTime(certificate.expires)}`, tone: 'ok' }
  if (certificate.status === 'pending') return { text: 'Getting a certificate…', tone: 'waiting' }
  if (certificate.status === 'failed') return { text: 'The last certificate order failed', tone: 'failed' }
  return { text: domain.status === 'verified' ? 'No certificate from Linkwell (HTTPS is served by your proxy, or ACME_EMAIL is not set)' : 'A certificate is ordered once the domain is verified', tone: 'none' }
}

function Badge({ text, tone }: { text: string; tone: string }) {
  return <span className={`badge domain-state ${tone}`}>{text}</span>
}

export function DomainPage() {
  const id = Number(useParams().id)
  const domain = useDomain(id, { watch: true })
  const mayChange = useMay('admin')
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const verify = useVerifyDomain()

  if (domain.isError) return <ErrorMessage error={domain.error} onRetry={() => domain.refetch()} />
  if (!domain.data) return <Loading label="Loading the domain…" />
  const record = domain.data
  const host = hostOf(record.domain)
  const ownership = ownershipLabel(record)
  const certificate = certificateLabel(record)
  const { verification } = record

  return (
    <>
      <PageHeader
        title={host}
        description="Prove that you control this domain, then Linkwell serves your links on it over https."
        actions={<GuardedLink to={`/domains/${id}/edit`} allowed={mayChange} reasonId="domain-role-reason" className="button ghost">Edit redirects</GuardedLink>}
      />
      <RoleNote id="domain-role-reason" needed="admin" allowed={mayChange} />
      {notice && record.status !== 'verified' && <p className="notice" role="status">{notice} Next: create its TXT record.</p>}
      <p><Link to="/domains">← All branded domains</Link></p>
      <div className="domain-page-grid">
        <section className="card stack" aria-labelledby="ownership-title">
          <div className="section-title">
            <h2 id="ownership-title">1. Verify the domain</h2>
            <Badge {...ownership} />
          </div>
          {record.status === 'verified' ? (
            <p>
              ✓ Control of <strong>{host}</strong> was proven {verification.method === 'http' ? 'by the challenge fetched over the domain' : 'by its TXT record'} on {formatDateTime(verification.verified)}. You may remove the TXT record.
            </p>
          ) : (
            <>
              <p className="muted">At your DNS provider, create this TXT record. Linkwell looks for it every few minutes; it can take a few minutes to an hour to show.</p>
              <table className="table compact dns-records">
                <caption className="visually-hidden">TXT record to create</caption>
                <thead><tr><th scope="col">Type</th><th scope="col">Name</th><th scope="col">Value</th></tr></thead>
                <tbody>
                  <tr>
                    <td data-label="Type"><strong>TXT</strong></td>
                    <td data-label="Name" className="dns-value"><code>{verification.name}</code> <CopyButton text={verification.name} what="the record's name" /></td>
                    <td data-label="Value" className="dns-value"><code>{verification.value}</code> <CopyButton text={verification.value} what="the record's value" /></td>
                  </tr>
                </tbody>
              </table>
            </>
          )}
          {verification.error && (
            <p className={`dns-result ${record.status === 'failed' ? 'failed' : ''}`} role="status">
              <strong>Last check{verification.checked ? ` (${formatDateTime(verification.checked)})` : ''}:</strong> {verification.error}
            </p>
          )}
          {record.status !== 'verified' && (
            <div className="row wrap">
              <button type="button" className="button primary" onClick={() => verify.mutate(id)} disabled={verify.isPending || !mayChange} aria-describedby={mayChange ? undefined : 'domain-role-reason'}>
                {verify.isPending ? 'Checking…' : 'Check now'}
              </button>
              {verification.next && <span className="hint">Next automatic check: {formatDateTime(verification.next)}</span>}
            </div>
          )}
          {verify.isError && <ErrorMessage error={verify.error} />}
        </section>
        <section className="card stack" aria-labelledby="certificate-title">
          <div className="section-title">
            <h2 id="certificate-title">2. HTTPS</h2>
            <Badge {...certificate} />
          </div>
          {record.certificate.status === 'failed' && record.certificate.error && (
            <p className="dns-result failed" role="status"><strong>The certificate authority said:</strong> {record.certificate.error}. Linkwell tries again by itself.</p>
          )}
          {record.certificate.status === 'active' ? (
            <p>Visitors reach <a href={`https://${host}/`} target="_blank" rel="noreferrer">https://{host}</a>; Linkwell renews the certificate 30 days before it ends.</p>
          ) : (
            <p className="muted">Links on this domain work over http meanwhile.</p>
          )}
        </section>
      </div>
    </>
  )
}
