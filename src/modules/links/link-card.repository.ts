// SQL of links' social cards (migration 026). The link's ownership is checked by the caller (the
// card service reads the link by account first); a card is found by its link or by its token.
import type { DB } from '../../db/database.js'

export function createLinkCardRepository(db: DB) {
  return {
    /** The token of the link's card, if it has one. */
    async tokenOf(linkId: number): Promise<string | undefined> {
      const row = await db.selectFrom('link_cards').select('token').where('link_id', '=', linkId).executeTakeFirst()
      return row?.token
    },

    /** Stores the link's card, replacing the one it had. */
    async put(linkId: number, token: string, image: Buffer, createdAt: string): Promise<void> {
      await db.deleteFrom('link_cards').where('link_id', '=', linkId).execute()
      await db.insertInto('link_cards').values({ link_id: linkId, token, image, created_at: createdAt }).execute()
    },

    /** Removes the link's card; true when it had one. */
    async remove(linkId: number): Promise<boolean> {
      const result = await db.deleteFrom('link_cards').where('link_id', '=', linkId).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    /** The image stored under `token`. */
    async imageOf(token: string): Promise<Buffer | undefined> {
      const row = await db.selectFrom('link_cards').select('image').where('token', '=', token).executeTakeFirst()
      return row && Buffer.from(row.image)
    },
  }
}

export type LinkCardRepository = ReturnType<typeof createLinkCardRepository>
