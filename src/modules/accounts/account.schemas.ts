// Request and response schemas of /api/account.
import { Type } from 'typebox'
import { DateTime, Id, NullMeans, UpdateBody } from '../../core/schemas.js'
import { TIMESTAMP_INPUT_PATTERN } from '../../core/time.js'
import { API_KEY_RESOURCES } from '../access/api-key-scopes.js'
import { LIMITED_RESOURCES } from '../plans/plan-limits.js'

export const Account = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  username: Type.String(),
  avatar: Type.String(),
  status: Type.String({ description: 'plan status, e.g. `pro`' }),
  expires: Type.Union([DateTime, Type.Null()], { description: 'plan expiry; null when the plan does not expire' }),
  registered: DateTime,
  planid: Type.Integer(),
})

export const AccountResponse = Type.Object({ error: Type.Literal(0), data: Account })

export const AccountUpdateBody = UpdateBody({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  password: Type.Optional(Type.String({ maxLength: 256 })),
  timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone (`Europe/Berlin`) the workspace\'s statistics count days, hours, weeks and months in by default; `UTC` until set' })),
})

/** GET /api/account/settings: the workspace's settings beyond the spec's account. */
export const AccountSettingsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({ timezone: Type.String({ description: 'IANA time zone of the workspace\'s statistics' }) }),
})

/** PUT /api/account/password: the dashboard's password change, which confirms the current one. */
export const PasswordChangeBody = Type.Object({
  current: Type.String({ maxLength: 256 }),
  password: Type.String({ maxLength: 256, description: 'the new password, 8 to 256 characters' }),
})

const Resource = Type.Enum([...API_KEY_RESOURCES])
const Scopes = Type.Union([Type.Array(Resource, { minItems: 1, maxItems: API_KEY_RESOURCES.length }), Type.Null()], {
  description: 'resources the key reaches; null: all of them',
})

export const KeyCreateBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'default `key`', errorMessage: 'must be 1 to 100 characters' })),
  expires: Type.Optional(
    NullMeans(Type.String({ pattern: TIMESTAMP_INPUT_PATTERN }), 'never (as when left out)', {
      description: 'UTC `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD`, in the future',
      errorMessage: 'must be a date-time YYYY-MM-DD HH:MM:SS, a date YYYY-MM-DD or null',
    }),
  ),
  scopes: Type.Optional(Type.Array(Resource, { minItems: 1, maxItems: API_KEY_RESOURCES.length, errorMessage: `must be a list of resources among ${API_KEY_RESOURCES.join(', ')}` })),
  readonly: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
})

const KeyFields = {
  id: Type.Integer(),
  scopes: Scopes,
  readonly: Type.Boolean(),
}

export const KeyCreatedResponse = Type.Object({
  error: Type.Literal(0),
  ...KeyFields,
  name: Type.String(),
  prefix: Type.String({ description: 'the first 8 characters of the key, to tell keys apart' }),
  expires: Type.Union([DateTime, Type.Null()], { description: 'null: never expires' }),
  key: Type.String({ description: 'shown once; only its hash is stored' }),
})

export const KeyListResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Array(Type.Object({
    ...KeyFields,
    name: Type.String(),
    prefix: Type.String({ description: 'the first 8 characters of the key, to tell keys apart' }),
    expires: Type.Union([DateTime, Type.Null()], { description: 'null: never expires' }),
    created: DateTime,
    lastused: Type.Union([DateTime, Type.Null()], { description: 'last request made with the key, to the minute; null: never' }),
  })),
})

export const KeyParams = Type.Object({ id: Id })

/** GET /api/account/limits: what the account may do: administer, and how many of each limited resource. */
export const LimitsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    planid: Type.Integer(),
    admin: Type.Boolean({ description: 'the account may call the administration endpoints' }),
    resources: Type.Array(Type.Object({
      resource: Type.Enum([...LIMITED_RESOURCES]),
      used: Type.Integer({ minimum: 0 }),
      limit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null: the plan sets no limit' }),
    })),
  }),
})
