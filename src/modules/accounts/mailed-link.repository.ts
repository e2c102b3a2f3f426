// SQL for links mailed to a person (migration 034): password resets, sign-up and e-mail change
// confirmations. Found by their token's hash; used once, by one conditional update.
import type { DB } from '../../db/database.js'
import type { MailedLinkRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'

export type MailedLinkPurpose = 'password_reset' | 'signup' | 'email_change'

export interface NewMailedLink {
  purpose: MailedLinkPurpose
  tokenHash: string
  personId: number | null
  email: string
  username?: string | null
  passwordHash?: string | null
  expiresAt: string
}

export function createMailedLinkRepository(db: DB) {
  return {
    async insert(link: NewMailedLink, createdAt = nowTimestamp()): Promise<number> {
      const row = await db
        .insertInto('mailed_links')
        .values({
          purpose: link.purpose,
          token_hash: link.tokenHash,
          person_id: link.personId,
          email: link.email,
          username: link.username ?? null,
          password_hash: link.passwordHash ?? null,
          created_at: createdAt,
          expires_at: link.expiresAt,
          used_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    },

    /** The link of `purpose` whose token hashes to `tokenHash`, used or not, expired or not. */
    async findByTokenHash(purpose: MailedLinkPurpose, tokenHash: string): Promise<MailedLinkRow | undefined> {
      return db.selectFrom('mailed_links').selectAll().where('purpose', '=', purpose).where('token_hash', '=', tokenHash).executeTakeFirst()
    },

    /** Uses the link up: false when it was used already or has expired (two uses racing: one wins). */
    async consume(id: number, at: string): Promise<boolean> {
      const result = await db.updateTable('mailed_links').set({ used_at: at }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', at).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    /** The person's links of `purpose` not used yet stop working (a newer one was sent, or the password changed). */
    async retireOpen(personId: number, purpose: MailedLinkPurpose, at: string): Promise<void> {
      await db.updateTable('mailed_links').set({ used_at: at }).where('person_id', '=', personId).where('purpose', '=', purpose).where('used_at', 'is', null).execute()
    },

    /** Links expired a day ago or more are dead weight; each new link sweeps them. */
    async deleteExpiredBefore(before: string): Promise<void> {
      await db.deleteFrom('mailed_links').where('expires_at', '<=', before).execute()
    },

    /** Moves a link's expiry (tests: a link that has run out, without waiting for it). */
    async setExpiry(id: number, expiresAt: string): Promise<void> {
      await db.updateTable('mailed_links').set({ expires_at: expiresAt }).where('id', '=', id).execute()
    },
  }
}

export type MailedLinkRepository = ReturnType<typeof createMailedLinkRepository>
