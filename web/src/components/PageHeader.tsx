// The title row of a page, with its primary action on the right.
import { useEffect, type ReactNode } from 'react'

export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  // The tab and the history name the page.
  useEffect(() => {
    if (typeof title === 'string') document.title = `${title} · Linkwell`
  }, [title])
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        {/* A block, not a paragraph: a description may hold a paragraph of its own (RoleNote). */}
        {description && <div className="muted page-description">{description}</div>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </div>
  )
}
