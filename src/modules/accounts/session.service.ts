// Signing in to the dashboard: a person's password checked (scrypt, off the event loop), sessions
// opened in one of their workspaces, resolved from their cookie token with the person's role
// there, listed, revoked; the password changed with the current one.
// Throttling wrong passwords is the transport's job (src/http/sign-in-throttle.ts).
import type { ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import type { AccountRepository, AccountWithPlan } from './account.repository.js'
import type { AccountService } from './account.service.js'
import { isStale } from '../api-keys/api-key.service.js'
import { toAuthenticatedAccount, type AuthenticatedAccount, type SignInStep } from '../access/authenticated-account.js'
import type { SessionRepository, SignedInWith } from './session.repository.js'
import { CREDENTIALS_REFUSED_MESSAGE, FULL_ACCESS, isLimited } from '../access/api-key-scopes.js'
import type { PeopleRepository, PersonWorkspace } from './people.repository.js'
import type { PersonRow } from '../../db/schema.js'
import { roleOf } from '../access/roles.js'
import { generateSessionToken, hashApiKey, UNKNOWN_ACCOUNT_PASSWORD_HASH, verifyPassword } from '../../core/secrets.js'
import { AuthenticationError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js'
import { DAY_MS, MINUTE_MS, nowTimestamp, timeOfStored } from '../../core/time.js'

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
  /** What the session still has to do before it may do anything else (ADR 025); absent: nothing. */
  step?: SignInStep
}

/** How long a session that waits for its code lives: long enough to open an authenticator app, no longer. */
export const AWAITING_CODE_MINUTES = 10

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

/** Whose password attempts these are, for the throttle: one person, however they are named. */
export function personSubject(personId: number): string {
  return `person:${personId}`
}

/** The person a login names: an e-mail address when it has an `@` (stored lower-case), else a username (exact). */
export async function findPersonByLogin(people: Pick<PeopleRepository, 'findByEmail' | 'findByUsername'>, login: string): Promise<PersonRow | undefined> {
  const trimmed = login.trim()
  return trimmed.includes('@') ? people.findByEmail(trimmed.toLowerCase()) : people.findByUsername(trimmed)
}

/**
 * The workspace a session opens in, or moves to when the person leaves its own: the first they
 * joined that is not suspended and, for a password session, does not require single sign-on
 * (unless `breakGlass`: the instance administrator's password works everywhere, ADR 033).
 */
export function workspaceToOpen(workspaces: readonly PersonWorkspace[], signedInWith: SignedInWith = 'sso', breakGlass = false): PersonWorkspace | undefined {
  return workspaces.find((workspace) => workspace.is_suspended === 0 && (signedInWith === 'sso' || breakGlass || workspace.require_sso !== 1))
}

export interface SessionServiceOptions {
  accounts: AccountRepository
  sessions: Bindable<SessionRepository>
  accountService: AccountService
  journal: ChangeJournal
  /** Days a session lasts from sign-in (SESSION_DAYS). */
  sessionDays: number
}

export function createSessionService(options: SessionServiceOptions) {
  const { accounts, sessions, accountService, journal } = options
  const findByLogin = (login: string) => findPersonByLogin(accounts.people, login)

  /**
   * A new session of `personId` in `accountId` (their sign-in recorded); the token goes into the
   * cookie. `awaitingCode`: the password was right and the second factor is still to come; such a
   * session lives AWAITING_CODE_MINUTES and may only send its code (ADR 025).
   */
  async function openSession(personId: number, accountId: number, client: SignInClient, now = new Date(), awaitingCode = false, signedInWith: SignedInWith = 'password'): Promise<SignedIn> {
    const createdAt = nowTimestamp(now)
    await sessions.deleteExpired(personId, createdAt)
    if (!awaitingCode) await accounts.people.touchSignIn(personId, createdAt)
    const token = generateSessionToken()
    const sessionId = hashApiKey(token)
    const lifetime = awaitingCode ? AWAITING_CODE_MINUTES * MINUTE_MS : options.sessionDays * DAY_MS
    await sessions.insert({
      id: sessionId,
      accountId,
      personId,
      createdAt,
      expiresAt: nowTimestamp(new Date(now.getTime() + lifetime)),
      userAgent: (client.userAgent ?? '').slice(0, MAX_USER_AGENT_LENGTH),
      ip: client.ip,
      awaitingCode,
      signedInWith,
    })
    const account = await accountService.getAccountOrThrow(accountId)
    const step = awaitingCode ? 'code' : await enrolmentStep(personId, account)
    return { token, sessionId, account, ...(step ? { step } : {}) }
  }

  /** Whether the person owns the instance's administration: their password keeps working where single sign-on is required (break-glass, ADR 033). */
  async function isInstanceAdministrator(personId: number): Promise<boolean> {
    return (await accounts.people.listOwnedWorkspaces(personId)).some((workspace) => workspace.is_admin === 1)
  }

  /** Records, in each workspace that requires single sign-on, that the administrator signed in with a password (break-glass). */
  async function recordBreakGlass(personId: number, workspaces: readonly PersonWorkspace[], client: SignInClient): Promise<void> {
    for (const workspace of workspaces.filter((entry) => entry.require_sso === 1)) {
      await journal.write({ id: workspace.account_id, keyId: null, personId, via: 'dashboard', address: client.ip }, async () => ({
        result: undefined,
        changes: [{ action: 'sso.break_glass', resource: 'person', resourceId: personId, fields: ['password'] }],
      }))
    }
  }

  /** `enrol` when the workspace requires a second factor and the person has none (ADR 025). */
  async function enrolmentStep(personId: number, account: AccountWithPlan): Promise<SignInStep | undefined> {
    if (account.require_two_factor !== 1) return undefined
    const person = await accounts.people.findById(personId)
    return person?.totp_secret ? undefined : 'enrol'
  }

  return {
    /**
     * Whose sign-in attempts these are, for throttling: the person when the login names one
     * (their username and e-mail share one count), else the login text itself, so an unknown login
     * is throttled exactly like a known one and the throttle reveals nothing.
     */
    async signInSubject(login: string): Promise<string> {
      const person = await findByLogin(login)
      return person ? personSubject(person.id) : `login:${login.trim().toLowerCase()}`
    },

    /**
     * Checks the password and opens a session in the person's first workspace that is not suspended;
     * the same error for an unknown login and a wrong password.
     */
    async signIn(login: string, password: string, client: SignInClient, now = new Date()): Promise<SignedIn> {
      const found = await findByLogin(login)
      // Always one scrypt, so the answer's timing does not tell whether the login exists.
      const matches = await verifyPassword(password, found?.password_hash ?? UNKNOWN_ACCOUNT_PASSWORD_HASH)
      if (!found || found.password_hash === null || !matches) throw AuthenticationError.wrongCredentials()
      // Suspended workspaces refuse their people as they refuse their keys; those that require
      // single sign-on refuse passwords, but the instance administrator's (ADR 033).
      const workspaces = await accounts.people.listWorkspaces(found.id)
      const breakGlass = workspaces.some((entry) => entry.require_sso === 1) && (await isInstanceAdministrator(found.id))
      const workspace = workspaceToOpen(workspaces, 'password', breakGlass)
      if (!workspace) throw workspaceToOpen(workspaces) ? ForbiddenError.singleSignOnRequired() : new ForbiddenError()
      if (breakGlass) await recordBreakGlass(found.id, workspaces, client)
      // A person with a second factor gets a session that waits for their code (ADR 025).
      return openSession(found.id, workspace.account_id, client, now, found.totp_secret !== null)
    },

    /** Signs a person in to one of their workspaces without a password: one who has just joined by an invitation, or signed in with their identity provider (`signedInWith: 'sso'`). */
    openSession,

    /** The workspace a sign-in opens in (the first not suspended, and for a password one not requiring single sign-on). */
    workspaceToOpen,

    /**
     * Whether the session was opened through single sign-on less than `minutes` ago: proof of who
     * asks as good as the password, for a person the provider signs in (ADR 033, 036).
     */
    async isFreshSingleSignOn(sessionId: string | undefined, minutes: number, now = new Date()): Promise<boolean> {
      if (sessionId === undefined) return false
      const opened = await sessions.findSignIn(sessionId)
      return opened?.signed_in_with === 'sso' && now.getTime() - timeOfStored(opened.created_at) < minutes * MINUTE_MS
    },

    /** Ends every session of the person (`signedInWith`: only those opened that way); answers how many ended. */
    async endSessionsOf(personId: number, signedInWith?: SignedInWith): Promise<number> {
      return sessions.deleteOfPerson(personId, signedInWith)
    },

    /**
     * Resolves a cookie's token to its person's current workspace and role there; throws
     * AuthenticationError when unknown, revoked or expired. A person no longer a member of the
     * session's workspace is moved to another of theirs (none left: the session ends).
     */
    async authenticateSession(token: string, now = new Date()): Promise<AuthenticatedAccount> {
      if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw AuthenticationError.invalidSession()
      const sessionId = hashApiKey(token)
      let found = await sessions.findWithAccount(sessionId)
      const at = nowTimestamp(now)
      if (!found || found.session_expires_at <= at || found.session_person_id === null) throw AuthenticationError.invalidSession()
      const signedInWith: SignedInWith = found.session_signed_in_with === 'sso' ? 'sso' : 'password'
      // A password session in a workspace that has come to require single sign-on (ADR 033).
      const refusedHere = signedInWith === 'password' && found.workspace_requires_sso === 1 && !(await isInstanceAdministrator(found.session_person_id))
      if (found.session_role === null || refusedHere) {
        const personId = found.session_person_id
        const workspace = workspaceToOpen(await accounts.people.listWorkspaces(personId), signedInWith)
        if (!workspace) {
          await sessions.delete(personId, sessionId)
          throw refusedHere ? ForbiddenError.singleSignOnRequired() : AuthenticationError.invalidSession()
        }
        await sessions.setWorkspace(sessionId, workspace.account_id)
        found = await sessions.findWithAccount(sessionId)
        if (!found || found.session_role === null) throw AuthenticationError.invalidSession()
      }
      if (isStale(found.session_last_seen_at, now)) await sessions.touch(sessionId, at)
      // The person's role bounds the session (http/api-roles.ts); no key scope applies.
      const authenticated = toAuthenticatedAccount(found, { keyId: null, keyExpires: null, sessionId, keyScope: FULL_ACCESS, personId: found.session_person_id, role: roleOf(found.session_role) })
      // Read at every request, so a requirement or an enrolment takes effect at once (ADR 025).
      const step: SignInStep | undefined = found.session_awaiting_code === 1 ? 'code' : found.require_two_factor === 1 && found.person_totp_secret === null ? 'enrol' : undefined
      return step ? { ...authenticated, signInStep: step } : authenticated
    },

    /** The person's workspaces, the session's current one marked. */
    async listWorkspaces(actor: AuthenticatedAccount) {
      if (actor.personId === null) return []
      const workspaces = await accounts.people.listWorkspaces(actor.personId)
      return workspaces.map((workspace) => ({ id: workspace.account_id, name: workspace.username, role: roleOf(workspace.role) ?? 'viewer', current: workspace.account_id === actor.id, suspended: workspace.is_suspended === 1 }))
    },

    /** Makes another of the person's workspaces the session's current one; not theirs (or suspended): not found / 403. */
    async switchWorkspace(actor: AuthenticatedAccount, accountId: number): Promise<void> {
      if (actor.sessionId === undefined || actor.personId === null) throw new ForbiddenError('Only a signed-in session has a current workspace.')
      const workspace = (await accounts.people.listWorkspaces(actor.personId)).find((entry) => entry.account_id === accountId)
      if (!workspace) throw NotFoundError.of('Workspace')
      if (workspace.is_suspended === 1) throw new ForbiddenError()
      if (workspace.require_sso === 1) {
        const session = await sessions.findWithAccount(actor.sessionId)
        if (session?.session_signed_in_with !== 'sso' && !(await isInstanceAdministrator(actor.personId))) throw ForbiddenError.singleSignOnRequired()
      }
      await sessions.setWorkspace(actor.sessionId, accountId)
    },

    /** The person's live sessions, most recently used first; `currentSessionId` is marked. None for nobody (the command line). */
    async listSessions(personId: number | null, currentSessionId: string | undefined, now = new Date()): Promise<SessionRecord[]> {
      if (personId === null) return []
      const rows = await sessions.listLive(personId, nowTimestamp(now))
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

    /** Ends one of the person's sessions; another person's is not found. */
    async revokeSession(actor: AuthenticatedAccount, sessionId: string): Promise<void> {
      await journal.write(actor, async (trx) => {
        if (actor.personId === null || !(await sessions.in(trx).delete(actor.personId, sessionId))) throw NotFoundError.of('Session')
        // The session's id is a hash of its token: recorded by name only.
        return { result: undefined, changes: [{ action: 'session.revoked', resource: 'session', resourceId: null, fields: [] }] }
      })
    },

    /** Ends the session a request came with (nothing to end for a request made with a key). */
    async signOut(personId: number | null, sessionId: string | undefined): Promise<void> {
      if (sessionId !== undefined && personId !== null) await sessions.delete(personId, sessionId)
    },

    /**
     * Replaces the password after checking the current one; every other session ends, the one
     * making the change stays. Returns how many sessions ended. Not with a limited key (ADR 027).
     */
    async changePassword(actor: AuthenticatedAccount, current: string, next: string): Promise<number> {
      if (isLimited(actor.keyScope)) throw new ForbiddenError(CREDENTIALS_REFUSED_MESSAGE)
      const person = actor.personId === null ? undefined : await accounts.people.findById(actor.personId)
      if (!person) throw NotFoundError.of('Person')
      if (person.password_hash === null) throw ConflictError.noPasswordYet()
      if (!(await verifyPassword(current, person.password_hash))) throw ConflictError.wrongCurrentPassword()
      return accountService.setPersonPassword(actor, person.id, next, actor.sessionId)
    },
  }
}

export type SessionService = ReturnType<typeof createSessionService>
