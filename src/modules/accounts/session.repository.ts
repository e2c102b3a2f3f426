// SQL for dashboard sessions: one person's each, in their current workspace (`account_id`). Every
// method but the cookie lookup takes the person's id.
import type { DB } from '../../db/database.js'
import type { SessionRow } from '../../db/schema.js'
import type { AccountWithPlan } from './account.repository.js'

export interface NewSession {
  id: string
  accountId: number
  personId: number
  createdAt: string
  expiresAt: string
  userAgent: string
  ip: string
  /** The password was right; the person's second factor is still to come (ADR 025). */
  awaitingCode?: boolean
  /** How the person signed in: a workspace that requires single sign-on refuses password sessions (ADR 033). */
  signedInWith?: SignedInWith
}

/** How a session was opened. */
export type SignedInWith = 'password' | 'sso'

/** What a session's row adds to its workspace's. */
export interface SessionFacts {
  session_expires_at: string
  session_last_seen_at: string
  session_person_id: number | null
  session_role: string | null
  session_awaiting_code: number
  person_totp_secret: string | null
  session_signed_in_with: string
  /** 1 when the session's workspace requires single sign-on (ADR 033). */
  workspace_requires_sso: number | null
}

export function createSessionRepository(db: DB) {
  return {
    async insert(session: NewSession): Promise<void> {
      await db
        .insertInto('sessions')
        .values({
          id: session.id,
          account_id: session.accountId,
          person_id: session.personId,
          created_at: session.createdAt,
          last_seen_at: session.createdAt,
          expires_at: session.expiresAt,
          user_agent: session.userAgent,
          ip: session.ip,
          awaiting_code: session.awaitingCode ? 1 : 0,
          signed_in_with: session.signedInWith ?? 'password',
        })
        .execute()
    },

    /**
     * The session with its workspace, plan and the person's role there, in one read (every
     * signed-in request needs them); the role is null when the person is no longer a member.
     * Also whether the session waits for its code and whether the person has a second factor
     * (a workspace that requires one limits the session to setting it up: ADR 025).
     */
    async findWithAccount(id: string): Promise<(AccountWithPlan & SessionFacts) | undefined> {
      return db
        .selectFrom('sessions')
        .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
        .innerJoin('plans', 'plans.id', 'accounts.plan_id')
        .leftJoin('memberships', (join) => join.onRef('memberships.account_id', '=', 'sessions.account_id').onRef('memberships.person_id', '=', 'sessions.person_id'))
        .leftJoin('people', 'people.id', 'sessions.person_id')
        .leftJoin('sso_workspaces', 'sso_workspaces.account_id', 'sessions.account_id')
        .selectAll('accounts')
        .select(['plans.code as plan_code', 'plans.apirate as plan_apirate', 'plans.limits as plan_limits'])
        .select(['sessions.expires_at as session_expires_at', 'sessions.last_seen_at as session_last_seen_at', 'sessions.person_id as session_person_id', 'memberships.role as session_role'])
        .select(['sessions.awaiting_code as session_awaiting_code', 'people.totp_secret as person_totp_secret'])
        .select(['sessions.signed_in_with as session_signed_in_with', 'sso_workspaces.require_sso as workspace_requires_sso'])
        .where('sessions.id', '=', id)
        .executeTakeFirst()
    },

    /** How and when the session was opened. */
    async findSignIn(id: string): Promise<{ signed_in_with: string; created_at: string } | undefined> {
      return db.selectFrom('sessions').select(['signed_in_with', 'created_at']).where('id', '=', id).executeTakeFirst()
    },

    async touch(id: string, lastSeenAt: string): Promise<void> {
      await db.updateTable('sessions').set({ last_seen_at: lastSeenAt }).where('id', '=', id).execute()
    },

    /** Moves the session to another of its person's workspaces. */
    async setWorkspace(id: string, accountId: number): Promise<void> {
      await db.updateTable('sessions').set({ account_id: accountId }).where('id', '=', id).execute()
    },

    /** Live sessions, most recently used first. */
    async listLive(personId: number, now: string): Promise<SessionRow[]> {
      return db
        .selectFrom('sessions')
        .selectAll()
        .where('person_id', '=', personId)
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .orderBy('created_at', 'desc')
        .execute()
    },

    async delete(personId: number, id: string): Promise<boolean> {
      const result = await db.deleteFrom('sessions').where('person_id', '=', personId).where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    /** Ends every session of the person but `keepId` (the one that changed how they sign in); answers how many ended. */
    async deleteOthers(personId: number, keepId: string): Promise<number> {
      const result = await db.deleteFrom('sessions').where('person_id', '=', personId).where('id', '!=', keepId).executeTakeFirst()
      return Number(result.numDeletedRows)
    },

    /** Ends every session of the person (`signedInWith`: only those opened that way); answers how many ended. */
    async deleteOfPerson(personId: number, signedInWith?: SignedInWith): Promise<number> {
      let query = db.deleteFrom('sessions').where('person_id', '=', personId)
      if (signedInWith !== undefined) query = query.where('signed_in_with', '=', signedInWith)
      const result = await query.executeTakeFirst()
      return Number(result.numDeletedRows)
    },

    /** Expired sessions are only dead weight; each sign-in sweeps its person's. */
    async deleteExpired(personId: number, now: string): Promise<void> {
      await db.deleteFrom('sessions').where('person_id', '=', personId).where('expires_at', '<=', now).execute()
    },
  }
}

export type SessionRepository = ReturnType<typeof createSessionRepository>
