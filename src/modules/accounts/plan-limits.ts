// Plan resource limits (decisions §6: plans carry `apirate` and resource limits), and what an
// account uses of them, for the dashboard's "3 of 10 campaigns".
import type { AuthenticatedAccount } from './account.service.js'
import { ForbiddenError } from '../../core/errors.js'

/** Resource names a plan's `limits` object may carry, in the order the dashboard lists them (`logos`: uploaded QR logos kept at once). */
export const LIMITED_RESOURCES = ['links', 'qrcodes', 'bio', 'campaigns', 'channels', 'pixels', 'domains', 'splash', 'overlays', 'logos'] as const
export type LimitedResource = (typeof LIMITED_RESOURCES)[number]

/** Throws 403 when creating one more `resource` would pass the account's plan limit. */
export async function enforcePlanLimit(account: AuthenticatedAccount, resource: LimitedResource, countExisting: () => Promise<number>): Promise<void> {
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
    async usageOf(account: Pick<AuthenticatedAccount, 'id' | 'limits'>): Promise<ResourceUsage[]> {
      return Promise.all(
        LIMITED_RESOURCES.map(async (resource) => ({ resource, used: await counters[resource](account.id), limit: account.limits[resource] ?? null })),
      )
    },
  }
}
export type PlanUsageService = ReturnType<typeof createPlanUsageService>
