// Links' social cards (issue 23, ADR 023 "Social cards"): set from an upload, removed, and served
// by their public token. A card belongs to a link of the account (read through the link service
// first); setting or removing it is journaled as the link's `link.updated` with the field `card`.
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import type { ChangeJournal } from '../changes/change-journal.js'
import type { LinkCardRepository } from './link-card.repository.js'
import { cardImageUrl, newCardToken, prepareCardImage } from './link-card.js'
import type { LinkChanges } from './link-changes.js'
import type { LinkService } from './link.service.js'
import type { Bindable } from '../../db/transactions.js'
import { nowTimestamp } from '../../core/time.js'

export interface LinkCardServiceOptions {
  /** Links' social cards (migration 026). */
  cards: Bindable<LinkCardRepository>
  links: Pick<LinkService, 'getLinkOrThrow'>
  journal: ChangeJournal
  changes: Pick<LinkChanges, 'changeOf' | 'announce'>
  /** The base of the cards' public addresses. */
  publicUrl: string
}

export function createLinkCardService({ cards, links, journal, changes, publicUrl }: LinkCardServiceOptions) {
  return {
    /** The public address of the link's social card, or null (the link is the account's: read by `getLinkOrThrow` first). */
    async cardUrlOf(linkId: number): Promise<string | null> {
      const token = await cards.tokenOf(linkId)
      return token === undefined ? null : cardImageUrl(publicUrl, token)
    },

    /**
     * Sets the link's social card from an upload (PNG, JPEG or WebP, at most 1 MB), stored as a
     * 1200×630 JPEG under a new token; answers its public address. Journaled as `link.updated`.
     */
    async setCard(account: AuthenticatedAccount, id: number, upload: Buffer): Promise<string> {
      const { link } = await links.getLinkOrThrow(account.id, id)
      const image = await prepareCardImage(upload)
      const token = newCardToken()
      await journal.write(account, async (trx) => {
        await cards.in(trx).put(id, token, image, nowTimestamp())
        return { result: undefined, changes: [await changes.changeOf(trx, account.id, 'link.updated', id, ['card'])] }
      })
      // Cached copies of the link carry its card's token (what preview fetchers are shown).
      changes.announce({ host: link.host, alias: link.alias })
      return cardImageUrl(publicUrl, token)
    },

    /** Removes the link's social card (a link without one is left as it is). */
    async removeCard(account: AuthenticatedAccount, id: number): Promise<void> {
      const { link } = await links.getLinkOrThrow(account.id, id)
      await journal.write(account, async (trx) => {
        const removed = await cards.in(trx).remove(id)
        return { result: undefined, changes: removed ? [await changes.changeOf(trx, account.id, 'link.updated', id, ['card'])] : [] }
      })
      changes.announce({ host: link.host, alias: link.alias })
    },

    /** A card's image by its public token (visitors' `/card/{token}.jpg`). */
    cardImage(token: string): Promise<Buffer | undefined> {
      return cards.imageOf(token)
    },
  }
}

export type LinkCardService = ReturnType<typeof createLinkCardService>
