// Request and response schemas of the plan endpoints (decisions §6 Administration: /api/plans, /api/plan/…).
import { Type } from 'typebox'
import { Id, listResponse, MAX_ID, NullMeans, UpdateBody } from '../../core/schemas.js'
import { LIMITED_RESOURCES } from './plan-limits.js'
import { MAX_API_RATE } from './plan.service.js'

export const Plan = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  code: Type.String(),
  apirate: Type.Union([Type.Integer(), Type.Null()], { description: 'requests per minute; null: the server default' }),
  limits: Type.Record(Type.String(), Type.Integer(), { description: 'resource name to maximum count; absent: unlimited' }),
  default: Type.Boolean(),
})

export const PlanListResponse = listResponse('plans', Plan)

export const PlanAssignParams = Type.Object({ id: Id, userid: Id })

export const PlanResponse = Type.Object({ error: Type.Literal(0), data: Plan })

const PlanName = Type.String({ minLength: 2, maxLength: 100, errorMessage: 'must be 2 to 100 characters' })
const PlanCode = Type.String({ pattern: '^[A-Za-z0-9_-]{2,32}$', errorMessage: 'must be 2 to 32 characters of letters, digits, _ and -' })
const ApiRate = NullMeans(Type.Integer({ minimum: 1, maximum: MAX_API_RATE }), 'the server default', {
  errorMessage: `must be a whole number from 1 to ${MAX_API_RATE}, or null for the server default`,
  description: 'requests per minute',
})
// A record, not an object of known keys: the service names the known resources in its message.
const PlanLimits = Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: MAX_ID, errorMessage: 'must be a whole number of 0 or more' }), {
  description: `resource (${LIMITED_RESOURCES.join(', ')}) to maximum count; a resource left out is unlimited`,
})

export const PlanCreateBody = Type.Object({ name: PlanName, code: PlanCode, apirate: Type.Optional(ApiRate), limits: Type.Optional(PlanLimits) })

/** Every field optional; `limits` replaces the whole set. */
export const PlanUpdateBody = UpdateBody({ name: Type.Optional(PlanName), code: Type.Optional(PlanCode), apirate: Type.Optional(ApiRate), limits: Type.Optional(PlanLimits) })
