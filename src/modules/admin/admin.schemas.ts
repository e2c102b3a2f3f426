// Request and response schemas of the administration endpoints (decisions §6 Administration): accounts
// and people; plans' are modules/plans/plan.schemas.ts.
import { Type, type Static } from 'typebox'
import { Account } from '../accounts/account.schemas.js'
import { DateTime, Id, listResponse } from '../../core/schemas.js'
import { RoleName } from '../members/member.schemas.js'
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

/** The admin's system page (issue 40): which engine answers statistics, and how far it is. */
export const SystemResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    statistics: Type.Object({
      engine: Type.Union([Type.Literal('raw'), Type.Literal('duckdb'), Type.Literal('clickhouse')], { description: 'raw: the raw clicks in the database; duckdb: the columnar store (ADR 022); clickhouse: ClickHouse (ADR 035)' }),
      duckdb: Type.Optional(Type.Object({ file: Type.String(), lastId: Type.Integer() })),
      clickhouse: Type.Optional(Type.Object({
        database: Type.String(),
        feed: Type.Union([Type.Null(), Type.Object({ lastId: Type.Integer(), gaps: Type.Integer(), fedAt: Type.Union([Type.String(), Type.Null()]), fedClicks: Type.Integer(), leased: Type.Boolean() })]),
      })),
    }),
  }),
})
