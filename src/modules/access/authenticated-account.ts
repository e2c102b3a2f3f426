// The account a request acts for and who acts: what a credential resolves to (an API key,
// modules/api-keys; a dashboard session, modules/accounts), what the API gate (http/auth.ts) checks
// and hands to every route, and what services receive as `account`. It lives here, beside the roles
// and key scopes it carries, so that the gate and the modules that make it both stand on it.
import type { AccountRow } from '../../db/schema.js'
import type { Actor } from '../changes/change-journal.js'
import { parsePlanLimits, type PlanLimits } from '../plans/plan-limits.js'
import type { ApiKeyScope } from './api-key-scopes.js'
import type { Role } from './roles.js'

/**
 * The account a request acts for and who acts (an Actor, modules/changes): what the API gate
 * resolves from a key or a session, with the client's address added per request.
 */
export interface AuthenticatedAccount extends Actor {
  id: number
  username: string
  email: string
  isAdmin: boolean
  isSuspended: boolean
  /** Requests per minute; null: the server default. */
  apirate: number | null
  /** Resource name to maximum count. */
  limits: PlanLimits
  /** The API key used; null for a session. */
  keyId: number | null
  /** When the key stops working (stored timestamp), or null. */
  keyExpires: string | null
  /** The session (its id, the token's hash) when the request came from the dashboard instead of with a key. */
  sessionId?: string
  /** What the key may reach (api-key-scopes.ts); full access unless it was limited (always, for a session). */
  keyScope: ApiKeyScope
  /**
   * The role in the account of the person acting (a session's, or the key's maker, as of this
   * request): what the API gate allows (http/api-roles.ts). Null: no longer a member.
   */
  role: Role | null
  /**
   * A session not fully signed in yet (ADR 025): `code` waits for the person's second factor,
   * `enrol` may only set one up (their workspace requires it). Absent: nothing left to do.
   */
  signInStep?: SignInStep
}

/** What a session still has to do before it may do anything else (ADR 025). */
export type SignInStep = 'code' | 'enrol'

/** What an account's row with its plan's rate and limits gives a request (account.repository's AccountWithPlan has it, and so does the key look-up). */
export type AccountWithPlanLimits = Pick<AccountRow, 'id' | 'username' | 'email' | 'is_admin' | 'is_suspended'> & { plan_apirate: number | null; plan_limits: string }

/** The account a request acts for, from its row and the credential it came with (who acts, in which role). */
export function toAuthenticatedAccount(
  account: AccountWithPlanLimits,
  credential: Pick<AuthenticatedAccount, 'keyId' | 'keyExpires' | 'sessionId' | 'keyScope' | 'personId' | 'role'>,
): AuthenticatedAccount {
  return {
    id: account.id,
    via: credential.sessionId === undefined ? 'api' : 'dashboard',
    address: null,
    username: account.username,
    email: account.email,
    isAdmin: account.is_admin === 1,
    isSuspended: account.is_suspended === 1,
    apirate: account.plan_apirate,
    limits: parsePlanLimits(account.plan_limits),
    ...credential,
  }
}
