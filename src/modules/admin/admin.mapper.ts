// Account and plan rows to the administration API's records.
import type { PlanRow } from '../../db/schema.js'
import { toAccountRecord } from '../accounts/account.mapper.js'
import type { AccountWithPlan } from '../accounts/account.repository.js'
import { parsePlanLimits } from '../accounts/account.service.js'

/** The spec's Account plus what an administrator needs: the admin and suspended flags. */
export function toUserRecord(account: AccountWithPlan, publicUrl: string) {
  return {
    ...toAccountRecord(account, publicUrl),
    admin: account.is_admin === 1,
    suspended: account.is_suspended === 1,
  }
}

export function toPlanRecord(plan: PlanRow) {
  return {
    id: plan.id,
    name: plan.name,
    code: plan.code,
    apirate: plan.apirate,
    limits: parsePlanLimits(plan.limits),
    default: plan.is_default === 1,
  }
}
