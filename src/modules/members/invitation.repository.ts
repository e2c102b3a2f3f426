// SQL for invitations to a workspace: pending ones by account, one by its link's token hash.
import type { DB } from '../../db/database.js'
import type { InvitationRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { Role } from '../access/roles.js'

export interface NewInvitation {
  email: string
  role: Role
  tokenHash: string
  invitedBy: number | null
  expiresAt: string
}

export function createInvitationRepository(db: DB) {
  return {
    async insert(accountId: number, invitation: NewInvitation): Promise<number> {
      const row = await db
        .insertInto('invitations')
        .values({ account_id: accountId, email: invitation.email, role: invitation.role, token_hash: invitation.tokenHash, invited_by: invitation.invitedBy, created_at: nowTimestamp(), expires_at: invitation.expiresAt })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    },

    /** Invitations not yet accepted nor expired, oldest first. */
    async listPending(accountId: number, now: string): Promise<InvitationRow[]> {
      return db.selectFrom('invitations').selectAll().where('account_id', '=', accountId).where('expires_at', '>', now).orderBy('id').execute()
    },

    async findByTokenHash(tokenHash: string): Promise<InvitationRow | undefined> {
      return db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
    },

    /** Withdraws one; another account's is not found. */
    async delete(accountId: number, id: number): Promise<boolean> {
      const result = await db.deleteFrom('invitations').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    /** Uses the invitation up: false when another acceptance did first (single use). */
    async consume(id: number): Promise<boolean> {
      const result = await db.deleteFrom('invitations').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    /** Expired invitations are dead weight; each new one sweeps its account's. */
    async deleteExpired(accountId: number, now: string): Promise<void> {
      await db.deleteFrom('invitations').where('account_id', '=', accountId).where('expires_at', '<=', now).execute()
    },
  }
}

export type InvitationRepository = ReturnType<typeof createInvitationRepository>
