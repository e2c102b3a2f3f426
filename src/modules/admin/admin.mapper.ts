// Account and people rows to the administration API's records (plans: modules/plans/plan.mapper.ts).
import { toAccountRecord } from '../accounts/account.mapper.js'
import type { AccountWithPlan } from '../accounts/account.repository.js'
import type { Role } from '../access/roles.js'
import type { PersonWithWorkspaces } from '../accounts/people.repository.js'

/** The spec's Account plus what an administrator needs: the admin and suspended flags. */
export function toUserRecord(account: AccountWithPlan, publicUrl: string) {
  return {
    ...toAccountRecord(account, publicUrl),
    admin: account.is_admin === 1,
    suspended: account.is_suspended === 1,
  }
}

export function toPersonRecord(person: PersonWithWorkspaces) {
  return {
    id: person.id,
    username: person.username,
    email: person.email,
    twofactor: person.totp_secret !== null,
    lastsignin: person.last_sign_in_at,
    date: person.created_at,
    workspaces: person.workspaces.map((workspace) => ({ id: workspace.account_id, name: workspace.username, role: workspace.role as Role, suspended: workspace.is_suspended === 1 })),
  }
}
