// What a branded domain needs in DNS (GET /api/domains/setup) and what it resolves to now
// (GET /api/domains/dns, the same resolver the add check uses).
import { ErrorMessage, Loading } from '../components/States'
import { useDnsCheck, useDomainSetup, type DomainSetup } from './domain-queries'

/** The records to create: an A or AAAA record per server address, or a CNAME to the server's name. */
export function dnsRecords(setup: DomainSetup, host: string): Array<{ type: 'A' | 'AAAA' | 'CNAME'; name: string; value: string }> {
  const name = host || 'your domain'
  return [
    ...setup.ips.map((ip) => ({ type: ip.includes(':') ? ('AAAA' as const) : ('A' as const), name, value: ip })),
    ...(setup.cname ? [{ type: 'CNAME' as const, name, value: setup.cname }] : []),
  ]
}

/** Step-by-step DNS instructions for `host` (the domain being added, or empty while none is typed). */
export function DnsInstructions({ host }: { host: string }) {
  const setup = useDomainSetup()
  if (setup.isPending) return <Loading label="Loading the DNS records this server needs…" />
  if (setup.isError) return <ErrorMessage error={setup.error} onRetry={() => setup.refetch()} />
  const records = dnsRecords(setup.data, host)
  return (
    <section className="card stack dns-instructions" aria-labelledby="dns-title">
      <h2 id="dns-title">Point your domain to this server</h2>
      {records.length === 0 ? (
        <p className="notice" role="note">
          This server has no addresses configured (<code>SERVER_IPS</code>, <code>SERVER_CNAME</code>), so the DNS check is
          skipped: the domain is added as it is. Point it to this server at your DNS provider yourself, or visitors will not reach your links.
        </p>
      ) : (
        <>
          <p className="muted">
            At your DNS provider, create {records.length === 1 ? 'this record' : 'one of these records'} for <strong>{host || 'the domain'}</strong>.
            The domain can only be added once DNS points to this server; changes can take a few minutes to an hour to show.
          </p>
          <table className="table compact dns-records">
            <caption className="visually-hidden">DNS records to create</caption>
            <thead><tr><th scope="col">Type</th><th scope="col">Name</th><th scope="col">Value</th></tr></thead>
            <tbody>
              {records.map((record) => (
                <tr key={`${record.type}-${record.value}`}>
                  <td data-label="Type"><strong>{record.type}</strong></td>
                  <td data-label="Name" className="dns-value">{record.name}</td>
                  <td data-label="Value" className="dns-value"><code>{record.value}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="hint">A domain at the root of its zone (example.com, not go.example.com) cannot carry a CNAME: use the A/AAAA records, or your provider's flattening (ALIAS/ANAME).</p>
        </>
      )}
    </section>
  )
}

/** What `domain` resolves to now, and whether adding it would pass the check. */
export function DnsCheckResult({ domain }: { domain: string }) {
  const check = useDnsCheck(domain)
  if (check.isPending) return <Loading label="Asking DNS…" />
  if (check.isError) return <ErrorMessage error={check.error} onRetry={() => check.refetch()} />
  const { hostname, addresses, cnames, pointing } = check.data
  const found = [...cnames.map((name) => `CNAME ${name.replace(/\.$/, '')}`), ...addresses.map((address) => `${address.includes(':') ? 'AAAA' : 'A'} ${address}`)]
  return (
    <div className="dns-result stack" role="status">
      <p>
        <strong>{hostname}</strong> {found.length === 0 ? 'has no A, AAAA or CNAME record yet.' : 'resolves to:'}
      </p>
      {found.length > 0 && <ul className="dns-found">{found.map((record) => <li key={record}><code>{record}</code></li>)}</ul>}
      {pointing === true && <p className="status ok">✓ Points to this server: the domain can be added.</p>}
      {pointing === false && <p className="status failed">✗ Does not point to this server yet. Create the records above; DNS changes can take a while to show.</p>}
      {pointing === null && <p className="muted small">This server does not check DNS (no SERVER_IPS or SERVER_CNAME), so this is for your information only.</p>}
      <div><button type="button" className="button small" onClick={() => check.refetch()} disabled={check.isFetching}>{check.isFetching ? 'Checking…' : 'Check again'}</button></div>
    </div>
  )
}
