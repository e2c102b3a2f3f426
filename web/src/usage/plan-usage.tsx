// What the account uses of its plan (GET /api/account/limits): "3 of 10 campaigns" on each list
// page, and create buttons that say why they are disabled at the limit instead of failing later.
import { useId, type ReactNode } from 'react'
import { Link } from 'react-router'
import { usePlanUsage, type PlanUsage } from '../account/account-queries'
import { ROLE_REASONS, useMay } from '../members/RoleGuard'

export type LimitedResource = PlanUsage['resources'][number]['resource']

/** Names of each resource, singular and plural, as a page's text uses them. */
export const RESOURCE_NOUNS: Record<LimitedResource, [string, string]> = {
  links: ['link', 'links'],
  qrcodes: ['QR code', 'QR codes'],
  logos: ['uploaded logo', 'uploaded logos'],
  bio: ['bio page', 'bio pages'],
  campaigns: ['campaign', 'campaigns'],
  channels: ['channel', 'channels'],
  pixels: ['pixel', 'pixels'],
  domains: ['branded domain', 'branded domains'],
  splash: ['splash page', 'splash pages'],
  overlays: ['CTA overlay', 'CTA overlays'],
}

export interface ResourceUsage {
  used: number
  limit: number | null
  atLimit: boolean
}

export function useResourceUsage(resource: LimitedResource): ResourceUsage | undefined {
  const usage = usePlanUsage()
  const entry = usage.data?.resources.find((item) => item.resource === resource)
  if (!entry) return undefined
  return { used: entry.used, limit: entry.limit, atLimit: entry.limit !== null && entry.used >= entry.limit }
}

/** "3 of 10 campaigns" (or "3 campaigns" on a plan without a limit for them). */
export function usageText(resource: LimitedResource, usage: Pick<ResourceUsage, 'used' | 'limit'>): string {
  const [one, many] = RESOURCE_NOUNS[resource]
  if (usage.limit === null) return `${usage.used} ${usage.used === 1 ? one : many}`
  return `${usage.used} of ${usage.limit} ${usage.limit === 1 ? one : many}`
}

/** Why creating one more is refused, in the words the page shows beside the disabled button. */
export function limitReason(resource: LimitedResource, limit: number): string {
  const [one, many] = RESOURCE_NOUNS[resource]
  return `Your plan allows ${limit} ${limit === 1 ? one : many}. Delete one, or ask an administrator for a larger plan, to create another.`
}

/** The usage line under a list page's title. */
export function UsageNote({ resource }: { resource: LimitedResource }) {
  const usage = useResourceUsage(resource)
  if (!usage) return null
  return (
    <span className={usage.atLimit ? 'usage-note at-limit' : 'usage-note'} data-testid={`usage-${resource}`}>
      {usageText(resource, usage)}
    </span>
  )
}

/**
 * The primary "create" action of a limited resource: a link to `to`, or a button running
 * `onClick`. At the plan's limit it is a disabled button with the reason beside it.
 */
export function CreateAction({ resource, to, onClick, children }: { resource: LimitedResource; to?: string; onClick?: () => void; children: ReactNode }) {
  const usage = useResourceUsage(resource)
  const reasonId = useId()
  // Branded domains are an admin's; everything else an editor's (the server's table, http/api-roles.ts).
  const needed = resource === 'domains' ? 'admin' : 'editor'
  const allowed = useMay(needed)
  if (!allowed) {
    return (
      <span className="create-action">
        <button type="button" className="button primary" disabled aria-describedby={reasonId}>{children}</button>
        <span className="limit-reason" id={reasonId}>{ROLE_REASONS[needed]}</span>
      </span>
    )
  }
  if (usage?.atLimit && usage.limit !== null) {
    return (
      <span className="create-action">
        <button type="button" className="button primary" disabled aria-describedby={reasonId}>{children}</button>
        <span className="limit-reason" id={reasonId}>{limitReason(resource, usage.limit)}</span>
      </span>
    )
  }
  if (to) return <Link to={to} className="button primary">{children}</Link>
  return <button type="button" className="button primary" onClick={onClick}>{children}</button>
}
