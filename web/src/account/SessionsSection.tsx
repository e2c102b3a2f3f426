// Where the account is signed in: each session's browser, address and times; revoke any.
import { useState } from 'react'
import { messageOf } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { formatDateTime } from '../components/format'
import { ErrorMessage, Loading } from '../components/States'
import { useAccountSessions, useRevokeSession } from './account-queries'

const BROWSERS: Array<[RegExp, string]> = [[/Edg\//, 'Edge'], [/OPR\//, 'Opera'], [/Firefox\//, 'Firefox'], [/Chrom(e|ium)\//, 'Chrome'], [/Safari\//, 'Safari']]
const SYSTEMS: Array<[RegExp, string]> = [[/iPhone|iPad/, 'iOS'], [/Android/, 'Android'], [/Windows/, 'Windows'], [/Mac OS X|Macintosh/, 'macOS'], [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux']]

/** "Chrome on Windows" from a user agent; the full text stays in the cell's title. */
export function describeBrowser(userAgent: string): string {
  if (!userAgent) return 'Unknown browser'
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1]
  if (!browser && !system) return userAgent.slice(0, 60)
  return `${browser ?? 'A browser'}${system ? ` on ${system}` : ''}`
}

export function SessionsSection() {
  const sessions = useAccountSessions()
  const [revoking, setRevoking] = useState<{ id: string; label: string }>()
  const revoke = useRevokeSession()

  return (
    <section className="card stack wide" aria-labelledby="sessions-title">
      <div>
        <h2 id="sessions-title">Sessions</h2>
        <p className="muted small">Browsers signed in to this account. Revoke any you do not recognise.</p>
      </div>
      {sessions.isPending ? <Loading label="Loading sessions…" /> : sessions.isError ? <ErrorMessage error={sessions.error} onRetry={() => sessions.refetch()} /> : (
        <div className="table-scroll">
          <table className="table compact stack-table">
            <thead><tr><th scope="col">Browser</th><th scope="col">Address</th><th scope="col">Signed in</th><th scope="col">Last active</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {sessions.data.map((session) => (
                <tr key={session.id}>
                  <td data-label="Browser" title={session.useragent}>{describeBrowser(session.useragent)} {session.current && <span className="badge current-badge">This browser</span>}</td>
                  <td className="nowrap" data-label="Address">{session.ip || '—'}</td>
                  <td className="nowrap" data-label="Signed in">{formatDateTime(session.created)}</td>
                  <td className="nowrap" data-label="Last active">{formatDateTime(session.lastseen)}</td>
                  <td className="actions">
                    {!session.current && <button type="button" className="button small ghost danger-text" onClick={() => setRevoking({ id: session.id, label: describeBrowser(session.useragent) })}>Revoke<span className="visually-hidden"> {describeBrowser(session.useragent)}, last active {formatDateTime(session.lastseen)}</span></button>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking && (
        <ConfirmDialog title="Revoke this session?" confirmLabel="Revoke session" busy={revoke.isPending} error={revoke.isError ? messageOf(revoke.error) : undefined} onConfirm={() => revoke.mutate(revoking.id, { onSuccess: () => setRevoking(undefined) })} onCancel={() => { setRevoking(undefined); revoke.reset() }}>
          <p>{revoking.label} will be signed out at its next request.</p>
        </ConfirmDialog>
      )}
    </section>
  )
}
