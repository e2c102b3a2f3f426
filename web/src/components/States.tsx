// Loading, empty and error states, the same on every page.
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { ApiError, messageOf } from '../api/client'

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  )
}

export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  // A record that does not exist will not appear on a retry.
  const missing = error instanceof ApiError && error.status === 404
  return (
    <div className="state error" role="alert">
      <strong>{missing ? 'Not found' : 'Could not load this.'}</strong>
      <span>{messageOf(error)}</span>
      {missing ? <Link to="/links" className="button small">Back to your links</Link> : onRetry && <button type="button" className="button small" onClick={onRetry}>Try again</button>}
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
