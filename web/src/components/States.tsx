// Loading, empty and error states, the same on every page.
import type { ReactNode } from 'react'
import { Link, useLocation } from 'react-router'
import { ApiError, messageOf } from '../api/client'

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  )
}

// Where a page that found nothing sends the person back to: the list of its own section.
const SECTION_LISTS: Record<string, [string, string]> = {
  links: ['/links', 'Back to your links'],
  qr: ['/qr', 'Back to your QR codes'],
  bio: ['/bio', 'Back to your bio pages'],
  campaigns: ['/campaigns', 'Back to your campaigns'],
  channels: ['/channels', 'Back to your channels'],
  domains: ['/domains', 'Back to your domains'],
  pixels: ['/pixels', 'Back to your pixels'],
  splash: ['/splash', 'Back to your splash pages'],
  overlays: ['/overlays', 'Back to your CTA overlays'],
  webhooks: ['/webhooks', 'Back to your webhooks'],
  import: ['/import', 'Back to Import & export'],
  admin: ['/admin/users', 'Back to the users'],
}

export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const section = useLocation().pathname.split('/')[1] ?? ''
  const [backTo, backLabel] = SECTION_LISTS[section] ?? ['/', 'Back to the overview']
  // A record that does not exist will not appear on a retry.
  const missing = error instanceof ApiError && error.status === 404
  return (
    <div className="state error" role="alert">
      <strong>{missing ? 'Not found' : 'Could not load this.'}</strong>
      <span>{messageOf(error)}</span>
      {missing ? <Link to={backTo} className="button small">{backLabel}</Link> : onRetry && <button type="button" className="button small" onClick={onRetry}>Try again</button>}
    </div>
  )
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state empty">
      <strong>{title}</strong>
      {children}
    </div>
  )
}
