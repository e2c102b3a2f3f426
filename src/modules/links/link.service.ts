// Short-link rules: where the link is served (its alias claimed through the aliases module), plan
// limits, and what each write tells others (link-changes.ts). A link's fields are read by the one
// reader of creates and updates (link-fields.ts); new links are checked and inserted by
// link-creation.ts, which the batch writer uses too.
import type { AliasService } from '../aliases/alias.service.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { enforcePlanLimit } from '../plans/plan-limits.js'
import type { LinkListFilter, LinkListRow, LinkRepository, LinkValues, LinkWithDomain } from './link.repository.js'
import type { LinkCreateInput, LinkUpdateInput } from './link.schemas.js'
import { parseStoredOptions, serialiseOptions } from './link-options.js'
import type { ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import { NotFoundError, ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import type { TagService } from '../tags/tag.service.js'
import type { LinkChanges } from './link-changes.js'
import type { LinkCreation } from './link-creation.js'
import { readLinkFields, type LinkFieldLookups } from './link-fields.js'

/** A link as the API shows it: the row, its pixel ids and its tags' names. */
export interface LinkView<Row = LinkWithDomain> {
  link: Row
  pixelIds: number[]
  tags: string[]
}

export interface LinkServiceOptions {
  links: Bindable<LinkRepository>
  /** Claims aliases in the namespace links share with bio pages. */
  aliases: AliasService
  journal: ChangeJournal
  /** Links' tags (made on first use). */
  tags: TagService
  /** The journal's records and the alias caches' news. */
  changes: LinkChanges
  /** New links, checked then inserted. */
  creation: LinkCreation
  /** The records a link's fields name, each asked of its own module. */
  lookups: LinkFieldLookups
}

export function createLinkService({ links, aliases, journal, tags, changes, creation, lookups }: LinkServiceOptions) {
  async function getLinkOrThrow(accountId: number, id: number): Promise<LinkView> {
    const link = await links.findById(accountId, id)
    if (!link) throw NotFoundError.of('Link')
    return { link, pixelIds: (await links.pixelIdsOf([id])).get(id) ?? [], tags: await tags.namesOfOne('link', id) }
  }

  return {
    getLinkOrThrow,

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
      const link = await creation.checkNewLink(account.id, input)
      // Each try is one transaction with its audit row: a drawn alias a racing request stored first rolls back only that try.
      const insert = (alias: string) =>
        journal.write(account, async (trx) => {
          const { ids, changes: created } = await creation.insertNewLinks(trx, account.id, [{ link, alias }])
          return { result: { id: ids[0]!, alias }, changes: created }
        })
      const { custom } = input
      const created = custom === undefined
        ? await aliases.writeWithGeneratedAlias({ use: 'link', host: link.host }, insert)
        : await aliases.writeWithChosenAlias({ host: link.host, alias: custom, field: 'custom' }, () => insert(custom))
      changes.announce({ host: link.host, alias: created.alias })
      return { ...created, origin: link.origin }
    },

    /** Changes the given fields; answers the link's id, alias and origin afterwards. */
    async updateLink(account: AuthenticatedAccount, id: number, input: LinkUpdateInput) {
      const accountId = account.id
      const { link: current } = await getLinkOrThrow(accountId, id)
      const { values, placement = { domainId: current.domain_id, host: current.host, origin: current.domain_origin }, pixelIds, channelId, tagNames, fields } =
        await readLinkFields(lookups, accountId, input, current)
      const alias = input.custom ?? current.alias
      const moves = alias !== current.alias || placement.host !== current.host
      const written: Partial<LinkValues> = moves ? { ...values, alias, host: placement.host, domainId: placement.domainId } : values
      const update = () =>
        journal.write(account, async (trx) => {
          if (!(await links.in(trx).update(accountId, id, written, { pixelIds, channelId }))) throw NotFoundError.of('Link')
          const tagChanges = tagNames === undefined ? [] : await tags.setItemTags(trx, accountId, 'link', id, tagNames)
          return { result: undefined, changes: [...tagChanges, await changes.changeOf(trx, accountId, 'link.updated', id, fields)] }
        })
      if (moves) await aliases.writeWithChosenAlias({ host: placement.host, alias, field: 'custom', holder: { kind: 'link', id } }, update)
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
        if (!(await links.in(trx).update(account.id, id, written))) throw NotFoundError.of('Link')
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
