// Plan resource limits (decisions §6: plans carry `apirate` and resource limits), and what an
// account uses of them, for the dashboard's "3 of 10 campaigns".
import { ForbiddenError } from '../../core/errors.js'

/**
 * The resources a plan's `limits` may name, in the order the dashboard lists them (`logos`: uploaded
 * QR logos kept at once): the one list the plan rules, the API's schemas and the CLI's usage read.
 */
export const LIMITED_RESOURCES = ['links', 'qrcodes', 'bio', 'campaigns', 'channels', 'pixels', 'domains', 'splash', 'overlays', 'logos'] as const
export type LimitedResource = (typeof LIMITED_RESOURCES)[number]

/** A plan's limits as a request's account carries them: resource name to maximum count; a resource left out is unlimited. */
export type PlanLimits = Record<string, number>

export function isLimitedResource(name: string): name is LimitedResource {
  return (LIMITED_RESOURCES as readonly string[]).includes(name)
}

/** Parses a plan's stored `limits` JSON, keeping only non-negative integers. */
export function parsePlanLimits(json: string): PlanLimits {
  try {
    const parsed = JSON.parse(json) as Record<string, unknown>
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, number] => Number.isInteger(entry[1]) && (entry[1] as number) >= 0),
    )
  } catch {
    return {}
  }
}

/** Throws 403 when creating one more `resource` would pass the account's plan limit. */
export async function enforcePlanLimit(account: { limits: PlanLimits }, resource: LimitedResource, countExisting: () => Promise<number>): Promise<void> {
  const limit = account.limits[resource]
  if (limit === undefined) return
  if ((await countExisting()) >= limit) throw ForbiddenError.planLimit(resource, limit)
}

/** How many records of a resource an account has. */
export type ResourceCounters = Record<LimitedResource, (accountId: number) => Promise<number>>

export interface ResourceUsage {
  resource: LimitedResource
  used: number
  /** null: the plan sets no limit. */
  limit: number | null
}

export function createPlanUsageService(counters: ResourceCounters) {
  return {
    /** Every limited resource with the account's count and its plan's limit. */
    async usageOf(account: { id: number; limits: PlanLimits }): Promise<ResourceUsage[]> {
      return Promise.all(
        LIMITED_RESOURCES.map(async (resource) => ({ resource, used: await counters[resource](account.id), limit: account.limits[resource] ?? null })),
      )
    },
  }
}
export type PlanUsageService = ReturnType<typeof createPlanUsageService>
