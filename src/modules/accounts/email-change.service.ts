// A person's sign-in address changed from the dashboard (issue 38, ADR 036): the current password
// proves who asks (or a fresh single sign-on: `isFreshSignIn`, the hook another way of signing in
// provides), a single-use link mailed to the new address confirms it, and only then is it changed;
// the old address is told. API keys keep the spec's direct change (PUT /api/account/update).
import type { Bindable } from '../../db/transactions.js'
import type { ChangeJournal } from '../changes/change-journal.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import type { AccountRepository } from './account.repository.js'
import type { MailedLinkRepository } from './mailed-link.repository.js'
import { normaliseEmail } from './account.service.js'
import { workspaceToOpen } from './session.service.js'
import { linkUrl, newLinkToken, usableLinkOrThrow } from './mailed-link.js'
import { confirmEmailChangeMail, emailChangedNoticeMail, type SendMail } from './account-mail.js'
import { verifyPassword } from '../../core/secrets.js'
import { isUniqueViolation } from '../../db/errors.js'
import { ConflictError, DuplicateError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js'
import { MINUTE_MS, nowTimestamp } from '../../core/time.js'

/** How recent a single sign-on must be to stand in for the password (the session's opening). */
export const FRESH_SIGN_IN_MINUTES = 10

/** How long the confirmation of a new address works. */
export const EMAIL_CHANGE_LINK_HOURS = 24

/**
 * Whether the session signed in moments ago through single sign-on, which proves who asks as well
 * as the password would. Without single sign-on nothing is fresh enough: the password is asked.
 */
export type FreshSignInCheck = (actor: AuthenticatedAccount) => Promise<boolean>

export interface EmailChangeServiceOptions {
  accounts: Bindable<AccountRepository>
  links: Bindable<MailedLinkRepository>
  journal: ChangeJournal
  /** Where the dashboard opens links: `${dashboardUrl}/confirm-email#token=…`. */
  dashboardUrl: string
  send?: SendMail
  onMailProblem: (problem: 'failed' | 'no_mail_server', error?: unknown) => void
  /** The hook for single sign-on (issue 38's other half); by default no sign-in is fresh enough. */
  isFreshSignIn?: FreshSignInCheck
  now?: () => Date
}

export function createEmailChangeService(options: EmailChangeServiceOptions) {
  const { accounts, links, journal, send, onMailProblem, now = () => new Date() } = options
  const isFreshSignIn = options.isFreshSignIn ?? (async () => false)

  return {
    /**
     * Mails a link to confirm `email` as the session's person's new sign-in address. `current`:
     * their password (ConflictError wrong_password when wrong: the transport throttles those).
     * Only a session (a key changes the address directly, as the spec says). Answers where it went.
     */
    async requestChange(actor: AuthenticatedAccount, input: { email: string; current?: string }): Promise<{ email: string; expires: string }> {
      if (actor.sessionId === undefined || actor.personId === null) throw ForbiddenError.sessionOnly()
      const person = await accounts.people.findById(actor.personId)
      if (!person) throw NotFoundError.of('Person')
      if (input.current !== undefined) {
        if (person.password_hash === null || !(await verifyPassword(input.current, person.password_hash))) throw ConflictError.wrongCurrentPassword()
      } else if (!(await isFreshSignIn(actor))) {
        throw ValidationError.field('current', `is needed: confirm the change with your current password (signed in with single sign-on: sign in again, then change it within ${FRESH_SIGN_IN_MINUTES} minutes)`)
      }
      const email = normaliseEmail(input.email)
      if (email === person.email) throw ValidationError.field('email', 'is already your sign-in address')
      // A signed-in person who proved their password may learn that an address is taken (as PUT /api/account/update tells).
      if (await accounts.people.findByEmail(email)) throw new DuplicateError('An account with this e-mail address already exists.', 'email')
      if (!send) throw new ForbiddenError('This server cannot send mail (no SMTP_URL), so a new address cannot be confirmed. Ask its administrator.')
      const { token, tokenHash } = newLinkToken()
      const at = now()
      const createdAt = nowTimestamp(at)
      const expiresAt = nowTimestamp(new Date(at.getTime() + EMAIL_CHANGE_LINK_HOURS * 60 * MINUTE_MS))
      await journal.writeUnrecorded(async (trx) => {
        const saved = links.in(trx)
        // One pending change at a time: an earlier link (perhaps to a mistyped address) stops working.
        await saved.retireOpen(person.id, 'email_change', createdAt)
        await saved.insert({ purpose: 'email_change', tokenHash, personId: person.id, email, expiresAt }, createdAt)
        return { result: undefined, changes: [] }
      })
      void send(confirmEmailChangeMail(email, linkUrl(options.dashboardUrl, 'confirm-email', token), EMAIL_CHANGE_LINK_HOURS)).catch((error: unknown) => onMailProblem('failed', error))
      return { email, expires: expiresAt }
    },

    /**
     * Confirms a new address, once (no session needed: the link may be opened in another browser).
     * The person's sign-in address changes, and with it the contact address of every workspace
     * they own that had the old one; the old address is told. Answers the new address.
     */
    async confirmChange(token: string, address: string | null): Promise<string> {
      const at = nowTimestamp(now())
      const link = await usableLinkOrThrow(links, 'email_change', token, at)
      const person = link.person_id === null ? undefined : await accounts.people.findById(link.person_id)
      if (!person) throw ConflictError.linkExpired()
      const workspace = workspaceToOpen(await accounts.people.listWorkspaces(person.id))
      if (!workspace) throw new ForbiddenError('This account belongs to no workspace any more: ask an administrator.')
      const owned = await accounts.people.listOwnedWorkspaces(person.id)
      try {
        await journal.write({ id: workspace.account_id, keyId: null, personId: person.id, via: 'dashboard', address }, async (trx) => {
          const saved = accounts.in(trx)
          if (!(await links.in(trx).consume(link.id, at))) throw ConflictError.linkExpired()
          if (await saved.people.findByEmail(link.email)) throw new DuplicateError('An account with this e-mail address already exists.', 'email')
          await saved.people.updateEmail(person.id, link.email)
          for (const { account_id } of owned) {
            if ((await saved.findById(account_id))?.email === person.email) await saved.update(account_id, { email: link.email })
          }
          return { result: undefined, changes: [{ action: 'account.email_changed', resource: 'person', resourceId: person.id, fields: ['email'] }] }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateError('An account with this e-mail address already exists.', 'email')
        throw error
      }
      if (send) void send(emailChangedNoticeMail(person.email, link.email, `${options.dashboardUrl}/forgot-password`)).catch((error: unknown) => onMailProblem('failed', error))
      else onMailProblem('no_mail_server')
      return link.email
    },
  }
}

export type EmailChangeService = ReturnType<typeof createEmailChangeService>
