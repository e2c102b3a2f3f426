// Who may create a workspace (issue 36, ADR 029). Each workspace is a fresh plan quota and
// rate-limit bucket that publishes short links on the main domain, so by default only the
// instance's administrators (owners of a workspace that holds the administration) create them;
// WORKSPACE_CREATION=anyone lets every signed-in person own up to WORKSPACE_CREATION_LIMIT.
import type { Config } from '../../config.js'
import { ForbiddenError } from '../../core/errors.js'
import type { Actor } from '../changes/change-journal.js'
import type { AccountService } from './account.service.js'
import type { PeopleRepository } from './people.repository.js'

/** Whether the person may create a workspace now, and if not, why (the 403's message). */
export type WorkspaceCreationVerdict = { allowed: true } | { allowed: false; reason: string }

// An API key made by no person (the bootstrap key) has nobody to own the workspace.
const NO_PERSON_REASON = 'Workspaces are created by a person signed in, not by a key without one.'

export interface WorkspaceCreationServiceOptions {
  people: Pick<PeopleRepository, 'listOwnedWorkspaces'>
  accounts: Pick<AccountService, 'createWorkspace'>
  /** WORKSPACE_CREATION and WORKSPACE_CREATION_LIMIT. */
  policy: Config['workspaceCreation']
}

export function createWorkspaceCreationService({ people, accounts, policy }: WorkspaceCreationServiceOptions) {
  async function verdictFor(personId: number | null): Promise<WorkspaceCreationVerdict> {
    if (personId === null) return { allowed: false, reason: NO_PERSON_REASON }
    const owned = await people.listOwnedWorkspaces(personId)
    if (owned.some((workspace) => workspace.is_admin === 1)) return { allowed: true }
    if (policy.who === 'admins') return { allowed: false, reason: 'Only the instance\'s administrators can create workspaces on this server.' }
    if (owned.length >= policy.limit) {
      return { allowed: false, reason: `You already own ${owned.length} workspaces, the most this server allows (${policy.limit}): delete one first, or ask an administrator.` }
    }
    return { allowed: true }
  }

  return {
    verdictFor,

    /** Creates a workspace the person owns, when the policy lets them; otherwise ForbiddenError with the reason. */
    async create(actor: Actor, name: string): Promise<{ id: number; name: string }> {
      const personId = actor.personId
      if (personId === null) throw new ForbiddenError(NO_PERSON_REASON)
      const verdict = await verdictFor(personId)
      if (!verdict.allowed) throw new ForbiddenError(verdict.reason)
      return accounts.createWorkspace(actor, personId, name)
    },
  }
}

export type WorkspaceCreationService = ReturnType<typeof createWorkspaceCreationService>
