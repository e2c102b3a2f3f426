// The workspace's people (issue 20): GET /api/members, POST /api/member/invite,
// PUT /api/member/{id}/update, DELETE /api/member/{id}/delete, DELETE /api/invitation/{id}/delete;
// an invitation's link: POST /api/invitation/details, POST /api/invitation/accept; the person's
// workspaces: GET /api/workspaces, POST /api/workspace/add, PUT /api/workspace/{id}/switch.
// Who may call each is http/api-roles.ts.
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import type { SessionCookie } from '../../http/session-cookie.js'
import type { AccountService } from '../accounts/account.service.js'
import type { SessionService } from '../accounts/session.service.js'
import { toAccountRecord } from '../accounts/account.mapper.js'
import { AccountResponse } from '../accounts/account.schemas.js'
import type { InvitationService } from './invitation.service.js'
import type { MemberService } from './member.service.js'
import { toMemberRecord } from './member.mapper.js'
import type { WorkspaceCreationService } from '../accounts/workspace-creation.service.js'
import {
  AcceptBody, InvitationDetailsResponse, InvitationTokenBody, InviteBody, InviteResponse, MemberListResponse, MemberParams, RoleBody,
  WorkspaceCreateBody, WorkspaceCreatedResponse, WorkspaceDeletedResponse, WorkspaceListResponse,
} from './member.schemas.js'
import { MessageResponse } from '../../core/schemas.js'
import { ForbiddenError, ValidationError } from '../../core/errors.js'

const tags = ['members']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface MemberRouteDependencies {
  members: MemberService
  invitations: InvitationService
  accounts: AccountService
  sessions: SessionService
  sessionCookie: SessionCookie
  workspaceCreation: WorkspaceCreationService
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
}

export function registerMemberRoutes(app: App, { members, invitations, accounts, sessions, sessionCookie, workspaceCreation, publicUrl }: MemberRouteDependencies): void {
  app.get('/api/members', {
    schema: { tags, summary: 'List the workspace\'s members (role, second factor, last sign-in) and its pending invitations', response: { 200: MemberListResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    const [people, pending] = await Promise.all([members.listMembers(account.id), invitations.listPending(account.id)])
    return {
      error: 0 as const,
      data: {
        members: people.map((member) => toMemberRecord(member, account.personId)),
        invitations: pending.map((invitation) => ({ ...invitation, role: invitation.role ?? 'viewer' })),
      },
    }
  })

  app.post('/api/member/invite', {
    schema: {
      tags,
      summary: 'Invite an e-mail address to the workspace in a role: a single-use link valid 7 days, e-mailed when the server can send mail',
      description: 'Only an owner invites an owner.',
      body: InviteBody,
      response: { 201: InviteResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const invited = await invitations.invite(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, ...invited })
  })

  app.put('/api/member/:id/update', {
    schema: { tags, summary: 'Change a member\'s role (only an owner makes or unmakes an owner; the last owner stays one)', params: MemberParams, body: RoleBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await members.changeRole(accountOf(request), request.params.id, request.body.role)
    return { error: 0 as const, message: 'The member\'s role has been changed.' }
  })

  app.delete('/api/member/:id/delete', {
    schema: { tags, summary: 'Remove a member, with the API keys they made in the workspace (the last owner stays)', params: MemberParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await members.removeMember(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'The member has been removed.' }
  })

  app.delete('/api/invitation/:id/delete', {
    schema: { tags, summary: 'Withdraw a pending invitation: its link stops working', params: MemberParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await invitations.withdraw(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'The invitation has been withdrawn.' }
  })

  // POST, the token in the body: a query string lands in every access log on the way (issue 36).
  app.post('/api/invitation/details', {
    schema: {
      tags,
      summary: 'What an invitation\'s link offers (no credential needed)',
      description: 'Needs `Origin` (or `Referer`) equal to the server\'s public URL and `X-Linkwell-CSRF: 1`, like signing in.',
      security: [],
      body: InvitationTokenBody,
      response: { 200: InvitationDetailsResponse, ...errorResponses },
    },
  }, async (request) => {
    const details = await invitations.describe(request.body.token)
    return { error: 0 as const, data: { ...details, role: details.role ?? 'viewer' } }
  })

  app.post('/api/invitation/accept', {
    schema: {
      tags,
      summary: 'Accept an invitation: signed in, you join the workspace; otherwise give a username and a password to become a new person (signed in at once)',
      description: 'Needs `Origin` (or `Referer`) equal to the server\'s public URL and `X-Linkwell-CSRF: 1`, like signing in. Answers the workspace, now the session\'s current one.',
      security: [],
      body: AcceptBody,
      response: { 200: AccountResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const { token, username, password } = request.body
    const signedIn = request.account
    // Keys act for a workspace; an invitation is accepted by a person, in the dashboard.
    if (signedIn && signedIn.sessionId === undefined) throw new ForbiddenError('Invitations are accepted by signing in, not with an API key.')
    if (signedIn?.personId) {
      const joined = await invitations.accept(token, { personId: signedIn.personId }, request.ip)
      await sessions.switchWorkspace(signedIn, joined.accountId)
      return { error: 0 as const, data: toAccountRecord(await accounts.getAccountOrThrow(joined.accountId), publicUrl) }
    }
    if (username === undefined) throw ValidationError.field('username', 'is required to join as a new person (or sign in first)')
    if (password === undefined) throw ValidationError.field('password', 'is required to join as a new person (or sign in first)')
    const joined = await invitations.accept(token, { username, password }, request.ip)
    const session = await sessions.openSession(joined.personId, joined.accountId, { userAgent: request.headers['user-agent'], ip: request.ip })
    sessionCookie.set(reply, session.token)
    return { error: 0 as const, data: toAccountRecord(session.account, publicUrl) }
  })

  app.get('/api/workspaces', {
    schema: { tags, summary: 'List your workspaces with your role in each; the current one is marked; whether you may create another', response: { 200: WorkspaceListResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    const [workspaces, creation] = await Promise.all([sessions.listWorkspaces(account), workspaceCreation.verdictFor(account.personId)])
    return { error: 0 as const, data: { workspaces: workspaces.map(({ suspended: _suspended, ...workspace }) => workspace), cancreate: creation.allowed } }
  })

  app.post('/api/workspace/add', {
    schema: {
      tags,
      summary: 'Create a new workspace of which you are the owner (on the default plan)',
      description: 'By default only the instance\'s administrators create workspaces; with `WORKSPACE_CREATION=anyone` every person may, up to `WORKSPACE_CREATION_LIMIT` owned workspaces. Refused: 403 with the reason.',
      body: WorkspaceCreateBody,
      response: { 201: WorkspaceCreatedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const created = await workspaceCreation.create(accountOf(request), request.body.name)
    return reply.code(201).send({ error: 0 as const, ...created })
  })

  app.put('/api/workspace/:id/switch', {
    schema: { tags, summary: 'Make another of your workspaces this session\'s current one (sessions only)', params: MemberParams, response: { 200: AccountResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    await sessions.switchWorkspace(account, request.params.id)
    return { error: 0 as const, data: toAccountRecord(await accounts.getAccountOrThrow(request.params.id), publicUrl) }
  })

  app.delete('/api/workspace/:id/delete', {
    schema: {
      tags,
      summary: 'Delete the workspace you are in, with every record in it (owners only)',
      description: 'Its links, QR codes, bio pages, statistics, keys and audit log go with it, and its short links stop answering. Refused for the instance\'s administration and for your only workspace. Sessions in it move to another workspace of their person.',
      params: MemberParams,
      response: { 200: WorkspaceDeletedResponse, ...errorResponses },
    },
  }, async (request) => {
    const workspace = await accounts.deleteWorkspace(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Workspace deleted.', workspace }
  })
}
