// SQL for tags and the items they are on. Every method is scoped by account id. One join table per
// item kind (migration 024): a deleted item or tag takes its join rows with it by foreign key.
import type { DB } from '../../db/database.js'
import { findOwnedRow } from '../../db/owned-rows.js'
import type { Database, TagRow } from '../../db/schema.js'
import type { ExpressionBuilder } from 'kysely'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'
import { fetchPage } from '../../db/paging.js'
import { tagKey } from './tag-names.js'

/** What can carry tags, and its join table. */
export type TaggedKind = 'link' | 'qr' | 'bio'

/**
 * The join table of each kind. One concrete table stands for the three in the query builder's
 * types: their shapes are the same but for the item column's name.
 */
const JOINS = {
  link: { table: 'link_tags', item: 'link_id' },
  qr: { table: 'qr_code_tags', item: 'qr_code_id' },
  bio: { table: 'bio_page_tags', item: 'bio_page_id' },
} as const satisfies Record<TaggedKind, { table: string; item: string }>

/** A tag as its list shows it: the row and how many items of each kind carry it. */
export type TagWithUse = TagRow & { links: number; qrs: number; bios: number }

export function createTagRepository(db: DB) {
  function joinOf(kind: TaggedKind) {
    const { table, item } = JOINS[kind]
    return { table: table as 'link_tags', item: item as 'link_id' }
  }

  return {
    findById(accountId: number, id: number): Promise<TagRow | undefined> {
      return findOwnedRow(db, 'tags', accountId, id)
    },

    findByKey(accountId: number, key: string): Promise<TagRow | undefined> {
      return db.selectFrom('tags').selectAll().where('account_id', '=', accountId).where('name_key', '=', key).executeTakeFirst()
    },

    /** A page of the account's tags by name, each with how many links, QR codes and bio pages carry it. */
    listPage(accountId: number, page: PageRequest) {
      const uses = (eb: ExpressionBuilder<Database, 'tags'>, kind: TaggedKind, as: 'links' | 'qrs' | 'bios') => {
        const { table } = joinOf(kind)
        return eb.selectFrom(table).select((inner) => inner.fn.countAll<number>().as('n')).whereRef(`${table}.tag_id`, '=', 'tags.id').as(as)
      }
      return fetchPage(db.selectFrom('tags').where('account_id', '=', accountId), page, (query) =>
        query.selectAll('tags').select((eb) => [uses(eb, 'link', 'links'), uses(eb, 'qr', 'qrs'), uses(eb, 'bio', 'bios')]).orderBy('name_key').orderBy('id'))
    },

    /**
     * The account's tags of these names (each once, by key), made where missing; answers them in
     * the order given and those made now. A name another request makes at the same time is read back.
     */
    async ensure(accountId: number, names: readonly string[]): Promise<{ tags: TagRow[]; created: TagRow[] }> {
      if (names.length === 0) return { tags: [], created: [] }
      const keys = names.map(tagKey)
      const existing = await db.selectFrom('tags').selectAll().where('account_id', '=', accountId).where('name_key', 'in', keys).execute()
      const known = new Set(existing.map((tag) => tag.name_key))
      const missing = names.filter((name) => !known.has(tagKey(name)))
      const created: TagRow[] = []
      if (missing.length > 0) {
        const now = nowTimestamp()
        created.push(...await db
          .insertInto('tags')
          .values(missing.map((name) => ({ account_id: accountId, name, name_key: tagKey(name), color: null, created_at: now, updated_at: now })))
          .onConflict((conflict) => conflict.columns(['account_id', 'name_key']).doNothing())
          .returningAll()
          .execute())
      }
      const all = created.length === missing.length
        ? [...existing, ...created]
        : await db.selectFrom('tags').selectAll().where('account_id', '=', accountId).where('name_key', 'in', keys).execute()
      const byKey = new Map(all.map((tag) => [tag.name_key, tag]))
      return { tags: keys.map((key) => byKey.get(key)!), created }
    },

    /** Replaces the item's tags with these. */
    async setItemTags(kind: TaggedKind, itemId: number, tagIds: readonly number[]): Promise<void> {
      const { table, item } = joinOf(kind)
      await db.deleteFrom(table).where(item, '=', itemId).execute()
      if (tagIds.length > 0) await db.insertInto(table).values(tagIds.map((tagId) => ({ [item]: itemId, tag_id: tagId }) as { link_id: number; tag_id: number })).execute()
    },

    /** The tags' names of each item, by name; items without tags are absent. */
    async namesOf(kind: TaggedKind, itemIds: readonly number[]): Promise<Map<number, string[]>> {
      const byItem = new Map<number, string[]>()
      if (itemIds.length === 0) return byItem
      const { table, item } = joinOf(kind)
      const rows = await db
        .selectFrom(table)
        .innerJoin('tags', 'tags.id', `${table}.tag_id`)
        .select([`${table}.${item} as item_id`, 'tags.name'])
        .where(`${table}.${item}`, 'in', [...itemIds])
        .orderBy('tags.name_key')
        .execute()
      for (const row of rows) byItem.set(row.item_id, [...(byItem.get(row.item_id) ?? []), row.name])
      return byItem
    },

    /** Ids of the account's items of `kind` that carry every tag of these keys (none when a key names no tag). */
    async itemsWithAll(kind: TaggedKind, accountId: number, keys: readonly string[]): Promise<number[]> {
      const { table, item } = joinOf(kind)
      const rows = await db
        .selectFrom(table)
        .innerJoin('tags', 'tags.id', `${table}.tag_id`)
        .select(`${table}.${item} as item_id`)
        .where('tags.account_id', '=', accountId)
        .where('tags.name_key', 'in', [...keys])
        .groupBy(`${table}.${item}`)
        .having((eb) => eb.fn.countAll(), '=', keys.length)
        .execute()
      return rows.map((row) => row.item_id)
    },

    /** Sets the given fields; false when the account has no such tag. Throws the driver's unique violation on a taken name. */
    async update(accountId: number, id: number, changes: { name?: string; color?: string | null }): Promise<boolean> {
      const set = {
        ...(changes.name === undefined ? {} : { name: changes.name, name_key: tagKey(changes.name) }),
        ...(changes.color === undefined ? {} : { color: changes.color }),
        updated_at: nowTimestamp(),
      }
      const result = await db.updateTable('tags').set(set).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    /** Deletes the tag; it leaves every item by foreign key. */
    async delete(accountId: number, id: number): Promise<boolean> {
      const result = await db.deleteFrom('tags').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}

export type TagRepository = ReturnType<typeof createTagRepository>
