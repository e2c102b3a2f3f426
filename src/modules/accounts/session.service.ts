// Signing in to the dashboard: passwords checked (scrypt, off the event loop), sessions opened,
// resolved from their cookie token, listed, revoked; the password changed with the current one.
// Throttling wrong passwords is the transport's job (src/http/sign-in-throttle.ts).
import type { ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import type { AccountRepository, AccountWithPlan } from './account.repository.js'
import { isStale, toAuthenticatedAccount, type AccountService, type AuthenticatedAccount } from './account.service.js'
import type { SessionRepository } from './session.repository.js'
import { FULL_ACCESS } from './api-key-scopes.js'
import { generateSessionToken, hashApiKey, UNKNOWN_ACCOUNT_PASSWORD_HASH, verifyPassword } from './secrets.js'
import { AuthenticationError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js'
import { DAY_MS, nowTimestamp } from '../../core/time.js'

/** Where a sign-in came from, kept with the session so its owner can recognise it. */
export interface SignInClient {
  userAgent: string | undefined
  ip: string
}

export interface SignedIn {
  /** Goes into the cookie, once; only its hash is stored. */
  token: string
  sessionId: string
  account: AccountWithPlan
}

/** A session as its owner sees it in the list. */
export interface SessionRecord {
  id: string
  created: string
  lastseen: string
  expires: string
  useragent: string
  ip: string
  current: boolean
}

const MAX_USER_AGENT_LENGTH = 200
// Tokens are 43 characters; anything far longer is not one of ours and is not worth hashing.
const MAX_TOKEN_LENGTH = 128

/** Whose password attempts these are, for the throttle: one account, however it is named. */
export function accountSubject(accountId: number): string {
  return `account:${accountId}`
}

export interface SessionServiceOptions {
  /** Days a session lasts from sign-in (SESSION_DAYS). */
  sessionDays: number
}

export function createSessionService(accounts: AccountRepository, sessions: Bindable<SessionRepository>, accountService: AccountService, journal: ChangeJournal, options: SessionServiceOptions) {
  /** An e-mail address when it has an `@` (stored lower-case), else a username (exact). */
  async function findByLogin(login: string) {
    const trimmed = login.trim()
    return trimmed.includes('@') ? accounts.findByEmail(trimmed.toLowerCase()) : accounts.findByUsername(trimmed)
  }

  return {
    /**
     * Whose sign-in attempts these are, for throttling: the account when the login names one
     * (its username and e-mail share one count), else the login text itself, so an unknown login
     * is throttled exactly like a known one and the throttle reveals nothing.
     */
    async signInSubject(login: string): Promise<string> {
      const account = await findByLogin(login)
      return account ? accountSubject(account.id) : `login:${login.trim().toLowerCase()}`
    },

    /** Checks the password and opens a session; the same error for an unknown login and a wrong password. */
    async signIn(login: string, password: string, client: SignInClient, now = new Date()): Promise<SignedIn> {
      const found = await findByLogin(login)
      // Always one scrypt, so the answer's timing does not tell whether the login exists.
      const matches = await verifyPassword(password, found?.password_hash ?? UNKNOWN_ACCOUNT_PASSWORD_HASH)
      if (!found || found.password_hash === null || !matches) throw AuthenticationError.wrongCredentials()
      if (found.is_suspended === 1) throw new ForbiddenError()
      const createdAt = nowTimestamp(now)
      await sessions.deleteExpired(found.id, createdAt)
      const token = generateSessionToken()
      const sessionId = hashApiKey(token)
      await sessions.insert({
        id: sessionId,
        accountId: found.id,
        createdAt,
        expiresAt: nowTimestamp(new Date(now.getTime() + options.sessionDays * DAY_MS)),
        userAgent: (client.userAgent ?? '').slice(0, MAX_USER_AGENT_LENGTH),
        ip: client.ip,
      })
      return { token, sessionId, account: await accountService.getAccountOrThrow(found.id) }
    },

    /** Resolves a cookie's token to its account; throws AuthenticationError when unknown, revoked or expired. */
    async authenticateSession(token: string, now = new Date()): Promise<AuthenticatedAccount> {
      if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw AuthenticationError.invalidSession()
      const sessionId = hashApiKey(token)
      const found = await sessions.findWithAccount(sessionId)
      const at = nowTimestamp(now)
      if (!found || found.session_expires_at <= at) throw AuthenticationError.invalidSession()
      if (isStale(found.session_last_seen_at, now)) await sessions.touch(sessionId, at)
      // A signed-in person holds the whole account, as its unlimited keys do.
      return toAuthenticatedAccount(found, { keyId: null, keyExpires: null, sessionId, keyScope: FULL_ACCESS })
    },

    /** The account's live sessions, most recently used first; `currentSessionId` is marked. */
    async listSessions(accountId: number, currentSessionId: string | undefined, now = new Date()): Promise<SessionRecord[]> {
      const rows = await sessions.listLive(accountId, nowTimestamp(now))
      return rows.map((row) => ({
        id: row.id,
        created: row.created_at,
        lastseen: row.last_seen_at,
        expires: row.expires_at,
        useragent: row.user_agent,
        ip: row.ip,
        current: row.id === currentSessionId,
      }))
    },

    /** Ends one of the account's sessions; another account's is not found. */
    async revokeSession(actor: AuthenticatedAccount, sessionId: string): Promise<void> {
      await journal.write(actor, async (trx) => {
        if (!(await sessions.in(trx).delete(actor.id, sessionId))) throw NotFoundError.of('Session')
        // The session's id is a hash of its token: recorded by name only.
        return { result: undefined, changes: [{ action: 'session.revoked', resource: 'session', resourceId: null, fields: [] }] }
      })
    },

    /** Ends the session a request came with (nothing to end for a request made with a key). */
    async signOut(accountId: number, sessionId: string | undefined): Promise<void> {
      if (sessionId !== undefined) await sessions.delete(accountId, sessionId)
    },

    /**
     * Replaces the password after checking the current one; every other session ends, the one
     * making the change stays. Returns how many sessions ended.
     */
    async changePassword(actor: AuthenticatedAccount, current: string, next: string): Promise<number> {
      const account = await accountService.getAccountOrThrow(actor.id)
      if (account.password_hash === null) throw ConflictError.noPasswordYet()
      if (!(await verifyPassword(current, account.password_hash))) throw ConflictError.wrongCurrentPassword()
      return accountService.setPassword(actor, actor.id, next, actor.sessionId)
    },
  }
}

export type SessionService = ReturnType<typeof createSessionService>
