// SQL of the public side: what is served at a root alias, and branded-domain routing. Lookups are by the public key (host and alias, hostname), not by account:
// visitors have none. Each lookup is one indexed query.
import type { DB } from '../../db/database.js'
import type { BioPageRow } from '../../db/schema.js'
import type { LinkValues } from '../links/link.repository.js'

/** A link row with what its page needs (splash page, overlay, pixels), read in one query. */
export interface StoredPublicLink extends Pick<LinkValues, 'alias' | 'url' | 'title' | 'description' | 'passwordHash' | 'expiresAt' | 'type' | 'targeting' | 'options'> {
  id: number
  accountId: number
  /** Recorded clicks when read (a capped link's count starts from it). */
  clicks: number
  /** The link checker last found the destination broken (ADR 026): `brokenurl` applies. */
  broken?: boolean
  /** The token of the link's social card (migration 026), or null. */
  cardToken?: string | null
  splashConfig: string | null
  overlay: { id: number; type: string; config: string } | null
  pixels: { type: string; tag: string }[]
  /** The workspace's conversion settings a visit needs (ADR 034); left out: the defaults (lw_id, no passthrough). */
  workspace?: { clickIdParameter: string; queryPassthrough: boolean }
}

/** What a branded domain does with requests that find no alias. */
export interface StoredDomainRoute {
  hostname: string
  redirectRoot: string | null
  redirect404: string | null
}

export function createAliasResolverRepository(db: DB) {
  return {
    /**
     * The link at (host, alias) in any letter case, joined with its splash page, overlay and pixels
     * of the same account: one row per pixel. The (host, lower(alias)) unique index (migration 004)
     * makes it one indexed look-up with at most one link.
     */
    async findLinkByHostAndAlias(host: string, alias: string): Promise<StoredPublicLink | undefined> {
      const rows = await db
        .selectFrom('links')
        .leftJoin('splash_pages', (join) => join.onRef('splash_pages.id', '=', 'links.splash_id').onRef('splash_pages.account_id', '=', 'links.account_id'))
        .leftJoin('overlays', (join) => join.onRef('overlays.id', '=', 'links.overlay_id').onRef('overlays.account_id', '=', 'links.account_id'))
        .leftJoin('link_cards', 'link_cards.link_id', 'links.id')
        .leftJoin('link_pixels', 'link_pixels.link_id', 'links.id')
        .leftJoin('pixels', (join) => join.onRef('pixels.id', '=', 'link_pixels.pixel_id').onRef('pixels.account_id', '=', 'links.account_id'))
        // The workspace's click-id parameter and passthrough default, in the same read (ADR 034).
        .innerJoin('accounts', 'accounts.id', 'links.account_id')
        .select([
          'links.id', 'links.account_id', 'links.alias', 'links.url', 'links.title', 'links.description',
          'links.password_hash', 'links.expires_at', 'links.type', 'links.targeting', 'links.options', 'links.clicks', 'links.health',
          'link_cards.token as card_token',
          'splash_pages.config as splash_config',
          'overlays.id as overlay_id', 'overlays.type as overlay_type', 'overlays.config as overlay_config',
          'pixels.type as pixel_type', 'pixels.tag as pixel_tag',
          'accounts.click_id_parameter', 'accounts.query_passthrough',
        ])
        // A claim released to the workspace that proved control of the name serves nothing there (ADR 031).
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .where('domains.released_at', 'is', null)
        .where('links.host', '=', host)
        // Both sides folded by the database, as its (host, lower(alias)) index folds: an imported
        // non-ASCII alias (ADR 028) is found in the letter cases that index holds as one.
        .where((eb) => eb(eb.fn<string>('lower', ['links.alias']), '=', eb.fn<string>('lower', [eb.cast(eb.val(alias), 'text')])))
        .orderBy('pixels.id')
        .execute()
      const first = rows[0]
      if (!first) return undefined
      return {
        id: first.id,
        accountId: first.account_id,
        clicks: Number(first.clicks),
        alias: first.alias,
        url: first.url,
        title: first.title,
        description: first.description,
        passwordHash: first.password_hash,
        expiresAt: first.expires_at,
        type: first.type,
        targeting: first.targeting,
        options: first.options,
        broken: first.health === 'broken',
        cardToken: first.card_token,
        splashConfig: first.splash_config,
        overlay: first.overlay_id !== null && first.overlay_type !== null && first.overlay_config !== null
          ? { id: first.overlay_id, type: first.overlay_type, config: first.overlay_config }
          : null,
        pixels: rows.flatMap((row) => (row.pixel_type !== null && row.pixel_tag !== null ? [{ type: row.pixel_type, tag: row.pixel_tag }] : [])),
        workspace: { clickIdParameter: first.click_id_parameter, queryPassthrough: first.query_passthrough === 1 },
      }
    },

    /** The bio page at `alias` on the main host, in any letter case (the lower(alias) unique index). */
    async findBioPageByAlias(alias: string): Promise<BioPageRow | undefined> {
      return db.selectFrom('bio_pages').selectAll().where((eb) => eb(eb.fn<string>('lower', ['alias']), '=', eb.fn<string>('lower', [eb.cast(eb.val(alias), 'text')]))).executeTakeFirst()
    },

    /**
     * The branded domain answering to `hostname`: the claim of the workspace that proved control
     * of it, else the oldest claim not released (ADR 031: several workspaces may claim a name).
     */
    async findDomainByHostname(hostname: string): Promise<StoredDomainRoute | undefined> {
      const row = await db
        .selectFrom('domains')
        .select(['hostname', 'redirect_root', 'redirect_404'])
        .where('hostname', '=', hostname)
        .where('released_at', 'is', null)
        .orderBy((eb) => eb.case().when('status', '=', 'verified').then(0).else(1).end())
        .orderBy('id')
        .limit(1)
        .executeTakeFirst()
      return row && { hostname: row.hostname, redirectRoot: row.redirect_root, redirect404: row.redirect_404 }
    },
  }
}

export type AliasResolverRepository = ReturnType<typeof createAliasResolverRepository>
