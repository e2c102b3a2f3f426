// Request and response schemas of /api/account.
import { Type } from 'typebox'
import { DateTime } from '../../core/schemas.js'
import { TIMESTAMP_INPUT_PATTERN } from '../../core/time.js'

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

export const AccountUpdateBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  password: Type.Optional(Type.String({ maxLength: 256 })),
})

/** PUT /api/account/password: the dashboard's password change, which confirms the current one. */
export const PasswordChangeBody = Type.Object({
  current: Type.String({ maxLength: 256 }),
  password: Type.String({ maxLength: 256, description: 'the new password, 8 to 256 characters' }),
})

/** An API key as its owner sees it: never the key, only its first characters. */
export const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'the first 8 characters of the key, to tell keys apart' }),
  created: DateTime,
  lastused: Type.Union([DateTime, Type.Null()], { description: 'last request made with the key, to the minute; null: never' }),
  expires: Type.Union([DateTime, Type.Null()], { description: 'null: never expires' }),
})

export const ApiKeyListResponse = Type.Object({ error: Type.Literal(0), data: Type.Object({ keys: Type.Array(ApiKey) }) })

export const ApiKeyCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, errorMessage: 'must be 1 to 100 characters' }),
  expires: Type.Optional(
    Type.Union([Type.String({ pattern: TIMESTAMP_INPUT_PATTERN }), Type.Null()], {
      description: 'UTC `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD`, in the future; null or absent: never',
      errorMessage: 'must be a date-time YYYY-MM-DD HH:MM:SS, a date YYYY-MM-DD or null',
    }),
  ),
})

/** The key is shown here once and never again. */
export const ApiKeyCreatedResponse = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String(),
  expires: Type.Union([DateTime, Type.Null()]),
  key: Type.String({ description: 'the API key; store it now, it is never shown again' }),
})
