// Plan rows to the administration API's plan records (GET /api/plans, the CLI's `plan list`, the audit log).
import type { PlanRow } from '../../db/schema.js'
import { parsePlanLimits } from './plan-limits.js'

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
