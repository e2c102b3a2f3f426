// Request and response schemas of the administration endpoints (decisions §6 Administration).
import { Type, type Static } from 'typebox'
import { Account } from '../accounts/account.schemas.js'
import { DateTime, Id, listResponse, MAX_ID, NullMeans, UpdateBody } from '../../core/schemas.js'
import { RoleName } from '../members/member.schemas.js'
import { MAX_API_RATE, PLAN_RESOURCES } from './plan.service.js'
import { TIMESTAMP_INPUT_PATTERN } from '../../core/time.js'

export const User = Type.Object({
  ...Account.properties,
  admin: Type.Boolean(),
  suspended: Type.Boolean(),
})

export const UserListResponse = listResponse('users', User)

/** A person who signs in, as the instance's administration sees them: every workspace they belong to. */
export const Person = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  twofactor: Type.Boolean({ description: 'whether the person signs in with a second factor' }),
  lastsignin: Type.Union([DateTime, Type.Null()], { description: 'null: never signed in' }),
  date: DateTime,
  workspaces: Type.Array(Type.Object({
    id: Type.Integer({ description: 'the workspace: the API\'s account id' }),
    name: Type.String({ description: 'the account\'s username' }),
    role: RoleName,
    suspended: Type.Boolean(),
  })),
})

export const PersonListResponse = listResponse('people', Person)

export const UserResponse = Type.Object({ error: Type.Literal(0), data: User })

export const UserCreateBody = Type.Object({
  // Shape only here; the account service checks the e-mail and username rules.
  email: Type.String({ maxLength: 254, errorMessage: 'must be a valid e-mail address' }),
  username: Type.String({ maxLength: 32, errorMessage: 'must be 3 to 32 characters of letters, digits, _ and -' }),
  password: Type.Optional(Type.String({ minLength: 8, maxLength: 256, errorMessage: 'must be 8 to 256 characters' })),
  planid: Type.Optional(Id),
  expiration: Type.Optional(Type.String({ pattern: TIMESTAMP_INPUT_PATTERN, errorMessage: 'must be a date-time YYYY-MM-DD HH:MM:SS or a date YYYY-MM-DD' })),
  admin: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
})

export type UserCreateInput = Static<typeof UserCreateBody>

/** The key is shown here once and never again. */
export const UserCreatedResponse = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  apiKey: Type.String(),
})

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
  description: `resource (${PLAN_RESOURCES.join(', ')}) to maximum count; a resource left out is unlimited`,
})

export const PlanCreateBody = Type.Object({ name: PlanName, code: PlanCode, apirate: Type.Optional(ApiRate), limits: Type.Optional(PlanLimits) })

/** Every field optional; `limits` replaces the whole set. */
export const PlanUpdateBody = UpdateBody({ name: Type.Optional(PlanName), code: Type.Optional(PlanCode), apirate: Type.Optional(ApiRate), limits: Type.Optional(PlanLimits) })
