// An address inside /app/ that names no page.
import { Link } from 'react-router'
import { PageHeader } from '../components/PageHeader'

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <div className="card empty-state">
        <p>There is no page at this address.</p>
        <Link to="/" className="button primary">Go to the overview</Link>
      </div>
    </>
  )
}
