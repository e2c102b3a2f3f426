// New short links in two steps: checked (every field as `POST /api/url/add` checks it, without
// writing), then inserted with their aliases in the caller's journaled transaction, answering the
// journal's `link.created` changes. The link service creates one link this way, the batch writer
// (link-batch.ts: bulk creation, imports) many, deciding every alias between the two steps.
import type { Change } from '../changes/change-journal.js'
import type { TagService } from '../tags/tag.service.js'
import type { LinkChanges } from './link-changes.js'
import { MAIN_DOMAIN, NEW_LINK_DEFAULTS, readLinkFields, type LinkFieldLookups } from './link-fields.js'
import type { LinkRepository, LinkValues } from './link.repository.js'
import type { LinkCreateInput } from './link.schemas.js'
import { parseStoredOptions, serialiseOptions } from './link-options.js'
import type { Bindable } from '../../db/transactions.js'
import type { DB } from '../../db/database.js'

/** A new link checked and ready to insert, but for its alias. */
export interface NewLink {
  values: Omit<LinkValues, 'alias'>
  /** Where it is served: '' for the main domain. */
  host: string
  origin: string | null
  pixelIds: number[]
  channelId: number | undefined
  /** The request fields given (the audit row's). */
  fields: string[]
  /** Its tags' names, checked (undefined: none given). */
  tagNames: string[] | undefined
}

/** A checked link with the alias decided for it, and the source's creation date (imports; now when left out). */
export interface NewLinkWrite {
  link: NewLink
  alias: string
  createdAt?: string
}

export interface LinkCreationOptions {
  links: Bindable<LinkRepository>
  tags: Pick<TagService, 'checkTags' | 'setItemTags'>
  changes: Pick<LinkChanges, 'changesOf'>
  /** The records a link's fields name, each asked of its own module (link-fields.ts). */
  lookups: LinkFieldLookups
  /** Whether the workspace's new links track conversions when their body does not say (ADR 034; accounts module). */
  workspaceDefaults: { tracksConversionsByDefault(accountId: number): Promise<boolean> }
}

export function createLinkCreation({ links, tags, changes, lookups, workspaceDefaults }: LinkCreationOptions) {
  return {
    /** Checks a new link's fields and the records it names (404 for what the account does not have); writes nothing. */
    async checkNewLink(accountId: number, input: LinkCreateInput): Promise<NewLink> {
      const { values, placement = MAIN_DOMAIN, pixelIds = [], channelId, tagNames, fields } = await readLinkFields(lookups, accountId, input)
      // A body that leaves `trackconversions` out gets the workspace's default, stored with the link.
      if (input.trackconversions === undefined && (await workspaceDefaults.tracksConversionsByDefault(accountId))) {
        values.options = serialiseOptions({ ...parseStoredOptions(values.options ?? NEW_LINK_DEFAULTS.options), trackConversions: true })
      }
      return {
        values: { ...NEW_LINK_DEFAULTS, ...values, domainId: placement.domainId, host: placement.host },
        host: placement.host,
        origin: placement.origin,
        pixelIds,
        channelId,
        fields,
        tagNames,
      }
    },

    /**
     * Inserts checked links with their aliases in `trx`; answers their ids in order and the
     * journal's changes (each link's tags made first, then the links). Throws the driver's unique
     * violation when another writer holds one of the aliases.
     */
    async insertNewLinks(trx: DB, accountId: number, writes: readonly NewLinkWrite[]): Promise<{ ids: number[]; changes: Change[] }> {
      const saved = links.in(trx)
      const tagChanges: Change[] = []
      // Runs of links with nothing beside the row (no pixels, channel or tags) go in multi-row
      // statements, the others one by one: ids keep the rows' order either way.
      const plain = (link: NewLink) => link.pixelIds.length === 0 && link.channelId === undefined && link.tagNames === undefined
      const ids: number[] = []
      let run: Array<{ values: LinkValues; createdAt?: string }> = []
      const flush = async () => {
        ids.push(...(await saved.insertMany(accountId, run)))
        run = []
      }
      for (const { link, alias, createdAt } of writes) {
        if (plain(link)) {
          run.push({ values: { ...link.values, alias }, createdAt })
          continue
        }
        await flush()
        const id = await saved.insert(accountId, { ...link.values, alias }, link.pixelIds, link.channelId, createdAt)
        ids.push(id)
        if (link.tagNames !== undefined) tagChanges.push(...(await tags.setItemTags(trx, accountId, 'link', id, link.tagNames)))
      }
      await flush()
      const created = await changes.changesOf(trx, accountId, 'link.created', writes.map(({ link }, index) => ({ id: ids[index]!, fields: link.fields })))
      return { ids, changes: [...tagChanges, ...created] }
    },
  }
}

export type LinkCreation = ReturnType<typeof createLinkCreation>
