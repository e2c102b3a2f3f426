// What a route shows when its code failed to load or threw while rendering.
import { Link, useRouteError } from 'react-router'

export function RouteError() {
  const error = useRouteError()
  const message = error instanceof Error ? error.message : 'This page could not be shown.'
  return (
    <div className="boot">
      <div className="card narrow stack">
        <h1>Something went wrong</h1>
        <p className="muted">{message}</p>
        <p><Link to="/" className="button">Back to the overview</Link> <button type="button" className="button ghost" onClick={() => window.location.reload()}>Reload</button></p>
      </div>
    </div>
  )
}
