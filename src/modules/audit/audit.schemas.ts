// GET /api/audit: its filters and its entries.
import { Type, type Static } from 'typebox'
import { Id, listResponse, PageQuery, TimeBound } from '../../core/schemas.js'

export const AuditQuery = Type.Object({
  ...PageQuery.properties,
  actor: Type.Optional(Type.String({
    pattern: '^(key:[1-9][0-9]{0,9}|person:[1-9][0-9]{0,9}|api|dashboard|cli|system)$',
    errorMessage: 'must be key:ID, person:ID, api, dashboard, cli or system',
    description: 'who acted: one API key (`key:12`), one person (`person:3`), or every change made one way (`api`, `dashboard`, `cli`, `system`)',
  })),
  resource: Type.Optional(Type.String({
    pattern: '^[a-z_]{1,32}$',
    errorMessage: 'must be a resource name such as link, qr, campaign or key',
    description: 'the kind of record changed: `link`, `qr`, `bio`, `campaign`, `channel`, `pixel`, `splash`, `overlay`, `domain`, `account`, `key`, `session`, `plan`, …',
  })),
  from: Type.Optional(TimeBound('first second')),
  to: Type.Optional(TimeBound('last second')),
})
export type AuditQuery = Static<typeof AuditQuery>

export const AuditEntry = Type.Object({
  id: Id,
  date: Type.String({ description: 'UTC, `YYYY-MM-DD HH:MM:SS`' }),
  via: Type.String({ description: 'how the change came: `api`, `dashboard`, `cli` or `system`' }),
  person: Type.Union([Id, Type.Null()], { description: 'the person who acted (a session\'s, or the key\'s maker); null where there is none' }),
  key: Type.Union([Type.Object({ id: Id, name: Type.Union([Type.String(), Type.Null()], { description: 'null once the key is deleted' }) }), Type.Null()], { description: 'the API key the request carried' }),
  address: Type.Union([Type.String(), Type.Null()], { description: 'the client\'s address; null outside HTTP' }),
  action: Type.String({ description: '`<resource>.<verb>`, e.g. `link.created`, `campaign.link_assigned`' }),
  resource: Type.String(),
  resourceId: Type.Union([Type.Integer(), Type.Null()]),
  fields: Type.Array(Type.String(), { description: 'the names of the fields the change set (never their values)' }),
})
export type AuditEntry = Static<typeof AuditEntry>

export const AuditListResponse = listResponse('entries', AuditEntry)
