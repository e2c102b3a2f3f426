// SQL for a person's second factor (migration 020c): the TOTP secret, the step of the last code
// accepted, recovery codes (digests), and a workspace's requirement. Every method takes the
// person's (or the workspace's) id; what must happen once (a code's step, a recovery code) is one
// conditional update, so two requests racing with the same code cannot both succeed.
import type { DB } from '../../db/database.js'
import { inTransaction } from '../../db/transactions.js'

export function createTwoFactorRepository(db: DB) {
  return {
    /** Every person's stored TOTP secrets, confirmed and pending (`linkwell secrets seal`, ADR 025). */
    listStoredSecrets(): Promise<Array<{ id: number; totp_secret: string | null; totp_pending_secret: string | null }>> {
      return db.selectFrom('people').select(['id', 'totp_secret', 'totp_pending_secret'])
        .where((eb) => eb.or([eb('totp_secret', 'is not', null), eb('totp_pending_secret', 'is not', null)])).execute()
    },

    /** Stores `to` in place of the person's secret `from` while it still is `from` (one changed meanwhile is left); true when it was. */
    async replaceStoredSecret(personId: number, column: 'totp_secret' | 'totp_pending_secret', from: string, to: string): Promise<boolean> {
      const result = await db.updateTable('people').set({ [column]: to }).where('id', '=', personId).where(column, '=', from).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    /** Starts (or restarts) an enrolment: the secret waits for a code before it counts. */
    async setPendingSecret(personId: number, secret: string): Promise<void> {
      await db.updateTable('people').set({ totp_pending_secret: secret }).where('id', '=', personId).execute()
    },

    /** Makes `secret` the person's second factor with fresh recovery codes (their digests), the code of `step` used. */
    async enable(personId: number, secret: string, step: number, at: string, codeHashes: readonly string[]): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx.updateTable('people').set({ totp_secret: secret, totp_pending_secret: null, totp_enabled_at: at, totp_last_step: step }).where('id', '=', personId).execute()
        await trx.deleteFrom('recovery_codes').where('person_id', '=', personId).execute()
        await trx.insertInto('recovery_codes').values(codeHashes.map((hash) => ({ person_id: personId, code_hash: hash, used_at: null }))).execute()
      })
    },

    async disable(personId: number): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx.updateTable('people').set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null }).where('id', '=', personId).execute()
        await trx.deleteFrom('recovery_codes').where('person_id', '=', personId).execute()
      })
    },

    /**
     * Records `step` as the person's last accepted code when it is later than the last one; false
     * when it is not (a replayed code, or one of an earlier step than a code already used).
     */
    async claimStep(personId: number, step: number): Promise<boolean> {
      const result = await db
        .updateTable('people')
        .set({ totp_last_step: step })
        .where('id', '=', personId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    /** Marks an unused recovery code of the person used; false when there is none with that digest. */
    async useRecoveryCode(personId: number, codeHash: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('recovery_codes')
        .set({ used_at: at })
        .where('person_id', '=', personId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    async countUnusedRecoveryCodes(personId: number): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('person_id', '=', personId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },

    /** Whether the workspace requires a second factor of every member. */
    async isRequired(accountId: number): Promise<boolean> {
      const row = await db.selectFrom('accounts').select('require_two_factor').where('id', '=', accountId).executeTakeFirst()
      return row?.require_two_factor === 1
    },

    async setRequired(accountId: number, required: boolean): Promise<void> {
      await db.updateTable('accounts').set({ require_two_factor: required ? 1 : 0 }).where('id', '=', accountId).execute()
    },
  }
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>
