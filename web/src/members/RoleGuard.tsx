// What a page shows of an action the person's role does not allow: the action disabled, pointing
// at the reason said once on the page (never a click that the server refuses).
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { roleAllows, useCurrentRole, type Role } from './member-queries'

/** Why an action needing a role is disabled for those below it. */
export const ROLE_REASONS: Record<Role, string> = {
  viewer: '',
  editor: 'Viewers read this workspace; they do not change it.',
  admin: 'Only owners and admins manage this.',
  owner: 'Only owners manage this.',
}

/**
 * Whether the signed-in person's role includes `needed`. While the role is still unknown: `whileUnknown`
 * (true for buttons, which the server refuses anyway; false before asking for what may be refused).
 */
export function useMay(needed: Role, whileUnknown = true): boolean {
  const role = useCurrentRole()
  return role === undefined ? whileUnknown : roleAllows(role, needed)
}

/** The reason, once per page, with the id the disabled actions point at; nothing when allowed. */
export function RoleNote({ id, needed, allowed }: { id: string; needed: Role; allowed: boolean }) {
  if (allowed) return null
  return <p id={id} className="notice">{ROLE_REASONS[needed]}</p>
}

/** A link to an editing page, or the same words disabled and pointing at the reason. */
export function GuardedLink({ to, allowed, reasonId, className, children }: { to: string; allowed: boolean; reasonId: string; className: string; children: ReactNode }) {
  if (allowed) return <Link to={to} className={className}>{children}</Link>
  return <button type="button" className={className} disabled aria-describedby={reasonId}>{children}</button>
}
