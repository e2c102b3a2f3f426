// Sign-up, when the instance wants it (issue 38, ADR 036; SIGNUP=closed|open|domains): the
// address is confirmed by a mailed, single-use link before anything is made; confirming makes the
// person and their own workspace on the default plan (account.service's createAccount: the
// registration the spec describes, with its first key) and signs them in. The answer is the same
// whether the address or the username is taken: the mail says what happened instead.
import type { Bindable } from '../../db/transactions.js'
import type { Config } from '../../config.js'
import type { AccountRepository } from './account.repository.js'
import type { AccountService } from './account.service.js'
import type { MailedLinkRepository } from './mailed-link.repository.js'
import { checkNewPassword, isUsername, normaliseEmail } from './account.service.js'
import { linkUrl, newLinkToken, usableLinkOrThrow } from './mailed-link.js'
import { alreadyRegisteredMail, confirmSignUpMail, usernameTakenMail, type SendMail } from './account-mail.js'
import { hashPassword } from '../../core/secrets.js'
import { ConflictError, ForbiddenError, ValidationError } from '../../core/errors.js'
import { DAY_MS, MINUTE_MS, nowTimestamp } from '../../core/time.js'

/** How long a sign-up's confirmation link works. */
export const SIGN_UP_LINK_HOURS = 24

/** The message of a closed instance's refusal. */
export const SIGN_UP_CLOSED_MESSAGE = 'Sign-up is closed on this server. Ask its administrator for an invitation.'

export interface SignUpServiceOptions {
  accounts: AccountRepository
  accountService: Pick<AccountService, 'createAccount'>
  links: Bindable<MailedLinkRepository>
  policy: Config['signup']
  /** Where the dashboard opens links: `${dashboardUrl}/confirm-sign-up#token=…`. */
  dashboardUrl: string
  send?: SendMail
  onMailProblem: (problem: 'failed' | 'no_mail_server', error?: unknown) => void
  now?: () => Date
}

export function createSignUpService(options: SignUpServiceOptions) {
  const { accounts, accountService, links, policy, send, onMailProblem, now = () => new Date() } = options

  async function isUsernameTaken(username: string): Promise<boolean> {
    return (await accounts.findByUsername(username)) !== undefined || (await accounts.people.findByUsername(username)) !== undefined
  }

  /** A free username made from the address's local part (`jane.doe@…` → `jane-doe`, then `jane-doe-2`, …). */
  async function usernameFrom(email: string): Promise<string> {
    let base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24)
    if (base.length < 3) base = `user-${base}`.replace(/-$/, '')
    for (let suffix = 1; suffix <= 50; suffix += 1) {
      const candidate = suffix === 1 ? base : `${base}-${suffix}`
      if (!(await isUsernameTaken(candidate))) return candidate
    }
    return `${base}-${newLinkToken().token.replace(/[^A-Za-z0-9]/g, '').slice(0, 6).toLowerCase()}`
  }

  function deliver(message: Parameters<SendMail>[0]): void {
    if (!send) return onMailProblem('no_mail_server')
    void send(message).catch((error: unknown) => onMailProblem('failed', error))
  }

  /** The policy's refusal of `email`, or nothing when sign-up takes it (closed: refused whatever the address). */
  function refusal(email?: string): ForbiddenError | undefined {
    if (policy.mode === 'closed') return new ForbiddenError(SIGN_UP_CLOSED_MESSAGE)
    const domain = email?.split('@')[1]
    if (policy.mode === 'domains' && (domain === undefined || !policy.domains.includes(domain))) {
      return new ForbiddenError(`Sign-up on this server is only for addresses at ${policy.domains.join(', ')}. Ask its administrator for an invitation.`)
    }
    return undefined
  }

  return {

    /**
     * Mails the address a link to confirm it (or, when it already has an account, the way to its
     * password; when the username is taken, the way to choose another). Answers nothing either
     * way; the password is hashed and the link drawn whatever happens, so the time tells nothing.
     */
    async signUp(input: { username?: string; email: string; password: string }): Promise<void> {
      // Closed: refused before the address is even read.
      if (policy.mode === 'closed') throw new ForbiddenError(SIGN_UP_CLOSED_MESSAGE)
      const email = normaliseEmail(input.email)
      const refused = refusal(email)
      if (refused) throw refused
      const username = input.username?.trim() || undefined
      if (username !== undefined && !isUsername(username)) throw ValidationError.field('username', 'must be 3 to 32 characters of letters, digits, _ and -')
      checkNewPassword(input.password)
      const passwordHash = await hashPassword(input.password)
      const { token, tokenHash } = newLinkToken()
      if ((await accounts.people.findByEmail(email)) || (await accounts.findByEmail(email))) {
        return deliver(alreadyRegisteredMail(email, `${options.dashboardUrl}/forgot-password`))
      }
      if (username !== undefined && (await isUsernameTaken(username))) {
        return deliver(usernameTakenMail(email, username, `${options.dashboardUrl}/sign-up`))
      }
      const at = now()
      await links.deleteExpiredBefore(nowTimestamp(new Date(at.getTime() - DAY_MS)))
      await links.insert({ purpose: 'signup', tokenHash, personId: null, email, username: username ?? null, passwordHash, expiresAt: nowTimestamp(new Date(at.getTime() + SIGN_UP_LINK_HOURS * 60 * MINUTE_MS)) }, nowTimestamp(at))
      deliver(confirmSignUpMail(email, linkUrl(options.dashboardUrl, 'confirm-sign-up', token), SIGN_UP_LINK_HOURS))
    },

    /**
     * Confirms a sign-up, once: makes the person and their workspace (the default plan, they own
     * it); answers both ids, for the session the transport opens. An address or a username taken
     * meanwhile: DuplicateError (400), the link spent.
     */
    async confirmSignUp(token: string): Promise<{ accountId: number; personId: number }> {
      const at = nowTimestamp(now())
      const link = await usableLinkOrThrow(links, 'signup', token, at)
      if (link.password_hash === null) throw ConflictError.linkInvalid()
      // Refused while the policy refuses (an instance closed since the link was sent).
      const refused = refusal(link.email)
      if (refused) throw refused
      const username = link.username ?? (await usernameFrom(link.email))
      // Used up first: two tabs opening the link cannot both make an account.
      if (!(await links.consume(link.id, at))) throw ConflictError.linkExpired()
      const created = await accountService.createAccount({ email: link.email, username, passwordHash: link.password_hash })
      const person = await accounts.people.findByEmail(created.email)
      if (!person) throw ConflictError.linkExpired()
      return { accountId: created.id, personId: person.id }
    },
  }
}

export type SignUpService = ReturnType<typeof createSignUpService>
