// SQL for people (who sign in) and their memberships (one person's role in one workspace, the
// spec's account). Membership methods take the account id, like every account-scoped repository.
import { inTransaction } from '../../db/transactions.js'
import type { ExpressionBuilder } from 'kysely'
import type { DB } from '../../db/database.js'
import type { Database, MembershipRow, PersonRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { Page, PageRequest } from '../../core/paging.js'
import type { Role } from '../access/roles.js'

/** A workspace a person belongs to, with what signing in to it needs to know. */
export interface PersonWorkspace {
  account_id: number
  /** The account's username: the workspace's name. */
  username: string
  role: string
  is_suspended: number
  /** 1 when the workspace requires single sign-on (ADR 033); null or 0 when not. */
  require_sso: number | null
}

/** A person with every workspace they belong to (the administration's listing). */
export type PersonWithWorkspaces = PersonRow & { workspaces: PersonWorkspace[] }

export function createPeopleRepository(db: DB) {
  return {
    async findById(id: number): Promise<PersonRow | undefined> {
      return db.selectFrom('people').selectAll().where('id', '=', id).executeTakeFirst()
    },

    async findByEmail(email: string): Promise<PersonRow | undefined> {
      return db.selectFrom('people').selectAll().where('email', '=', email).executeTakeFirst()
    },

    async findByUsername(username: string): Promise<PersonRow | undefined> {
      return db.selectFrom('people').selectAll().where('username', '=', username).executeTakeFirst()
    },

    async insert(person: { username: string; email: string; passwordHash: string | null }): Promise<number> {
      const row = await db
        .insertInto('people')
        .values({ username: person.username, email: person.email, password_hash: person.passwordHash, created_at: nowTimestamp(), last_sign_in_at: null })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    },

    async updateEmail(id: number, email: string): Promise<void> {
      await db.updateTable('people').set({ email }).where('id', '=', id).execute()
    },

    /**
     * Sets the password and signs out every session of the person but `keepSessionId` (the one
     * changing it), in one transaction: whoever knew the old password must not stay signed in.
     * Returns how many sessions ended.
     */
    async updatePassword(id: number, passwordHash: string, keepSessionId?: string): Promise<number> {
      return inTransaction(db, async (trx) => {
        await trx.updateTable('people').set({ password_hash: passwordHash }).where('id', '=', id).execute()
        let sessions = trx.deleteFrom('sessions').where('person_id', '=', id)
        if (keepSessionId !== undefined) sessions = sessions.where('id', '!=', keepSessionId)
        const result = await sessions.executeTakeFirst()
        return Number(result.numDeletedRows)
      })
    },

    async touchSignIn(id: number, at: string): Promise<void> {
      await db.updateTable('people').set({ last_sign_in_at: at }).where('id', '=', id).execute()
    },

    /** People left in no workspace (their last one deleted): nobody to sign in as any more. */
    async deleteUnattached(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return
      await db
        .deleteFrom('people')
        .where('id', 'in', ids)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('memberships').select('memberships.person_id').whereRef('memberships.person_id', '=', 'people.id'))))
        .execute()
    },

    /**
     * Moves the sessions open on `accountId` to another workspace of their person (the lowest id
     * among those not suspended); the sessions of people with no other workspace stay where they are.
     */
    async moveSessionsOff(accountId: number): Promise<void> {
      const otherWorkspace = (eb: ExpressionBuilder<Database, 'sessions'>) => eb
        .selectFrom('memberships')
        .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
        .whereRef('memberships.person_id', '=', 'sessions.person_id')
        .where('memberships.account_id', '!=', accountId)
        .where('accounts.is_suspended', '=', 0)
      await db
        .updateTable('sessions')
        .set((eb) => ({ account_id: otherWorkspace(eb).select((inner) => inner.fn.min<number>('memberships.account_id').as('next')).$asScalar().$notNull() }))
        .where('account_id', '=', accountId)
        .where((eb) => eb.exists(otherWorkspace(eb).select('memberships.account_id')))
        .execute()
    },

    async addMembership(accountId: number, personId: number, role: Role): Promise<void> {
      await db.insertInto('memberships').values({ account_id: accountId, person_id: personId, role, created_at: nowTimestamp() }).execute()
    },

    async findMembership(accountId: number, personId: number): Promise<MembershipRow | undefined> {
      return db.selectFrom('memberships').selectAll().where('account_id', '=', accountId).where('person_id', '=', personId).executeTakeFirst()
    },

    /** The account's members, oldest first. */
    async listMembers(accountId: number): Promise<MembershipRow[]> {
      return db.selectFrom('memberships').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('person_id').execute()
    },

    /** The person's workspaces, the one they joined first first. */
    async listWorkspaces(personId: number): Promise<PersonWorkspace[]> {
      return db
        .selectFrom('memberships')
        .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
        .leftJoin('sso_workspaces', 'sso_workspaces.account_id', 'memberships.account_id')
        .select(['memberships.account_id', 'accounts.username', 'memberships.role', 'accounts.is_suspended', 'sso_workspaces.require_sso'])
        .where('memberships.person_id', '=', personId)
        .orderBy('memberships.created_at')
        .orderBy('memberships.account_id')
        .execute()
    },

    /** The workspaces the person owns, each with whether it holds the instance's administration. */
    async listOwnedWorkspaces(personId: number): Promise<Array<{ account_id: number; is_admin: number }>> {
      return db
        .selectFrom('memberships')
        .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
        .select(['memberships.account_id', 'accounts.is_admin'])
        .where('memberships.person_id', '=', personId)
        .where('memberships.role', '=', 'owner')
        .execute()
    },

    /** One page of every person of the instance, oldest first, and how many there are (the administration's listing). */
    async listPage(page: PageRequest): Promise<Page<PersonRow>> {
      const [rows, count] = await Promise.all([
        db.selectFrom('people').selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute(),
        db.selectFrom('people').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
      ])
      return { rows, total: Number(count.count) }
    },

    /** The workspaces of these people with their roles, each person's joined first first. */
    async listWorkspacesOf(personIds: readonly number[]): Promise<Array<PersonWorkspace & { person_id: number }>> {
      if (personIds.length === 0) return []
      return db
        .selectFrom('memberships')
        .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
        .leftJoin('sso_workspaces', 'sso_workspaces.account_id', 'memberships.account_id')
        .select(['memberships.person_id', 'memberships.account_id', 'accounts.username', 'memberships.role', 'accounts.is_suspended', 'sso_workspaces.require_sso'])
        .where('memberships.person_id', 'in', [...personIds])
        .orderBy('memberships.created_at')
        .orderBy('memberships.account_id')
        .execute()
    },

    /** The account's first owner: who acts for it when the command line does, and whose password `account password` sets. */
    async findFirstOwnerId(accountId: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('memberships')
        .select('person_id')
        .where('account_id', '=', accountId)
        .where('role', '=', 'owner')
        .orderBy('created_at')
        .orderBy('person_id')
        .executeTakeFirst()
      return row?.person_id
    },

    /**
     * Makes the account's membership changes in concurrent transactions take turns (a write to
     * the account's row: PostgreSQL's row lock, SQLite's single writer), so that the owners counted
     * next are still the owners when the change commits.
     */
    async lockMembers(accountId: number): Promise<void> {
      await db.updateTable('accounts').set((eb) => ({ id: eb.ref('id') })).where('id', '=', accountId).execute()
    },

    async countOwners(accountId: number): Promise<number> {
      const row = await db
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('account_id', '=', accountId)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },

    async updateRole(accountId: number, personId: number, role: Role): Promise<boolean> {
      const result = await db.updateTable('memberships').set({ role }).where('account_id', '=', accountId).where('person_id', '=', personId).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    /** Ends the membership and the keys the person made in the account (they acted as that person). */
    async deleteMembership(accountId: number, personId: number): Promise<boolean> {
      await db.deleteFrom('api_keys').where('account_id', '=', accountId).where('person_id', '=', personId).execute()
      const result = await db.deleteFrom('memberships').where('account_id', '=', accountId).where('person_id', '=', personId).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}

export type PeopleRepository = ReturnType<typeof createPeopleRepository>
