// Invitations to a workspace (issue 20): an admin invites an e-mail address in a role and gets a
// single-use link valid seven days (mailed too when the instance can send mail); whoever opens it
// joins: a person signed in, or a new person made from the invitation's address and the username
// and password they choose. Only the SHA-256 of the link's token is kept.
import type { Bindable } from '../../db/transactions.js'
import type { ChangeJournal } from '../changes/change-journal.js'
import type { PeopleRepository } from '../accounts/people.repository.js'
import type { AccountService } from '../accounts/account.service.js'
import { roleAllows, roleOf, type Role } from '../access/roles.js'
import { generateSessionToken, hashApiKey } from '../../core/secrets.js'
import type { InvitationRepository } from './invitation.repository.js'
import { memberRecordOf, type MemberActor } from './member.service.js'
import { ACCOUNT_TOPIC, type Announcer } from '../../core/invalidation.js'
import { DuplicateError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js'
import { DAY_MS, nowTimestamp } from '../../core/time.js'

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/
// Tokens are 43 characters; anything far longer is not one of ours.
const MAX_TOKEN_LENGTH = 128

/** Sends an invitation's e-mail (modules/members/invitation-mail.ts; failures logged there by the caller); absent: the link is only shown. */
export type InvitationSender = (message: { to: string; workspace: string; role: Role; url: string; expires: string }) => Promise<void>

export interface InvitationServiceOptions {
  invitations: Bindable<InvitationRepository>
  /** People and their memberships (who is invited, who is already a member). */
  people: Bindable<PeopleRepository>
  /** Reads the workspace invited to, and makes the new person who accepts without signing in. */
  accounts: AccountService
  journal: ChangeJournal
  invalidation: Announcer
  /** Where the dashboard opens an invitation: `${dashboardUrl}/invitation#<token>`. */
  dashboardUrl: string
  send?: InvitationSender
}

/** Who accepts: the signed-in person, or a new one with their own username and password. */
export type Acceptance = { personId: number } | { username: string; password: string }

export function createInvitationService(options: InvitationServiceOptions) {
  const { invitations, people, accounts, journal, invalidation } = options

  async function pendingOrThrow(token: string, now: string) {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw NotFoundError.of('Invitation')
    const invitation = await invitations.findByTokenHash(hashApiKey(token))
    if (!invitation || invitation.expires_at <= now) throw NotFoundError.of('Invitation')
    return invitation
  }

  return {
    /**
     * Invites `email` to the actor's workspace in `role` (only an owner invites an owner); answers
     * the invitation's id, its link (shown to the inviter) and whether it was mailed.
     */
    async invite(actor: MemberActor, input: { email: string; role: Role }) {
      const email = input.email.trim().toLowerCase()
      if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw ValidationError.field('email', 'must be a valid e-mail address')
      if (input.role === 'owner' && !roleAllows(actor.role === undefined ? 'owner' : actor.role, 'owner')) {
        throw new ForbiddenError('Only an owner can make or change an owner.')
      }
      const invited = await people.findByEmail(email)
      if (invited && (await people.findMembership(actor.id, invited.id))) throw new DuplicateError('This person is already a member of the workspace.', 'email')
      const account = await accounts.getAccountOrThrow(actor.id)
      const token = generateSessionToken()
      const now = new Date()
      const expiresAt = nowTimestamp(new Date(now.getTime() + INVITATION_DAYS * DAY_MS))
      const id = await journal.write(actor, async (trx) => {
        const saved = invitations.in(trx)
        await saved.deleteExpired(actor.id, nowTimestamp(now))
        const created = await saved.insert(actor.id, { email, role: input.role, tokenHash: hashApiKey(token), invitedBy: actor.personId, expiresAt })
        return { result: created, changes: [{ action: 'invitation.created', resource: 'invitation', resourceId: created, fields: ['email', 'role'] }] }
      })
      // The token rides in the fragment, which browsers never send: no server or proxy logs it (issue 36).
      const url = `${options.dashboardUrl}/invitation#${token}`
      // Sent after the commit: a mail about an invitation that was rolled back would be a lie.
      // A mail server that fails does not undo the invitation: the inviter still has the link to pass on.
      let mailed = false
      if (options.send) {
        mailed = await options.send({ to: email, workspace: account.username, role: input.role, url, expires: expiresAt }).then(() => true, () => false)
      }
      return { id, url, expires: expiresAt, mailed }
    },

    /** The workspace's pending invitations, oldest first. */
    async listPending(accountId: number) {
      const rows = await invitations.listPending(accountId, nowTimestamp())
      return rows.map((row) => ({ id: row.id, email: row.email, role: roleOf(row.role), created: row.created_at, expires: row.expires_at }))
    },

    async withdraw(actor: MemberActor, id: number): Promise<void> {
      await journal.write(actor, async (trx) => {
        if (!(await invitations.in(trx).delete(actor.id, id))) throw NotFoundError.of('Invitation')
        return { result: undefined, changes: [{ action: 'invitation.deleted', resource: 'invitation', resourceId: id, fields: [] }] }
      })
    },

    /** What an invitation's link offers, for the page that accepts it; expired or used: not found. */
    async describe(token: string) {
      const invitation = await pendingOrThrow(token, nowTimestamp())
      const account = await accounts.getAccountOrThrow(invitation.account_id)
      return { workspace: account.username, email: invitation.email, role: roleOf(invitation.role), expires: invitation.expires_at, registered: (await people.findByEmail(invitation.email)) !== undefined }
    },

    /**
     * Accepts an invitation, once: adds the signed-in person, or makes a new person of the
     * invitation's address. Answers the workspace and the person.
     */
    async accept(token: string, who: Acceptance, address: string | null): Promise<{ accountId: number; personId: number }> {
      const invitation = await pendingOrThrow(token, nowTimestamp())
      const role = roleOf(invitation.role) ?? 'viewer'
      const actor = { id: invitation.account_id, keyId: null, via: 'dashboard' as const, address }
      let personId: number
      if ('personId' in who) {
        personId = who.personId
        // The link is a bearer token that may have been forwarded or logged: only its addressee joins with it.
        const signedIn = await people.findById(personId)
        if (!signedIn || signedIn.email.toLowerCase() !== invitation.email) throw ForbiddenError.invitationForSomeoneElse()
      } else {
        if (await people.findByEmail(invitation.email)) throw new DuplicateError('Someone already signs in with this e-mail address: sign in first, then open the invitation again.', 'email')
        personId = await accounts.createPerson({ ...actor, personId: null }, { username: who.username, email: invitation.email, password: who.password })
      }
      if (await people.findMembership(invitation.account_id, personId)) throw new DuplicateError('You are already a member of this workspace.')
      const person = await people.findById(personId)
      await journal.write({ ...actor, personId }, async (trx) => {
        if (!(await invitations.in(trx).consume(invitation.id))) throw NotFoundError.of('Invitation')
        await people.in(trx).addMembership(invitation.account_id, personId, role)
        return { result: undefined, changes: [{ action: 'member.joined', resource: 'member', resourceId: personId, fields: ['role'], record: person && memberRecordOf(person, role) }] }
      })
      invalidation.publish(ACCOUNT_TOPIC, String(invitation.account_id))
      return { accountId: invitation.account_id, personId }
    },
  }
}

export type InvitationService = ReturnType<typeof createInvitationService>
