// What an administrator may do to accounts: the account service's operations, plus the rules that
// keep an administrator from locking themself out.
import type { AccountService, CreatedAccount } from '../accounts/account.service.js'
import type { Actor } from '../changes/change-journal.js'
import type { UserCreateInput } from './admin.schemas.js'
import type { PlanService } from '../plans/plan.service.js'
import { ACCOUNT_TOPIC, type Announcer } from '../../core/invalidation.js'
import { ValidationError, orNotFound } from '../../core/errors.js'
import type { Page, PageRequest } from '../../core/paging.js'
import type { PeopleRepository, PersonWithWorkspaces } from '../accounts/people.repository.js'
import { toStoredTimestamp } from '../../core/time.js'

export interface UserAdministrationOptions {
  accounts: AccountService
  plans: PlanService
  /** Every change is announced on the account topic: keys of the account must stop or change behaviour at once. */
  invalidation: Announcer
  people: PeopleRepository
}

export function createUserAdministration({ accounts, plans, invalidation, people }: UserAdministrationOptions) {
  const getUserOrThrow = orNotFound(accounts.findAccount, 'User')

  function refuseSelf(adminId: number, userId: number, action: string): void {
    if (adminId === userId) throw new ValidationError(`You cannot ${action} your own account.`)
  }

  return {
    getUserOrThrow,

    listUsers(page: PageRequest) {
      return accounts.listAccounts(page)
    },

    /** One page of the people who sign in, each with the workspaces they belong to and their role there. */
    async listPeople(page: PageRequest): Promise<Page<PersonWithWorkspaces>> {
      const { rows, total } = await people.listPage(page)
      const memberships = await people.listWorkspacesOf(rows.map((person) => person.id))
      return {
        total,
        rows: rows.map((person) => ({ ...person, workspaces: memberships.filter((membership) => membership.person_id === person.id) })),
      }
    },

    /** Creates the account with its first key (answered once). */
    async createUser(admin: Actor, input: UserCreateInput): Promise<CreatedAccount> {
      let planExpires: string | null = null
      if (input.expiration !== undefined) {
        planExpires = toStoredTimestamp(input.expiration) ?? null
        if (planExpires === null) throw ValidationError.field('expiration', 'is not a real calendar date-time')
      }
      return accounts.createAccount({
        email: input.email,
        username: input.username,
        password: input.password,
        plan: input.planid,
        planExpires,
        isAdmin: input.admin ?? false,
      }, undefined, admin)
    },

    async deleteUser(admin: Actor, userId: number): Promise<void> {
      refuseSelf(admin.id, userId, 'delete')
      await getUserOrThrow(userId)
      await accounts.deleteAccount(admin, userId)
      invalidation.publish(ACCOUNT_TOPIC, String(userId))
    },

    async setSuspended(admin: Actor, userId: number, suspended: boolean): Promise<void> {
      if (suspended) refuseSelf(admin.id, userId, 'suspend')
      await getUserOrThrow(userId)
      await accounts.setSuspended(admin, userId, suspended)
      invalidation.publish(ACCOUNT_TOPIC, String(userId))
    },

    async assignPlan(admin: Actor, planId: number, userId: number): Promise<void> {
      await plans.getPlanOrThrow(planId)
      await getUserOrThrow(userId)
      await accounts.assignPlan(admin, userId, planId)
      invalidation.publish(ACCOUNT_TOPIC, String(userId))
    },
  }
}

export type UserAdministration = ReturnType<typeof createUserAdministration>
