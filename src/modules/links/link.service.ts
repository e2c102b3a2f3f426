// Short-link rules: where the link is served (its alias claimed through the aliases module), plan
// limits, and what each write tells others (link-changes.ts: the journal's records, every
// instance's alias cache). A link's fields are read by the one reader of creates and updates
// (link-fields.ts).
import type { AliasService } from '../aliases/alias.service.js'
import type { AuthenticatedAccount } from '../accounts/account.service.js'
import { enforcePlanLimit } from '../accounts/plan-limits.js'
import type { LinkListFilter, LinkListRow, LinkRepository, LinkValues, LinkWithDomain } from './link.repository.js'
import type { LinkCreateInput, LinkUpdateInput } from './link.schemas.js'
import { parseStoredOptions, serialiseOptions } from './link-options.js'
import type { Change, ChangeJournal } from '../changes/change-journal.js'
import type { LinkChanges } from './link-changes.js'
import { MAIN_DOMAIN, NEW_LINK_DEFAULTS, readLinkFields } from './link-fields.js'
import type { Bindable } from '../../db/transactions.js'
import type { DB } from '../../db/database.js'
import { NotFoundError, ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import type { TagService } from '../tags/tag.service.js'

/** A link as the API shows it: the row, its pixel ids and its tags' names. */
export interface LinkView<Row = LinkWithDomain> {
  link: Row
  pixelIds: number[]
  tags: string[]
}

/** A new link checked and ready to insert, but for its alias. */
export interface PreparedLink {
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

export interface LinkServiceOptions {
  /** Claims aliases in the namespace links share with bio pages. */
  aliases: AliasService
  journal: ChangeJournal
  /** Links' tags (made on first use). */
  tags: TagService
  /** The journal's records and the alias caches' news. */
  changes: LinkChanges
}

export function createLinkService(links: Bindable<LinkRepository>, options: LinkServiceOptions) {
  const { aliases, journal, tags, changes } = options

  async function getLinkOrThrow(accountId: number, id: number): Promise<LinkView> {
    const link = await links.findById(accountId, id)
    if (!link) throw NotFoundError.of('Link')
    return { link, pixelIds: (await links.pixelIdsOf([id])).get(id) ?? [], tags: await tags.namesOfOne('link', id) }
  }

  /** Everything a new link stores but its alias, checked (destination, dates, the records it names). */
  async function prepareLink(accountId: number, input: LinkCreateInput): Promise<PreparedLink> {
    const { values, placement = MAIN_DOMAIN, pixelIds = [], channelId, tagNames, fields } = await readLinkFields({ links, tags }, accountId, input)
    return {
      values: { ...NEW_LINK_DEFAULTS, ...values, domainId: placement.domainId, host: placement.host },
      host: placement.host,
      origin: placement.origin,
      pixelIds,
      channelId,
      fields,
      tagNames,
    }
  }

  /** Inserts a prepared link and its tags in `trx`; answers its id and the journal's changes (tags made first, then the link). */
  async function insertPrepared(trx: DB, accountId: number, prepared: PreparedLink, alias: string, createdAt?: string): Promise<{ id: number; changes: Change[] }> {
    const id = await links.in(trx).insert(accountId, { ...prepared.values, alias }, prepared.pixelIds, prepared.channelId, createdAt)
    const tagChanges = prepared.tagNames === undefined ? [] : await tags.setItemTags(trx, accountId, 'link', id, prepared.tagNames)
    return { id, changes: [...tagChanges, await changes.changeOf(trx, accountId, 'link.created', id, prepared.fields)] }
  }

  /**
   * Inserts prepared links with their aliases in `trx` (a batch's chunk); answers their ids in order
   * and the journal's changes (each link's tags made first, then the links), their records read
   * back together: a few queries for the chunk, not three per link.
   */
  async function insertPreparedMany(trx: DB, accountId: number, items: ReadonlyArray<{ prepared: PreparedLink; alias: string; createdAt?: string }>): Promise<{ ids: number[]; changes: Change[] }> {
    const saved = links.in(trx)
    const tagChanges: Change[] = []
    // Runs of links with nothing beside the row (no pixels, channel or tags) go in multi-row
    // statements, the others one by one: ids keep the rows' order either way.
    const plain = (prepared: PreparedLink) => prepared.pixelIds.length === 0 && prepared.channelId === undefined && prepared.tagNames === undefined
    const ids: number[] = []
    let run: Array<{ values: LinkValues; createdAt?: string }> = []
    const flush = async () => {
      ids.push(...(await saved.insertMany(accountId, run)))
      run = []
    }
    for (const { prepared, alias, createdAt } of items) {
      if (plain(prepared)) {
        run.push({ values: { ...prepared.values, alias }, createdAt })
        continue
      }
      await flush()
      const id = await saved.insert(accountId, { ...prepared.values, alias }, prepared.pixelIds, prepared.channelId, createdAt)
      ids.push(id)
      if (prepared.tagNames !== undefined) tagChanges.push(...(await tags.setItemTags(trx, accountId, 'link', id, prepared.tagNames)))
    }
    await flush()
    const created = await changes.changesOf(trx, accountId, 'link.created', items.map(({ prepared }, index) => ({ id: ids[index]!, fields: prepared.fields })))
    return { ids, changes: [...tagChanges, ...created] }
  }

  return {
    getLinkOrThrow,

    insertPreparedMany,

    /** Changes whenever anything `listLinks` answers for the account may have changed (never goes back). */
    listVersion(accountId: number): Promise<number> {
      return links.listVersion(accountId)
    },

    /** A page of links; `tagKeys` (tag-names.ts filterKeys) keeps those that carry every one of those tags. */
    async listLinks(accountId: number, page: PageRequest, filter: LinkListFilter, tagKeys?: readonly string[]) {
      const linkIds = tagKeys === undefined ? undefined : await tags.itemsWithAll('link', accountId, tagKeys)
      const { rows, total } = await links.listPage(accountId, page, { ...filter, linkIds })
      const tagsOf = await tags.namesOf('link', rows.map(({ link }) => link.id))
      return { rows: rows.map((row) => ({ ...row, tags: tagsOf.get(row.link.id) ?? [] })) satisfies LinkView<LinkListRow>[], total }
    },

    /** Creates the link; answers its id, alias and the origin it is served on. */
    async createLink(account: AuthenticatedAccount, input: LinkCreateInput) {
      await enforcePlanLimit(account, 'links', () => links.count(account.id))
      const prepared = await prepareLink(account.id, input)
      // Each try is one transaction with its audit row: a drawn alias a racing request stored first rolls back only that try.
      const insert = (alias: string) =>
        journal.write(account, async (trx) => {
          const { id, changes: created } = await insertPrepared(trx, account.id, prepared, alias)
          return { result: { id, alias }, changes: created }
        })
      const { custom } = input
      const created = custom === undefined
        ? await aliases.writeWithGeneratedAlias({ use: 'link', host: prepared.host }, insert)
        : await aliases.writeWithChosenAlias({ host: prepared.host, alias: custom, field: 'custom' }, undefined, () => insert(custom))
      changes.announce({ host: prepared.host, alias: created.alias })
      return { ...created, origin: prepared.origin }
    },

    /**
     * Checks a new link's fields and the records it names, as `createLink` does, without writing:
     * the batch writers (`link-batch.ts`) prepare every row first and write the good ones together.
     */
    prepareLink,

    /** Inserts a prepared link with `alias` on `trx` (the caller's journaled transaction); answers its id and change. */
    insertPrepared,

    /** The number of the account's links (plan limits of batches). */
    countLinks(accountId: number): Promise<number> {
      return links.count(accountId)
    },

    /** The account's links among `aliases` on `host`, by folded alias. */
    findByAliases(accountId: number, host: string, aliases: string[]) {
      return links.findByAliases(accountId, host, aliases)
    },

    /** One of the account's links to `url` on `host`, if any. */
    findByUrl(accountId: number, host: string, url: string) {
      return links.findByUrl(accountId, host, url)
    },

    /** Tells every instance's alias cache that what these addresses serve changed. */
    announce: changes.announce,

    /** Changes the given fields; answers the link's id, alias and origin afterwards. */
    async updateLink(account: AuthenticatedAccount, id: number, input: LinkUpdateInput) {
      const accountId = account.id
      const { link: current } = await getLinkOrThrow(accountId, id)
      const { values, placement = { domainId: current.domain_id, host: current.host, origin: current.domain_origin }, pixelIds, channelId, tagNames, fields } =
        await readLinkFields({ links, tags }, accountId, input, current)
      const alias = input.custom ?? current.alias
      const moves = alias !== current.alias || placement.host !== current.host
      const written: Partial<LinkValues> = moves ? { ...values, alias, host: placement.host, domainId: placement.domainId } : values
      const update = () =>
        journal.write(account, async (trx) => {
          if (!(await links.in(trx).update(accountId, id, written, pixelIds, channelId))) throw NotFoundError.of('Link')
          const tagChanges = tagNames === undefined ? [] : await tags.setItemTags(trx, accountId, 'link', id, tagNames)
          return { result: undefined, changes: [...tagChanges, await changes.changeOf(trx, accountId, 'link.updated', id, fields)] }
        })
      if (moves) await aliases.writeWithChosenAlias({ host: placement.host, alias, field: 'custom' }, { kind: 'link', id }, update)
      else await update()
      // Whatever changed, the copy cached at the old address is stale; a new address may have a cached miss.
      changes.announce({ host: current.host, alias: current.alias }, { host: placement.host, alias })
      return { id, alias, origin: placement.origin }
    },

    /** True when the link runs a split test (its details then show clicks per variant). */
    hasSplitTest(link: LinkWithDomain): boolean {
      return parseStoredOptions(link.options).variants !== null
    },

    /** Ends the link's split test: the variant at `position` becomes its URL. */
    async chooseWinner(account: AuthenticatedAccount, id: number, position: number) {
      const { link: current } = await getLinkOrThrow(account.id, id)
      const options = parseStoredOptions(current.options)
      if (options.variants === null) throw ValidationError.field('variant', 'names no variant: the link runs no split test')
      const winner = options.variants[position]
      if (!winner) throw ValidationError.field('variant', `must be the position of a variant, from 0 to ${options.variants.length - 1}`)
      const written: Partial<LinkValues> = { url: winner.url, options: serialiseOptions({ ...options, variants: null }) }
      await journal.write(account, async (trx) => {
        if (!(await links.in(trx).update(account.id, id, written, undefined, undefined))) throw NotFoundError.of('Link')
        return { result: undefined, changes: [await changes.changeOf(trx, account.id, 'link.winner_chosen', id, ['variant'])] }
      })
      changes.announce({ host: current.host, alias: current.alias })
      return { id, alias: current.alias, origin: current.domain_origin }
    },

    async deleteLink(account: AuthenticatedAccount, id: number): Promise<void> {
      const deleted = await journal.write(account, async (trx) => {
        // The record as it was before the deletion.
        const deletion = await changes.changeOf(trx, account.id, 'link.deleted', id, [])
        const address = await links.in(trx).delete(account.id, id)
        if (!address) throw NotFoundError.of('Link')
        return { result: address, changes: [deletion] }
      })
      changes.announce(deleted)
    },
  }
}

export type LinkService = ReturnType<typeof createLinkService>
