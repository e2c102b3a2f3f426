// The people of a workspace and their roles (issue 20): who is a member, adding one, changing a
// role, removing one. A workspace always keeps an owner; only an owner grants or takes the owner
// role; a removed person's keys in the workspace go with them, and every change of a role or a
// membership is announced (ACCOUNT_TOPIC) so that every instance's cached key lookups, which carry
// the maker's role, are dropped at once.
import type { Bindable } from '../../db/transactions.js'
import type { Actor, ChangeJournal } from '../changes/change-journal.js'
import type { PeopleRepository } from '../accounts/people.repository.js'
import type { PersonRow } from '../../db/schema.js'
import { roleAllows, roleOf, type Role } from '../access/roles.js'
import { ACCOUNT_TOPIC, type Announcer } from '../../core/invalidation.js'
import { ConflictError, DuplicateError, ForbiddenError, NotFoundError } from '../../core/errors.js'

/** Who changes the members: a request's person in their role, or (no role given) the command line, which may do anything. */
export type MemberActor = Actor & { role?: Role | null }

function actingRole(actor: MemberActor): Role | null {
  return actor.role === undefined ? 'owner' : actor.role
}

/** Only an owner hands out or takes away the owner role. */
function refuseOwnerChangeBy(actor: MemberActor, ...roles: Array<Role | null>): void {
  if (roles.includes('owner') && !roleAllows(actingRole(actor), 'owner')) {
    throw new ForbiddenError('Only an owner can make or change an owner.')
  }
}

/** A member as webhooks report them (member.added, member.updated, member.removed): as `GET /api/members` shows them. */
export function memberRecordOf(person: Pick<PersonRow, 'id' | 'username' | 'email'>, role: Role) {
  return { id: person.id, username: person.username, email: person.email, role }
}

export interface MemberServiceOptions {
  /** People and their memberships of workspaces. */
  people: Bindable<PeopleRepository>
  journal: ChangeJournal
  /** Told each workspace whose members or roles changed (cached key look-ups carry the role). */
  invalidation: Announcer
}

export function createMemberService({ people, journal, invalidation }: MemberServiceOptions) {
  async function membershipOrThrow(accountId: number, personId: number) {
    const membership = await people.findMembership(accountId, personId)
    if (!membership) throw NotFoundError.of('Member')
    return membership
  }

  /** Inside the turn (`lockMembers`): the member is there, and is not the workspace's only owner. */
  async function refuseLastOwner(saved: PeopleRepository, accountId: number, personId: number): Promise<void> {
    const membership = await saved.findMembership(accountId, personId)
    if (!membership) throw NotFoundError.of('Member')
    if (membership.role === 'owner' && (await saved.countOwners(accountId)) <= 1) throw ConflictError.lastOwner()
  }

  return {
    /** The workspace's members with their people, oldest first. */
    async listMembers(accountId: number) {
      const memberships = await people.listMembers(accountId)
      const persons = await Promise.all(memberships.map((membership) => people.findById(membership.person_id)))
      return memberships.flatMap((membership, index) => {
        const person = persons[index]
        return person ? [{ person, role: roleOf(membership.role), joined: membership.created_at }] : []
      })
    },

    /** Adds a person to the actor's workspace in `role`. */
    async addMember(actor: MemberActor, personId: number, role: Role): Promise<void> {
      refuseOwnerChangeBy(actor, role)
      const person = await people.findById(personId)
      if (!person) throw NotFoundError.of('Person')
      if (await people.findMembership(actor.id, personId)) throw new DuplicateError('This person is already a member of the workspace.')
      await journal.write(actor, async (trx) => {
        await people.in(trx).addMembership(actor.id, personId, role)
        return { result: undefined, changes: [{ action: 'member.added', resource: 'member', resourceId: personId, fields: ['role'], record: memberRecordOf(person, role) }] }
      })
      invalidation.publish(ACCOUNT_TOPIC, String(actor.id))
    },

    /** Changes a member's role; the last owner keeps theirs. Their keys follow at once. */
    async changeRole(actor: MemberActor, personId: number, role: Role): Promise<void> {
      const current = roleOf((await membershipOrThrow(actor.id, personId)).role)
      refuseOwnerChangeBy(actor, current, role)
      if (current === role) return
      await journal.write(actor, async (trx) => {
        const saved = people.in(trx)
        // Two owners demoting each other at once must not both succeed: the workspace's member
        // changes take turns, and the owners are counted inside the turn.
        await saved.lockMembers(actor.id)
        await refuseLastOwner(saved, actor.id, personId)
        await saved.updateRole(actor.id, personId, role)
        const person = await saved.findById(personId)
        return { result: undefined, changes: [{ action: 'member.role_changed', resource: 'member', resourceId: personId, fields: ['role'], record: person && memberRecordOf(person, role) }] }
      })
      invalidation.publish(ACCOUNT_TOPIC, String(actor.id))
    },

    /** Removes a member (or lets one leave) with the keys they made here; the last owner stays. */
    async removeMember(actor: MemberActor, personId: number): Promise<void> {
      const current = roleOf((await membershipOrThrow(actor.id, personId)).role)
      // Leaving is anyone's right; removing an owner is an owner's.
      if (personId !== actor.personId) refuseOwnerChangeBy(actor, current)
      await journal.write(actor, async (trx) => {
        const saved = people.in(trx)
        await saved.lockMembers(actor.id)
        await refuseLastOwner(saved, actor.id, personId)
        // As the member was, for the event.
        const person = await saved.findById(personId)
        if (!(await saved.deleteMembership(actor.id, personId))) throw NotFoundError.of('Member')
        return { result: undefined, changes: [{ action: 'member.removed', resource: 'member', resourceId: personId, fields: [], record: person && memberRecordOf(person, current ?? 'viewer') }] }
      })
      invalidation.publish(ACCOUNT_TOPIC, String(actor.id))
    },
  }
}

export type MemberService = ReturnType<typeof createMemberService>
