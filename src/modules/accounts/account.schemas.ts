// Request and response schemas of /api/account.
import { Type } from 'typebox'
import { DateTime } from '../../core/schemas.js'

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
