// SQL for short links. Every method is scoped by account id. Whether an alias is free is asked of
// the aliases module (modules/aliases/alias.repository.ts): an alias lives in its host's namespace,
// shared by every account and, on the main host, with bio pages.
import { inTransaction } from '../../db/transactions.js'
import { sql, type ExpressionBuilder, type Updateable } from 'kysely'
import type { DB } from '../../db/database.js'
import { ownershipQueries } from '../../db/owned-rows.js'
import { fetchPage } from '../../db/paging.js'
import { prepareQuery, type PreparedQuery } from '../../db/prepared-query.js'
import { skippingLockedRows } from '../../db/row-claims.js'
import type { Database, LinkRow, LinksTable } from '../../db/schema.js'
import { idsOfList, orderedIdList } from '../../db/id-lists.js'
import { createChannelItemRepository, removeItemFromAllChannels } from '../channels/channel-items.repository.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

/** A link as a top list or a channel names it. */
export interface LinkSummary {
  id: number
  alias: string
  url: string
  title: string | null
  /** The branded domain's origin, or null on the main domain. */
  domainOrigin: string | null
}

/** A link the link checker claimed (any account's). */
export type LinkToCheck = Pick<LinkRow, 'id' | 'account_id' | 'host' | 'alias' | 'url' | 'health'>

/** A link with the origin of its branded domain (null on the main domain). */
export type LinkWithDomain = LinkRow & { domain_origin: string | null }

/** The columns a list entry shows (link.mapper.ts): a list reads no more than it sends. */
const LIST_COLUMNS = [
  'links.id', 'links.alias', 'links.url', 'links.title', 'links.description', 'links.clicks', 'links.unique_clicks',
  'links.created_at', 'links.campaign_id', 'links.type', 'links.splash_id', 'links.overlay_id', 'links.expires_at', 'links.password_hash',
  'links.health', 'links.health_status', 'links.health_checked_at',
] as const

/** A link as a list shows it. */
export type LinkListRow = Pick<LinkRow, 'id' | 'alias' | 'url' | 'title' | 'description' | 'clicks' | 'unique_clicks' | 'created_at' | 'campaign_id' | 'type' | 'splash_id' | 'overlay_id' | 'expires_at' | 'password_hash' | 'health' | 'health_status' | 'health_checked_at'> & { domain_origin: string | null }

/** A list entry: the link and its pixels' ids, ascending. */
export interface LinkListEntry {
  link: LinkListRow
  pixelIds: number[]
}

/** The list columns' row as read: the pixels come as one text (db/id-lists.ts orderedIdList). */
type LinkListSqlRow = LinkListRow & { pixel_list: string | null }

function entriesOf(rows: LinkListSqlRow[]): LinkListEntry[] {
  return rows.map(({ pixel_list, ...link }) => ({ link, pixelIds: idsOfList(pixel_list) }))
}

/** Everything a link stores besides its counters and timestamps. */
export interface LinkValues {
  domainId: number | null
  host: string
  alias: string
  url: string
  title: string | null
  description: string | null
  passwordHash: string | null
  expiresAt: string | null
  type: string
  splashId: number | null
  overlayId: number | null
  campaignId: number | null
  /** JSON, see schema.ts. */
  targeting: string
  /** JSON, see link-options.ts. */
  options: string
}

export type LinkOrder = 'date' | 'clicks'

export interface LinkListFilter {
  order: LinkOrder
  /** Case-insensitive substring of alias, destination or title. */
  search?: string
  campaignId?: number
  channelId?: number
  /** A branded domain's id, or null for the main domain; undefined lists every domain. */
  domainId?: number | null
  /** Only these links (those carrying the tags a list asks for); undefined lists every link. */
  linkIds?: readonly number[]
  /** Only the links whose destination's health is this (link checker, migration 025). */
  health?: string
}

type LinkColumns = Omit<Updateable<LinksTable>, 'id' | 'account_id' | 'clicks' | 'unique_clicks' | 'created_at'>

/** The column each value is stored in. */
const COLUMN_OF: { [K in keyof LinkValues]: keyof LinkColumns } = {
  domainId: 'domain_id',
  host: 'host',
  alias: 'alias',
  url: 'url',
  title: 'title',
  description: 'description',
  passwordHash: 'password_hash',
  expiresAt: 'expires_at',
  type: 'type',
  splashId: 'splash_id',
  overlayId: 'overlay_id',
  campaignId: 'campaign_id',
  targeting: 'targeting',
  options: 'options',
}

/** The columns of the values given (an undefined value is left as it is). */
function toColumns(values: Partial<LinkValues>): LinkColumns {
  const columns: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) columns[COLUMN_OF[key as keyof LinkValues]] = value
  }
  return columns as LinkColumns
}

/**
 * A new destination's health is not known: the link checker looks at it soon (ADR 026). The
 * same destination given again keeps what was found (the dashboard sends `url` with every save).
 */
function healthOfNewUrl(url: string) {
  const kept = <T>(column: 'health' | 'health_status' | 'health_checked_at' | 'health_next_at', fresh: T) =>
    sql<T>`case when ${sql.ref('url')} = ${url} then ${sql.ref(column)} else ${fresh} end`
  return { health: kept('health', 'unknown'), health_status: kept<number | null>('health_status', null), health_checked_at: kept<string | null>('health_checked_at', null), health_next_at: kept('health_next_at', '') }
}

/** `%text%` for LIKE with `!` as the escape character, so `%`, `_` and `!` match themselves. */
function containsPattern(text: string): string {
  return `%${text.replace(/[!%_]/g, '!$&')}%`
}

type ListValues = {
  accountId: number
  /** containsPattern of the search text; unused without one. */
  pattern: string
  limit: number
  offset: number
}

export function createLinkRepository(db: DB) {
  // Each listed link's pixels, read in the page's own query: one round trip less per list.
  const pixelList = (eb: ExpressionBuilder<Database, 'links'>) =>
    eb.selectFrom('link_pixels').select(orderedIdList(db, 'link_pixels.pixel_id').as('ids')).whereRef('link_pixels.link_id', '=', 'links.id').as('pixel_list')

  function selectLinks() {
    return db.selectFrom('links').leftJoin('domains', 'domains.id', 'links.domain_id')
  }

  function filteredLinks(values: ListValues, searching: boolean) {
    const filtered = selectLinks().where('links.account_id', '=', values.accountId)
    // lower() on both sides: the same folding on either database, whatever the collation.
    return searching
      ? filtered.where((eb) => eb.or((['links.alias', 'links.url', 'links.title'] as const).map((column) => sql<boolean>`lower(${sql.ref(column)}) like lower(${values.pattern}) escape '!'`)))
      : filtered
  }

  function prepareList(order: LinkOrder, searching: boolean) {
    return {
      count: prepareQuery(db, (values: ListValues) => filteredLinks(values, searching).select((eb) => eb.fn.countAll<number>().as('count'))),
      page: prepareQuery(db, (values: ListValues) => {
        // Every column a row has costs the driver an object property per row: only the listed ones.
        const selected = filteredLinks(values, searching).select(LIST_COLUMNS).select('domains.domain as domain_origin').select(pixelList)
        const ordered = order === 'clicks' ? selected.orderBy('links.clicks', 'desc').orderBy('links.id', 'desc') : selected.orderBy('links.id', 'desc')
        return ordered.limit(values.limit).offset(values.offset)
      }),
    }
  }
  // The list is the API's most frequent read: its queries are compiled once per order and
  // search-or-not (db/prepared-query.ts), not built anew for every request.
  const listQueries = {
    date: { plain: prepareList('date', false), searching: prepareList('date', true) },
    clicks: { plain: prepareList('clicks', false), searching: prepareList('clicks', true) },
  } satisfies Record<LinkOrder, unknown>
  // Read before every cached list answer: compiled once.
  const listVersionQuery = prepareQuery(db, (values: { accountId: number }) =>
    db.selectFrom('link_list_versions').select('version').where('account_id', '=', values.accountId))
  // One compiled pixel query per number of links asked about (at most a page's limit).
  const pixelQueries = new Map<number, PreparedQuery<Record<string, number>, { link_id: number; pixel_id: number }>>()

  return {
    ...ownershipQueries(db, 'links'),
    /** Stores `to` as the link's password hash while it still is `from` (a password changed meanwhile stays): an imported hash upgraded. */
    async replacePasswordHash(linkId: number, from: string, to: string): Promise<void> {
      await db.updateTable('links').set({ password_hash: to }).where('id', '=', linkId).where('password_hash', '=', from).execute()
    },

    /** One page of the account's links (newest or most clicked first) and how many match in all. */
    async listPage(accountId: number, page: PageRequest, filter: LinkListFilter): Promise<{ rows: LinkListEntry[]; total: number }> {
      const narrowed = filter.campaignId !== undefined || filter.domainId !== undefined || filter.channelId !== undefined || filter.linkIds !== undefined || filter.health !== undefined
      if (!narrowed) {
        const queries = listQueries[filter.order][filter.search ? 'searching' : 'plain']
        const values = { accountId, pattern: filter.search ? containsPattern(filter.search) : '', limit: page.limit + 1, offset: page.offset }
        // One row more than the page: when it does not come, this page is the last one and the
        // total is known without counting (most accounts' lists fit in one page).
        const rows = await queries.page(values)
        if (rows.length <= page.limit && (rows.length > 0 || page.offset === 0)) return { rows: entriesOf(rows), total: page.offset + rows.length }
        const [counted] = await queries.count(values)
        return { rows: entriesOf(rows.slice(0, page.limit)), total: Number(counted?.count ?? 0) }
      }
      // Lists narrowed by campaign, domain or channel are rarer: built as they come.
      let filtered = filteredLinks({ accountId, pattern: filter.search ? containsPattern(filter.search) : '', limit: page.limit, offset: page.offset }, Boolean(filter.search))
      // Every filter narrows the account's own links, so an id of another account's campaign,
      // channel or domain matches nothing rather than revealing anything.
      if (filter.linkIds !== undefined) {
        if (filter.linkIds.length === 0) return { rows: [], total: 0 }
        filtered = filtered.where('links.id', 'in', [...filter.linkIds])
      }
      if (filter.campaignId !== undefined) filtered = filtered.where('links.campaign_id', '=', filter.campaignId)
      if (filter.domainId === null) filtered = filtered.where('links.domain_id', 'is', null)
      else if (filter.domainId !== undefined) filtered = filtered.where('links.domain_id', '=', filter.domainId)
      if (filter.health !== undefined) filtered = filtered.where('links.health', '=', filter.health)
      if (filter.channelId !== undefined) {
        // A subquery rather than a join: each link is counted once for paging.
        filtered = filtered.where('links.id', 'in', createChannelItemRepository(db).memberIds(accountId, filter.channelId, 'links'))
      }
      const { rows, total } = await fetchPage(filtered, page, (query) => {
        const selected = query.select(LIST_COLUMNS).select('domains.domain as domain_origin').select(pixelList)
        return filter.order === 'clicks' ? selected.orderBy('links.clicks', 'desc').orderBy('links.id', 'desc') : selected.orderBy('links.id', 'desc')
      })
      return { rows: entriesOf(rows), total }
    },

    async findById(accountId: number, id: number): Promise<LinkWithDomain | undefined> {
      return selectLinks()
        .selectAll('links')
        .select('domains.domain as domain_origin')
        .where('links.account_id', '=', accountId)
        .where('links.id', '=', id)
        .executeTakeFirst()
    },

    /** The account's links among `ids` (a batch's new links, for the journal's records). */
    async findByIds(accountId: number, ids: readonly number[]): Promise<LinkWithDomain[]> {
      if (ids.length === 0) return []
      return selectLinks()
        .selectAll('links')
        .select('domains.domain as domain_origin')
        .where('links.account_id', '=', accountId)
        .where('links.id', 'in', ids)
        .execute()
    },

    /**
     * How often anything the account's link lists show has changed (the database's triggers count
     * it: migration 008); 0 before the first change.
     */
    async listVersion(accountId: number): Promise<number> {
      const [row] = await listVersionQuery({ accountId })
      return Number(row?.version ?? 0)
    },

    /** Pixel ids of each link, ascending; links without pixels are absent. */
    async pixelIdsOf(linkIds: number[]): Promise<Map<number, number[]>> {
      const byLink = new Map<number, number[]>()
      if (linkIds.length === 0) return byLink
      let query = pixelQueries.get(linkIds.length)
      if (!query) {
        query = prepareQuery(db, (values: Record<string, number>) =>
          db.selectFrom('link_pixels').select(['link_id', 'pixel_id']).where('link_id', 'in', linkIds.map((_, index) => values[`id${index}`]!)).orderBy('pixel_id'))
        pixelQueries.set(linkIds.length, query)
      }
      const rows = await query(Object.fromEntries(linkIds.map((id, index) => [`id${index}`, id])))
      for (const row of rows) byLink.set(row.link_id, [...(byLink.get(row.link_id) ?? []), row.pixel_id])
      return byLink
    },

    /** The account's links among `ids` as a top list or a channel names them: address, destination, title. */
    async findSummaries(accountId: number, ids: readonly number[]): Promise<LinkSummary[]> {
      if (ids.length === 0) return []
      const rows = await db
        .selectFrom('links')
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .select(['links.id', 'links.alias', 'links.url', 'links.title', 'domains.domain as domain_origin'])
        .where('links.account_id', '=', accountId)
        .where('links.id', 'in', [...ids])
        .execute()
      return rows.map((row) => ({ id: row.id, alias: row.alias, url: row.url, title: row.title, domainOrigin: row.domain_origin }))
    },

    /** The account's links among `aliases` on `host` (letter case folded), by folded alias. */
    async findByAliases(accountId: number, host: string, aliases: string[]): Promise<Map<string, { id: number; alias: string; url: string }>> {
      const found = new Map<string, { id: number; alias: string; url: string }>()
      if (aliases.length === 0) return found
      const rows = await db.selectFrom('links').select(['id', 'alias', 'url'])
        .where('account_id', '=', accountId).where('host', '=', host)
        .where((eb) => eb(eb.fn<string>('lower', ['alias']), 'in', aliases.map((alias) => alias.toLowerCase())))
        .execute()
      for (const row of rows) found.set(row.alias.toLowerCase(), row)
      return found
    },

    /** One of the account's links to `url` on `host` (an import's row without an alias is the same link as one of these). */
    async findByUrl(accountId: number, host: string, url: string): Promise<{ id: number; alias: string } | undefined> {
      return db.selectFrom('links').select(['id', 'alias']).where('account_id', '=', accountId).where('host', '=', host).where('url', '=', url).orderBy('id').limit(1).executeTakeFirst()
    },

    /**
     * Inserts links without pixels or channel in multi-row statements (a batch's chunk, in its
     * transaction); answers their ids in the order given, told apart by their addresses (host and
     * alias are unique). Throws the driver's unique violation on a taken alias.
     */
    async insertMany(accountId: number, rows: ReadonlyArray<{ values: LinkValues; createdAt?: string }>): Promise<number[]> {
      const now = nowTimestamp()
      const idOf = new Map<string, number>()
      for (let start = 0; start < rows.length; start += 100) {
        const inserted = await db.insertInto('links').values(rows.slice(start, start + 100).map(({ values, createdAt }) => ({
          account_id: accountId, domain_id: values.domainId, host: values.host, alias: values.alias, url: values.url, title: values.title,
          description: values.description, password_hash: values.passwordHash, expires_at: values.expiresAt, type: values.type,
          splash_id: values.splashId, overlay_id: values.overlayId, campaign_id: values.campaignId, targeting: values.targeting,
          options: values.options, clicks: 0, unique_clicks: 0, created_at: createdAt ?? now, updated_at: now,
        }))).returning(['id', 'host', 'alias']).execute()
        for (const row of inserted) idOf.set(`${row.host}\n${row.alias}`, row.id)
      }
      return rows.map(({ values }) => idOf.get(`${values.host}\n${values.alias}`)!)
    },

    /** Inserts the link, its pixels and its channel membership together; throws the driver's unique violation on a taken alias. */
    async insert(accountId: number, values: LinkValues, pixelIds: number[], channelId: number | undefined, createdAt?: string): Promise<number> {
      return inTransaction(db, async (trx) => {
        const now = nowTimestamp()
        const { id } = await trx
          .insertInto('links')
          .values({
            account_id: accountId,
            domain_id: values.domainId,
            host: values.host,
            alias: values.alias,
            url: values.url,
            title: values.title,
            description: values.description,
            password_hash: values.passwordHash,
            expires_at: values.expiresAt,
            type: values.type,
            splash_id: values.splashId,
            overlay_id: values.overlayId,
            campaign_id: values.campaignId,
            targeting: values.targeting,
            options: values.options,
            clicks: 0,
            unique_clicks: 0,
            // An imported link keeps the date its source created it.
            created_at: createdAt ?? now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        if (pixelIds.length > 0) await trx.insertInto('link_pixels').values(pixelIds.map((pixelId) => ({ link_id: id, pixel_id: pixelId }))).execute()
        if (channelId !== undefined) await createChannelItemRepository(trx).insert(accountId, channelId, 'links', id)
        return id
      })
    },

    /**
     * Changes the given values; `pixelIds` replaces the pixels, `channelId` adds the link to that
     * channel unless it is there already. False when the account has no such link.
     */
    async update(accountId: number, id: number, changes: Partial<LinkValues>, { pixelIds, channelId }: { pixelIds?: number[]; channelId?: number } = {}): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const result = await trx
          .updateTable('links')
          .set({ ...toColumns(changes), ...(changes.url !== undefined ? healthOfNewUrl(changes.url) : {}), updated_at: nowTimestamp() })
          .where('account_id', '=', accountId)
          .where('id', '=', id)
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) === 0) return false
        if (pixelIds !== undefined) {
          await trx.deleteFrom('link_pixels').where('link_id', '=', id).execute()
          if (pixelIds.length > 0) await trx.insertInto('link_pixels').values(pixelIds.map((pixelId) => ({ link_id: id, pixel_id: pixelId }))).execute()
        }
        if (channelId !== undefined) {
          const items = createChannelItemRepository(trx)
          if (!(await items.contains(accountId, channelId, 'links', id))) await items.insert(accountId, channelId, 'links', id)
        }
        return true
      })
    },

    /** Deletes the link and takes it out of every channel; answers where it was served, or undefined. */
    async delete(accountId: number, id: number): Promise<Pick<LinkRow, 'host' | 'alias'> | undefined> {
      return inTransaction(db, async (trx) => {
        // Channel membership points at several tables, so no foreign key can cascade it.
        await removeItemFromAllChannels(trx, accountId, 'links', id)
        return trx.deleteFrom('links').where('account_id', '=', accountId).where('id', '=', id).returning(['host', 'alias']).executeTakeFirst()
      })
    },

    /** Puts the link in the campaign, or in none with null; false when the account has no such link. */
    async setCampaign(accountId: number, linkId: number, campaignId: number | null): Promise<boolean> {
      const result = await db
        .updateTable('links')
        .set({ campaign_id: campaignId, updated_at: nowTimestamp() })
        .where('account_id', '=', accountId)
        .where('id', '=', linkId)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    /**
     * The link checker's claim (ADR 026, any account's links): up to `count` links due for a look
     * at `at`, pushed to `nextAt` in one short transaction (on PostgreSQL skipping links another
     * instance is claiming), so each is looked at by one instance.
     */
    async claimDueForCheck(at: string, nextAt: string, count: number): Promise<LinkToCheck[]> {
      return inTransaction(db, async (trx) => {
        const due = await skippingLockedRows(trx, trx
          .selectFrom('links')
          .select(['id', 'account_id', 'host', 'alias', 'url', 'health'])
          .where('health_next_at', '<=', at)
          .orderBy('health_next_at')
          .orderBy('id')
          .limit(count)).execute()
        if (due.length === 0) return []
        await trx.updateTable('links').set({ health_next_at: nextAt }).where('id', 'in', due.map((link) => link.id)).execute()
        return due
      })
    },

    /** Records what a look at link `id` found, only while it still points at `url` (an edit since is looked at anew); true when it did. */
    async recordHealth(id: number, url: string, look: { health: LinkRow['health']; status: number | null; checkedAt: string }): Promise<boolean> {
      const updated = await db.updateTable('links')
        .set({ health: look.health, health_status: look.status, health_checked_at: look.checkedAt })
        .where('id', '=', id)
        .where('url', '=', url)
        .executeTakeFirst()
      return Number(updated.numUpdatedRows) > 0
    },

    /** Takes the link out of the campaign (only if it is in it); false when it is not. */
    async unassignFromCampaign(accountId: number, campaignId: number, linkId: number): Promise<boolean> {
      const result = await db
        .updateTable('links')
        .set({ campaign_id: null, updated_at: nowTimestamp() })
        .where('account_id', '=', accountId)
        .where('campaign_id', '=', campaignId)
        .where('id', '=', linkId)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    /** Takes every link of the account out of the campaign (the campaign is being deleted). */
    async unassignAllFromCampaign(accountId: number, campaignId: number): Promise<void> {
      // The foreign key sets null too; doing it here keeps the rule visible and dialect-proof.
      await db.updateTable('links').set({ campaign_id: null }).where('account_id', '=', accountId).where('campaign_id', '=', campaignId).execute()
    },

    async hasLinksOnDomain(accountId: number, domainId: number): Promise<boolean> {
      const row = await db.selectFrom('links').select('id').where('account_id', '=', accountId).where('domain_id', '=', domainId).executeTakeFirst()
      return row !== undefined
    },
  }
}

export type LinkRepository = ReturnType<typeof createLinkRepository>
