// Request and response schemas of the workspace's people: members, invitations, workspaces.
import { Type } from 'typebox'
import { DateTime, Id } from '../../core/schemas.js'
import { ROLES } from '../access/roles.js'

export const RoleName = Type.Enum([...ROLES], { errorMessage: `must be one of ${ROLES.join(', ')}`, description: 'viewer < editor < admin < owner' })

export const InviteBody = Type.Object({
  email: Type.String({ maxLength: 254, errorMessage: 'must be a valid e-mail address' }),
  role: RoleName,
})

export const InviteResponse = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  url: Type.String({ description: 'the single-use link to accept the invitation, valid 7 days' }),
  expires: DateTime,
  mailed: Type.Boolean({ description: 'true when the instance e-mailed the link (SMTP_URL set)' }),
})

export const RoleBody = Type.Object({ role: RoleName })

export const Member = Type.Object({
  id: Type.Integer({ description: 'the person' }),
  username: Type.String(),
  email: Type.String(),
  role: RoleName,
  twofactor: Type.Boolean({ description: 'whether the person signs in with a second factor' }),
  lastsignin: Type.Union([DateTime, Type.Null()], { description: 'null: never signed in' }),
  joined: DateTime,
  you: Type.Boolean({ description: 'true for the person making the request' }),
})

export const Invitation = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: RoleName,
  created: DateTime,
  expires: DateTime,
})

export const MemberListResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({ members: Type.Array(Member), invitations: Type.Array(Invitation) }),
})

export const InvitationTokenBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 128, errorMessage: 'must be an invitation token' }),
})

export const InvitationDetailsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    workspace: Type.String(),
    email: Type.String(),
    role: RoleName,
    expires: DateTime,
    registered: Type.Boolean({ description: 'someone already signs in with this address: sign in, then accept' }),
  }),
})

export const AcceptBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 128, errorMessage: 'must be an invitation token' }),
  username: Type.Optional(Type.String({ maxLength: 32, errorMessage: 'must be 3 to 32 characters of letters, digits, _ and -' })),
  password: Type.Optional(Type.String({ maxLength: 256, errorMessage: 'must be 8 to 256 characters' })),
})

export const Workspace = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: 'the account\'s username' }),
  role: RoleName,
  current: Type.Boolean(),
})

export const WorkspaceListResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    workspaces: Type.Array(Workspace),
    cancreate: Type.Boolean({ description: 'whether POST /api/workspace/add would let you create one now (WORKSPACE_CREATION and its limit)' }),
  }),
})

export const WorkspaceCreateBody = Type.Object({
  name: Type.String({ maxLength: 32, errorMessage: 'must be 3 to 32 characters of letters, digits, _ and -' }),
})

export const WorkspaceCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer(), name: Type.String() })

export const MemberParams = Type.Object({ id: Id })

export const WorkspaceDeletedResponse = Type.Object({
  error: Type.Literal(0),
  message: Type.String(),
  workspace: Type.Object({ id: Type.Integer(), name: Type.String() }, { description: 'The workspace the session is in now' }),
})
