// Plan resource limits (decisions §6: plans carry `apirate` and resource limits).
import type { AuthenticatedAccount } from './account.service.js'
import { ForbiddenError } from '../../core/errors.js'

/** Resource names a plan's `limits` object may carry. */
export type LimitedResource = 'domains' | 'campaigns' | 'channels' | 'pixels' | 'qrcodes' | 'overlays' | 'splash' | 'links' | 'bio'

/** Throws 403 when creating one more `resource` would pass the account's plan limit. */
export async function enforcePlanLimit(account: AuthenticatedAccount, resource: LimitedResource, countExisting: () => Promise<number>): Promise<void> {
  const limit = account.limits[resource]
  if (limit === undefined) return
  if ((await countExisting()) >= limit) throw ForbiddenError.planLimit(resource, limit)
}
