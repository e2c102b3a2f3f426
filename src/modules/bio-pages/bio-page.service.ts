// Bio page rules: the alias (claimed through the aliases module, on the main host), block URLs,
// plan limits, ownership, and telling every instance's alias cache about changes.
import type { BioPageRow } from '../../db/schema.js'
import { aliasKey } from '../aliases/alias-namespace.js'
import { BIO_PAGE_HOST, type AliasService } from '../aliases/alias.service.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { enforcePlanLimit } from '../plans/plan-limits.js'
import { parseStoredBlocks, type BioBlock } from './bio-page-blocks.js'
import { isHttpUrl } from '../../core/urls.js'
import { trimmedName } from '../../core/text.js'
import type { BioPageRepository, BioPageValues } from './bio-page.repository.js'
import { toBioPageDetails } from './bio-page.mapper.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import { BIO_BLOCK_TITLE_RULE, BIO_NAME_RULE, BIO_URL_RULE, type BioPageCreateInput, type BioPagePreviewInput, type BioPageUpdateInput } from './bio-page.schemas.js'
import { ALIAS_TOPIC, type InvalidationBus } from '../../core/invalidation.js'
import { NotFoundError, ValidationError, orNotFound } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import type { TagService } from '../tags/tag.service.js'

function cleanAvatar(avatar: string): string | null {
  if (avatar === '') return null
  if (!isHttpUrl(avatar)) throw ValidationError.field('avatar', BIO_URL_RULE)
  return avatar
}

/** Trims titles and checks that each URL really parses as http(s): the schema only saw its text. */
function cleanBlocks(blocks: BioBlock[]): BioBlock[] {
  return blocks.map((block, index) => {
    const title = block.title.trim()
    if (title.length === 0) throw ValidationError.field(`blocks.${index}.title`, BIO_BLOCK_TITLE_RULE)
    if (!isHttpUrl(block.url)) throw ValidationError.field(`blocks.${index}.url`, BIO_URL_RULE)
    // Only the two known keys are stored: unknown fields are never kept.
    return { title, url: block.url }
  })
}

/** What a bio page shows: a stored page's fields with its blocks read, or a draft to preview. */
export interface BioPageContent {
  alias: string
  name: string
  description: string
  avatar: string | null
  blocks: BioBlock[]
}

/** The alias a draft without one is previewed under (only its canonical link shows it). */
const PREVIEW_ALIAS = 'preview'

export interface BioPageServiceOptions {
  pages: Bindable<BioPageRepository>
  /** Claims aliases in the namespace bio pages share with links (on the main host). */
  aliases: AliasService
  journal: ChangeJournal
  invalidation: InvalidationBus
  /** The base of the pages' public addresses, in the records the journal carries. */
  publicUrl: string
  /** Pages' tags (made on first use). */
  tags: TagService
}

export function createBioPageService({ pages, aliases, journal, invalidation, publicUrl, tags }: BioPageServiceOptions) {

  const getBioPageOrThrow = orNotFound(pages.findById, 'Bio page')

  function announce(...changed: string[]): void {
    for (const alias of new Set(changed)) invalidation.publish(ALIAS_TOPIC, aliasKey(BIO_PAGE_HOST, alias))
  }

  return {
    getBioPageOrThrow,

    /** A page of bio pages with their tags; `tagKeys` (tag-names.ts filterKeys) keeps those that carry every one. */
    async listBioPages(accountId: number, page: PageRequest, tagKeys?: readonly string[]) {
      const ids = tagKeys === undefined ? undefined : await tags.itemsWithAll('bio', accountId, tagKeys)
      const { rows, total } = await pages.listPage(accountId, page, ids)
      const tagsOf = await tags.namesOf('bio', rows.map((row) => row.id))
      return { rows: rows.map((row) => ({ row, tags: tagsOf.get(row.id) ?? [] })), total }
    },

    /** The page's tags' names, by name. */
    tagsOf(id: number): Promise<string[]> {
      return tags.namesOfOne('bio', id)
    },

    async createBioPage(account: AuthenticatedAccount, input: BioPageCreateInput): Promise<BioPageRow> {
      const values = {
        name: trimmedName(input.name, BIO_NAME_RULE),
        description: input.description?.trim() ?? '',
        avatar: input.avatar === undefined ? null : cleanAvatar(input.avatar),
        blocks: cleanBlocks(input.blocks ?? []),
      }
      const tagNames = tags.checkTags(input.tags)
      await enforcePlanLimit(account, 'bio', () => pages.count(account.id))
      const insert = (alias: string) =>
        journal.write(account, async (trx) => {
          const page = await pages.in(trx).insert(account.id, { ...values, alias })
          const tagChanges = tagNames === undefined ? [] : await tags.setItemTags(trx, account.id, 'bio', page.id, tagNames)
          const record = toBioPageDetails(page, publicUrl, await tags.namesOfOne('bio', page.id, trx))
          return { result: page, changes: [...tagChanges, { action: 'bio.created', resource: 'bio', resourceId: page.id, fields: givenFields(input), record }] }
        })
      const chosen = input.alias
      const created = chosen === undefined
        ? await aliases.writeWithGeneratedAlias({ use: 'bio' }, insert)
        : await aliases.writeWithChosenAlias({ host: BIO_PAGE_HOST, alias: chosen, field: 'alias' }, () => insert(chosen))
      announce(created.alias)
      return created
    },

    async updateBioPage(account: AuthenticatedAccount, id: number, input: BioPageUpdateInput): Promise<BioPageRow> {
      const current = await getBioPageOrThrow(account.id, id)
      const alias = input.alias ?? current.alias
      const values: BioPageValues = {
        alias,
        name: input.name === undefined ? current.name : trimmedName(input.name, BIO_NAME_RULE),
        description: input.description === undefined ? current.description : input.description.trim(),
        avatar: input.avatar === undefined ? current.avatar : cleanAvatar(input.avatar),
        blocks: input.blocks === undefined ? parseStoredBlocks(current.blocks) : cleanBlocks(input.blocks),
      }
      const tagNames = tags.checkTags(input.tags)
      const update = () =>
        journal.write(account, async (trx) => {
          const page = await pages.in(trx).update(account.id, id, values)
          if (!page) throw NotFoundError.of('Bio page')
          const tagChanges = tagNames === undefined ? [] : await tags.setItemTags(trx, account.id, 'bio', id, tagNames)
          const record = toBioPageDetails(page, publicUrl, await tags.namesOfOne('bio', id, trx))
          return { result: page, changes: [...tagChanges, { action: 'bio.updated', resource: 'bio', resourceId: id, fields: givenFields(input), record }] }
        })
      const updated = alias === current.alias ? await update() : await aliases.writeWithChosenAlias({ host: BIO_PAGE_HOST, alias, field: 'alias', holder: { kind: 'bio', id } }, update)
      if (!updated) throw NotFoundError.of('Bio page')
      announce(current.alias, updated.alias)
      return updated
    },

    /** A draft as the public page would show it; nothing is stored or checked against other pages. */
    previewBioPage(input: BioPagePreviewInput): BioPageContent {
      const avatar = input.avatar?.trim() ?? ''
      return {
        alias: input.alias?.trim() || PREVIEW_ALIAS,
        name: input.name.trim(),
        description: input.description?.trim() ?? '',
        avatar: isHttpUrl(avatar) ? avatar : null,
        blocks: (input.blocks ?? []).map((block) => ({ title: block.title.trim(), url: block.url.trim() })).filter((block) => block.title !== ''),
      }
    },

    async deleteBioPage(account: AuthenticatedAccount, id: number): Promise<void> {
      const current = await getBioPageOrThrow(account.id, id)
      const deleted = await journal.write(account, async (trx) => {
        const record = toBioPageDetails(current, publicUrl, await tags.namesOfOne('bio', id, trx))
        const page = await pages.in(trx).delete(account.id, id)
        if (!page) throw NotFoundError.of('Bio page')
        return { result: page, changes: [{ action: 'bio.deleted', resource: 'bio', resourceId: id, fields: [], record }] }
      })
      announce(deleted.alias)
    },
  }
}

export type BioPageService = ReturnType<typeof createBioPageService>
