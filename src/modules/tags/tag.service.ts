// Tag rules (issue 23): tags are made on first use by the items that name them, one per name
// whatever its case; renamed, coloured and deleted here (a deleted tag leaves every item).
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { givenFields, type Change, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import type { DB } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { TagRow } from '../../db/schema.js'
import { DuplicateError, NotFoundError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import type { TagRepository, TaggedKind } from './tag.repository.js'
import { normaliseTags, tagKey, tagName } from './tag-names.js'
import type { TagUpdateInput } from './tag.schemas.js'

/** A tag as the API and the journal show it. */
export function toTagRecord(row: TagRow) {
  return { id: row.id, name: row.name, color: row.color, date: row.created_at }
}

export interface TagServiceOptions {
  tags: Bindable<TagRepository>
  journal: ChangeJournal
}

export function createTagService({ tags, journal }: TagServiceOptions) {
  return {
    listTags(accountId: number, page: PageRequest) {
      return tags.listPage(accountId, page)
    },

    /** Each item's tag names (by name); items without tags are absent. */
    namesOf(kind: TaggedKind, itemIds: readonly number[], executor?: DB): Promise<Map<number, string[]>> {
      return (executor ? tags.in(executor) : tags).namesOf(kind, itemIds)
    },

    /** One item's tag names, by name. */
    async namesOfOne(kind: TaggedKind, itemId: number, executor?: DB): Promise<string[]> {
      return (await (executor ? tags.in(executor) : tags).namesOf(kind, [itemId])).get(itemId) ?? []
    },

    /** Ids of the account's items of `kind` that carry every one of these tags (keys of filterKeys). */
    itemsWithAll(kind: TaggedKind, accountId: number, keys: readonly string[]): Promise<number[]> {
      return tags.itemsWithAll(kind, accountId, keys)
    },

    /** Checks what a client sent (field-named 400s), before anything is written. */
    checkTags(given: readonly string[] | undefined): string[] | undefined {
      return given === undefined ? undefined : normaliseTags(given)
    },

    /**
     * Inside an item's journaled write: replaces its tags with these names (checked by checkTags),
     * making the tags it names first; answers the changes that made tags, for the same journal entry.
     */
    async setItemTags(trx: DB, accountId: number, kind: TaggedKind, itemId: number, names: readonly string[]): Promise<Change[]> {
      const saved = tags.in(trx)
      const { tags: rows, created } = await saved.ensure(accountId, names)
      await saved.setItemTags(kind, itemId, rows.map((tag) => tag.id))
      return created.map((tag) => ({ action: 'tag.created', resource: 'tag', resourceId: tag.id, fields: ['name'], record: toTagRecord(tag) }))
    },

    async updateTag(account: AuthenticatedAccount, id: number, input: TagUpdateInput): Promise<TagRow> {
      const name = input.name === undefined ? undefined : tagName(input.name, 'name')
      const color = input.color === undefined ? undefined : input.color === '' ? null : input.color.toLowerCase()
      try {
        return await journal.write(account, async (trx) => {
          const saved = tags.in(trx)
          if (name !== undefined) {
            const same = await saved.findByKey(account.id, tagKey(name))
            if (same && same.id !== id) throw new DuplicateError('A tag with this name already exists.', 'name')
          }
          if (!(await saved.update(account.id, id, { name, color }))) throw NotFoundError.of('Tag')
          const tag = (await saved.findById(account.id, id))!
          return { result: tag, changes: [{ action: 'tag.updated', resource: 'tag', resourceId: id, fields: givenFields(input), record: toTagRecord(tag) }] }
        })
      } catch (error) {
        // Another request took the name between the check and the write.
        if (isUniqueViolation(error)) throw new DuplicateError('A tag with this name already exists.', 'name')
        throw error
      }
    },

    async deleteTag(account: AuthenticatedAccount, id: number): Promise<void> {
      await journal.write(account, async (trx) => {
        const saved = tags.in(trx)
        const tag = await saved.findById(account.id, id)
        if (!tag || !(await saved.delete(account.id, id))) throw NotFoundError.of('Tag')
        return { result: undefined, changes: [{ action: 'tag.deleted', resource: 'tag', resourceId: id, fields: [], record: toTagRecord(tag) }] }
      })
    },
  }
}

export type TagService = ReturnType<typeof createTagService>
