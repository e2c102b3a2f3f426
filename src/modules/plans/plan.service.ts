// Plan rules: names and codes unique, a positive request rate, limits only on known resources.
import { givenFields, type Actor, type ChangeJournal, type Journaled } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import type { DB } from '../../db/database.js'
import { toPlanRecord } from './plan.mapper.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { PlanRow } from '../../db/schema.js'
import { isLimitedResource, LIMITED_RESOURCES, parsePlanLimits } from './plan-limits.js'
import type { PlanRepository } from './plan.repository.js'
import { ConflictError, DuplicateError, NotFoundError, ValidationError, orNotFound } from '../../core/errors.js'
import { ACCOUNT_TOPIC, ANNOUNCE_NOTHING, type Announcer } from '../../core/invalidation.js'
import type { PageRequest } from '../../core/paging.js'
import { MAX_ID } from '../../core/schemas.js'

export const MAX_API_RATE = 1_000_000
const PLAN_CODE_PATTERN = /^[A-Za-z0-9_-]{2,32}$/

function knownLimits(limits: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(limits).filter(([resource]) => isLimitedResource(resource)))
}

export interface CreatePlanInput {
  name: string
  code: string
  /** Requests per minute; null or absent: the server default. */
  apirate?: number | null
  /** Resource name to maximum count; absent resources are unlimited. */
  limits?: Record<string, number>
}

/** A change of name, code, rate or limits; absent fields stay, `limits` replaces the whole set. */
export type UpdatePlanInput = Partial<CreatePlanInput>

export interface PlanServiceOptions {
  plans: Bindable<PlanRepository>
  journal: ChangeJournal
  /** A plan's rate and limits ride along in cached key look-ups, so a change drops them. */
  invalidation?: Announcer
}

export function createPlanService({ plans, journal, invalidation = ANNOUNCE_NOTHING }: PlanServiceOptions) {
  /**
   * Plans belong to the instance, not to an account: a change an administrator makes is recorded in
   * the administrator's audit log; the command line (no account) writes it unrecorded.
   */
  function write<T>(actor: Actor | null, work: (trx: DB) => Promise<Journaled<T>>): Promise<T> {
    return actor ? journal.write(actor, work) : journal.writeUnrecorded(work)
  }

  function validateLimits(limits: Record<string, number>): Record<string, number> {
    for (const [resource, limit] of Object.entries(limits)) {
      if (!isLimitedResource(resource)) {
        throw ValidationError.field('limits', `may only name ${LIMITED_RESOURCES.join(', ')}; "${resource}" is not one`)
      }
      if (!Number.isInteger(limit) || limit < 0 || limit > MAX_ID) {
        throw ValidationError.field('limits', `must give each resource a whole number of 0 or more; "${resource}" has ${limit}`)
      }
    }
    return limits
  }

  /** Trims and checks every field as the create form states its rules. */
  function cleanPlan(input: CreatePlanInput): { name: string; code: string; apirate: number | null; limits: Record<string, number> } {
    const name = input.name.trim()
    if (name.length < 2 || name.length > 100) throw ValidationError.field('name', 'must be 2 to 100 characters')
    if (!PLAN_CODE_PATTERN.test(input.code)) throw ValidationError.field('code', 'must be 2 to 32 characters of letters, digits, _ and -')
    const apirate = input.apirate ?? null
    if (apirate !== null && (!Number.isInteger(apirate) || apirate < 1 || apirate > MAX_API_RATE)) {
      throw ValidationError.field('apirate', `must be a whole number from 1 to ${MAX_API_RATE}`)
    }
    return { name, code: input.code, apirate, limits: validateLimits(input.limits ?? {}) }
  }

  /** Names and codes are unique (accounts name their plan by id, name or code: the CLI's --plan). */
  async function refuseTaken(values: { name: string; code: string }, exceptId?: number): Promise<void> {
    const sameName = await plans.findByName(values.name)
    if (sameName && sameName.id !== exceptId) throw new DuplicateError('A plan with this name already exists.', 'name')
    const sameCode = await plans.findByCode(values.code)
    if (sameCode && sameCode.id !== exceptId) throw new DuplicateError('A plan with this code already exists.', 'code')
  }

  const getPlanOrThrow = orNotFound(plans.findById, 'Plan')

  return {
    getPlanOrThrow,

    /** The plan an account is put on, named by id, name or code (the CLI's --plan); the default plan when absent. */
    async resolvePlan(reference?: string | number): Promise<PlanRow> {
      if (reference === undefined) return plans.findDefault()
      const found = typeof reference === 'number' || /^\d+$/.test(reference)
        ? await plans.findById(Number(reference))
        : await plans.findByNameOrCode(reference)
      if (!found) throw NotFoundError.of('Plan')
      return found
    },

    listPlans(page: PageRequest) {
      return plans.listPage(page)
    },

    listAllPlans(): Promise<PlanRow[]> {
      return plans.listAll()
    },

    async createPlan(actor: Actor | null, input: CreatePlanInput): Promise<PlanRow> {
      const values = cleanPlan(input)
      await refuseTaken(values)
      try {
        return await write(actor, async (trx) => {
          const plan = await plans.in(trx).insert(values)
          return { result: plan, changes: [{ action: 'plan.created', resource: 'plan', resourceId: plan.id, fields: givenFields(input), record: toPlanRecord(plan) }] }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateError('A plan with this name already exists.', 'name')
        throw error
      }
    },

    async updatePlan(actor: Actor | null, id: number, input: UpdatePlanInput): Promise<PlanRow> {
      const current = await getPlanOrThrow(id)
      const values = cleanPlan({
        name: input.name ?? current.name,
        code: input.code ?? current.code,
        apirate: input.apirate === undefined ? current.apirate : input.apirate,
        // Stored limits on a resource no longer known are dropped rather than blocking a rename.
        limits: input.limits ?? knownLimits(parsePlanLimits(current.limits)),
      })
      await refuseTaken(values, id)
      let updated: PlanRow
      try {
        updated = await write(actor, async (trx) => {
          const plan = await plans.in(trx).update(id, values)
          if (!plan) throw NotFoundError.of('Plan')
          return { result: plan, changes: [{ action: 'plan.updated', resource: 'plan', resourceId: id, fields: givenFields(input), record: toPlanRecord(plan) }] }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateError('A plan with this name already exists.', 'name')
        throw error
      }
      // Any key: cached look-ups of every account on the plan are dropped.
      invalidation.publish(ACCOUNT_TOPIC, `plan:${id}`)
      return updated
    },

    /** Refuses a plan some account is on (400 plan_in_use) and the default plan new accounts get. */
    async deletePlan(actor: Actor | null, id: number): Promise<void> {
      const plan = await getPlanOrThrow(id)
      if (plan.is_default === 1) throw new ValidationError('The default plan cannot be deleted: new accounts are put on it.')
      const deleted = await write(actor, async (trx) => {
        const gone = await plans.in(trx).deleteIfUnused(id)
        return { result: gone, changes: gone ? [{ action: 'plan.deleted', resource: 'plan', resourceId: id, fields: [], record: toPlanRecord(plan) }] : [] }
      })
      if (!deleted) {
        const accounts = await plans.countAccountsOn(id)
        if (accounts > 0) throw ConflictError.planInUse(accounts)
        throw NotFoundError.of('Plan')
      }
    },
  }
}

export type PlanService = ReturnType<typeof createPlanService>
