// SQL for what visitors send through contact overlays (decisions §6: CTA overlays of type
// `contact`); stored for the link's owner.
import { nowTimestamp } from '../../core/time.js'
import type { DB } from '../../db/database.js'
import { fetchPage } from '../../db/paging.js'
import type { PageRequest } from '../../core/paging.js'

export interface NewContact {
  accountId: number
  overlayId: number | null
  linkId: number
  name: string
  email: string
  message: string
}

export function createContactRepository(db: DB) {
  return {
    /** One page of an overlay's contacts, newest first. */
    async listPage(accountId: number, overlayId: number, page: PageRequest) {
      return fetchPage(
        db.selectFrom('contacts').where('account_id', '=', accountId).where('overlay_id', '=', overlayId),
        page,
        (q) => q.selectAll().orderBy('id', 'desc'),
      )
    },

    /** Stores a contact-overlay submission for the link's owner; answers the stored row. */
    insert(contact: NewContact) {
      return db
        .insertInto('contacts')
        .values({
          account_id: contact.accountId,
          overlay_id: contact.overlayId,
          link_id: contact.linkId,
          name: contact.name,
          email: contact.email,
          message: contact.message,
          created_at: nowTimestamp(),
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    },
  }
}

export type ContactRepository = ReturnType<typeof createContactRepository>
