// Account rows to API records.
import type { AccountRow } from '../../db/schema.js'

/** The spec's Account; `status` is the plan's code. */
export function toAccountRecord(account: AccountRow & { plan_code: string }, publicUrl: string) {
  return {
    id: account.id,
    email: account.email,
    username: account.username,
    avatar: account.avatar ?? `${publicUrl}/avatar/${encodeURIComponent(account.username)}.svg`,
    status: account.plan_code,
    expires: account.plan_expires,
    registered: account.created_at,
    planid: account.plan_id,
  }
}
