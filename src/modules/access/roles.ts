// What a person may do in a workspace (issue 20). Four roles, each holding everything of the ones
// below it: a viewer reads, an editor also changes the workspace's content, an admin also its
// members, keys and branded domains, an owner everything (the account itself, the plan, the
// instance's administration for an administrator's workspace). Which role each API endpoint needs
// is one table, http/api-roles.ts; the API gate (http/auth.ts) checks it for keys and sessions alike.
import { ValidationError } from '../../core/errors.js'

/** From the least to the most a role may do. */
export const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const
export type Role = (typeof ROLES)[number]

/** The 403's message for a session whose person's role is below the endpoint's (the API gate's default). */
export const ROLE_REFUSED_MESSAGE = 'You do not have permission to access this endpoint.'

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}

/** The stored role, or null for a value this version does not know (it grants nothing). */
export function roleOf(stored: string | null | undefined): Role | null {
  return isRole(stored) ? stored : null
}

/** Whether `held` (null: no membership) includes `needed`. */
export function roleAllows(held: Role | null, needed: Role): boolean {
  return held !== null && ROLES.indexOf(held) >= ROLES.indexOf(needed)
}

/** Checks a role named in a request. */
export function parseRole(value: string, field = 'role'): Role {
  if (!isRole(value)) throw ValidationError.field(field, `must be one of ${ROLES.join(', ')}`)
  return value
}
