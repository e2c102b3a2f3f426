// What a write of short links tells others: the change journal's entries (ADR 015), each with the
// link as the API's single read shows it (link.mapper.ts toLinkDetails: the one record, read in the
// write's transaction), and every instance's alias cache (the addresses whose answer changed).
import { aliasKey } from '../aliases/alias-namespace.js'
import type { Change } from '../changes/change-journal.js'
import type { TagService } from '../tags/tag.service.js'
import { toLinkDetails } from './link.mapper.js'
import type { LinkRepository } from './link.repository.js'
import { ALIAS_TOPIC, type InvalidationBus } from '../../core/invalidation.js'
import { NotFoundError } from '../../core/errors.js'
import type { Bindable } from '../../db/transactions.js'
import type { DB } from '../../db/database.js'

/** The journal's actions on a link. */
export type LinkAction = 'link.created' | 'link.updated' | 'link.winner_chosen' | 'link.deleted'

export interface LinkChangesOptions {
  links: Bindable<LinkRepository>
  /** Links' tags, in their records. */
  tags: Pick<TagService, 'namesOf'>
  /** The base of short URLs, in the records. */
  publicUrl: string
  invalidation: InvalidationBus
}

export function createLinkChanges({ links, tags, publicUrl, invalidation }: LinkChangesOptions) {
  /**
   * The changes `action` made to these links of the account, in the order given, each with its
   * record read on `executor` (a few queries for all of them, not three per link).
   */
  async function changesOf(executor: DB, accountId: number, action: LinkAction, items: ReadonlyArray<{ id: number; fields: readonly string[] }>): Promise<Change[]> {
    const saved = links.in(executor)
    const ids = items.map(({ id }) => id)
    const rows = new Map((await saved.findByIds(accountId, ids)).map((row) => [row.id, row]))
    const pixelsOf = await saved.pixelIdsOf(ids)
    const tagsOf = await tags.namesOf('link', ids, executor)
    return items.map(({ id, fields }) => {
      const link = rows.get(id)
      if (!link) throw NotFoundError.of('Link')
      return { action, resource: 'link', resourceId: id, fields, record: toLinkDetails(link, pixelsOf.get(id) ?? [], publicUrl, tagsOf.get(id) ?? []) }
    })
  }

  return {
    changesOf,

    /** The change `action` made to the account's link `id`, with its record read on `executor` (not found: 404). */
    async changeOf(executor: DB, accountId: number, action: LinkAction, id: number, fields: readonly string[]): Promise<Change> {
      const [change] = await changesOf(executor, accountId, action, [{ id, fields }])
      return change!
    },

    /** Tells every instance's alias cache that what these addresses serve changed (after the write committed). */
    announce(...addresses: { host: string; alias: string }[]): void {
      for (const key of new Set(addresses.map(({ host, alias }) => aliasKey(host, alias)))) invalidation.publish(ALIAS_TOPIC, key)
    },
  }
}

export type LinkChanges = ReturnType<typeof createLinkChanges>
