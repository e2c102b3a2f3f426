// Plan rules: names and codes unique, a positive request rate, limits only on known resources.
import { isUniqueViolation } from '../../db/dialect.js'
import type { PlanRow } from '../../db/schema.js'
import type { LimitedResource } from '../accounts/plan-limits.js'
import type { PlanRepository } from './plan.repository.js'
import { DuplicateError, NotFoundError, ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { MAX_ID } from '../../core/schemas.js'

/** Every resource a plan may limit; the check below fails to compile when one is missing. */
export const PLAN_RESOURCES = ['domains', 'campaigns', 'channels', 'pixels', 'qrcodes', 'overlays', 'splash', 'links', 'bio'] as const satisfies readonly LimitedResource[]
const everyResourceListed: Exclude<LimitedResource, (typeof PLAN_RESOURCES)[number]> extends never ? true : never = true
void everyResourceListed

export const MAX_API_RATE = 1_000_000
const PLAN_CODE_PATTERN = /^[A-Za-z0-9_-]{2,32}$/

export interface CreatePlanInput {
  name: string
  code: string
  /** Requests per minute; null or absent: the server default. */
  apirate?: number | null
  /** Resource name to maximum count; absent resources are unlimited. */
  limits?: Record<string, number>
}

export function createPlanService(plans: PlanRepository) {
  function validateLimits(limits: Record<string, number>): Record<string, number> {
    for (const [resource, limit] of Object.entries(limits)) {
      if (!(PLAN_RESOURCES as readonly string[]).includes(resource)) {
        throw ValidationError.field('limits', `may only name ${PLAN_RESOURCES.join(', ')}; "${resource}" is not one`)
      }
      if (!Number.isInteger(limit) || limit < 0 || limit > MAX_ID) {
        throw ValidationError.field('limits', `must give each resource a whole number of 0 or more; "${resource}" has ${limit}`)
      }
    }
    return limits
  }

  return {
    listPlans(page: PageRequest) {
      return plans.listPage(page)
    },

    listAllPlans(): Promise<PlanRow[]> {
      return plans.listAll()
    },

    async getPlanOrThrow(id: number): Promise<PlanRow> {
      const plan = await plans.findById(id)
      if (!plan) throw NotFoundError.of('Plan')
      return plan
    },

    async createPlan(input: CreatePlanInput): Promise<PlanRow> {
      const name = input.name.trim()
      if (name.length < 2 || name.length > 100) throw ValidationError.field('name', 'must be 2 to 100 characters')
      if (!PLAN_CODE_PATTERN.test(input.code)) throw ValidationError.field('code', 'must be 2 to 32 characters of letters, digits, _ and -')
      const apirate = input.apirate ?? null
      if (apirate !== null && (!Number.isInteger(apirate) || apirate < 1 || apirate > MAX_API_RATE)) {
        throw ValidationError.field('apirate', `must be a whole number from 1 to ${MAX_API_RATE}`)
      }
      const limits = validateLimits(input.limits ?? {})
      if (await plans.findByName(name)) throw new DuplicateError('A plan with this name already exists.')
      // Accounts name their plan by id, name or code (the CLI's --plan), so codes are unique too.
      if (await plans.findByCode(input.code)) throw new DuplicateError('A plan with this code already exists.')
      try {
        return await plans.insert({ name, code: input.code, apirate, limits })
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateError('A plan with this name already exists.')
        throw error
      }
    },
  }
}

export type PlanService = ReturnType<typeof createPlanService>
