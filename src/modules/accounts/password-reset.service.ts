// Forgotten passwords (issue 38, ADR 036): a link mailed to the person a login names, single-use,
// RESET_LINK_MINUTES long, only its hash kept; using it sets the password and ends every session
// of the person. The answer to asking is the same whether the login names anyone: the look-up
// and the token's hashing happen either way, and the mail leaves off the response path.
// Throttling the asking is the transport's job (http/sign-in-throttle.ts, guardMail).
import type { Bindable } from '../../db/transactions.js'
import type { ChangeJournal } from '../changes/change-journal.js'
import type { AccountRepository } from './account.repository.js'
import type { MailedLinkRepository } from './mailed-link.repository.js'
import { checkNewPassword } from './account.service.js'
import { findPersonByLogin, workspaceToOpen } from './session.service.js'
import { linkUrl, newLinkToken, usableLinkOrThrow } from './mailed-link.js'
import { resetPasswordMail, type SendMail } from './account-mail.js'
import { hashPassword } from '../../core/secrets.js'
import { ConflictError, ForbiddenError } from '../../core/errors.js'
import { DAY_MS, MINUTE_MS, nowTimestamp } from '../../core/time.js'

/** How long a reset link works. */
export const RESET_LINK_MINUTES = 30

export interface PasswordResetServiceOptions {
  accounts: Bindable<AccountRepository>
  links: Bindable<MailedLinkRepository>
  journal: ChangeJournal
  /** Where the dashboard opens links: `${dashboardUrl}/reset-password#token=…`. */
  dashboardUrl: string
  /** The instance's mailer; absent without SMTP_URL (asking still answers the same, nothing is sent). */
  send?: SendMail
  /** Told when a mail could not be sent (or there is no mail server), off the response path. */
  onMailProblem: (problem: 'failed' | 'no_mail_server', error?: unknown) => void
  now?: () => Date
}

export function createPasswordResetService(options: PasswordResetServiceOptions) {
  const { accounts, links, journal, send, onMailProblem, now = () => new Date() } = options

  return {
    /**
     * Mails a reset link to the person `login` names, if any; answers nothing either way. The
     * mail goes after the link's commit and off the response path: its time tells nothing.
     */
    async requestReset(login: string): Promise<void> {
      const person = await findPersonByLogin(accounts.people, login)
      // Drawn and hashed either way, so that an unknown login costs what a known one does.
      const { token, tokenHash } = newLinkToken()
      if (!person) return
      const at = now()
      const createdAt = nowTimestamp(at)
      // Recorded nowhere: asking proves nothing, and the audit log is a workspace's, not a stranger's.
      await journal.writeUnrecorded(async (trx) => {
        const saved = links.in(trx)
        await saved.deleteExpiredBefore(nowTimestamp(new Date(at.getTime() - DAY_MS)))
        await saved.insert({ purpose: 'password_reset', tokenHash, personId: person.id, email: person.email, expiresAt: nowTimestamp(new Date(at.getTime() + RESET_LINK_MINUTES * MINUTE_MS)) }, createdAt)
        return { result: undefined, changes: [] }
      })
      if (!send) {
        onMailProblem('no_mail_server')
        return
      }
      void send(resetPasswordMail(person.email, linkUrl(options.dashboardUrl, 'reset-password', token), RESET_LINK_MINUTES)).catch((error: unknown) => onMailProblem('failed', error))
    },

    /**
     * Sets the password of the link's person and uses the link up, in one transaction; every
     * session of theirs ends (whoever knew the old password must not stay), their other reset
     * links stop working, their API keys go on. Recorded in the audit log of their first workspace.
     */
    async resetPassword(token: string, password: string, address: string | null): Promise<void> {
      // The rule first: a password that breaks it must not spend the link.
      checkNewPassword(password)
      const at = nowTimestamp(now())
      const link = await usableLinkOrThrow(links, 'password_reset', token, at)
      const person = link.person_id === null ? undefined : await accounts.people.findById(link.person_id)
      if (!person) throw ConflictError.linkExpired()
      const workspace = workspaceToOpen(await accounts.people.listWorkspaces(person.id))
      if (!workspace) throw new ForbiddenError('This account belongs to no workspace any more: ask an administrator.')
      const passwordHash = await hashPassword(password)
      await journal.write({ id: workspace.account_id, keyId: null, personId: person.id, via: 'dashboard', address }, async (trx) => {
        const saved = links.in(trx)
        if (!(await saved.consume(link.id, at))) throw ConflictError.linkExpired()
        await saved.retireOpen(person.id, 'password_reset', at)
        await accounts.in(trx).people.updatePassword(person.id, passwordHash)
        return { result: undefined, changes: [{ action: 'account.password_reset', resource: 'person', resourceId: person.id, fields: ['password'] }] }
      })
    },
  }
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>
