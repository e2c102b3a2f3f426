// Public campaign addresses (no API key, decisions §6): GET /r/{slug}, the rotator, sends each
// visitor to the campaign's next link; GET /u/{username}/{slug}-{id} shows a public campaign's
// links as a small page.
import { Type } from 'typebox'
import type { App, ModuleDeps } from '../app.js'
import { createLruCache } from '../cache/lru-cache.js'
import type { DB } from '../db/database.js'
import { nowTimestamp } from '../db/dialect.js'
import { slugify } from '../modules/campaigns/campaign.mapper.js'
import { CAMPAIGN_SLUG_PATTERN } from '../modules/campaigns/campaign.schemas.js'
import { html, sendNotFoundPage, sendPage } from './html.js'
import { safeHttpUrl } from './safe-url.js'
import { clickOf } from './visitor.js'

/**
 * Cache-invalidation topic for campaigns (slug, visibility or membership changed); the key is the
 * campaign id. Links announce their own changes on ALIAS_TOPIC, which the rotator also listens to.
 */
import { ACCOUNT_TOPIC, ALIAS_TOPIC, CAMPAIGN_TOPIC } from '../cache/topics.js'

const tags = ['public']
const ROTATOR_CACHE_ENTRIES = 1_000
const SLUG_SHAPE = new RegExp(CAMPAIGN_SLUG_PATTERN)
// `{slug-or-slugified-name}-{id}`: the id is the last dash-separated run of digits.
const LIST_SEGMENT = /^(.+)-(\d{1,10})$/
// Ids are 32-bit on PostgreSQL; a larger number would be a database error, not a miss.
const MAX_ID = 2_147_483_647

// No rules on the segments: a visitor's malformed address gets the 404 page, never a JSON 400
// (the router already caps parameters at 200 characters).
const RotatorParams = Type.Object({ slug: Type.String() })
const ListPageParams = Type.Object({ username: Type.String(), slugAndId: Type.String() })

/** One link of a campaign as the rotator needs it. */
export interface RotatorLink {
  id: number
  /** Where the visitor goes: the destination, or the short URL when the link asks for a password. */
  target: string
  expiresAt: string | null
}

/** A campaign's rotation: its owner and its links ordered by id (expired ones filtered per visit). */
export interface Rotation {
  campaignId: number
  accountId: number
  links: RotatorLink[]
}

/** The short URL of a link: on its branded domain's origin when it has one, else on PUBLIC_URL. */
function shortUrlOf(publicUrl: string, domainOrigin: string | null, alias: string): string {
  return `${domainOrigin ?? publicUrl}/${alias}`
}

function createCampaignPageQueries(db: DB, publicUrl: string) {
  return {
    /** The campaign with this slug and all its links, in one read; undefined for an unknown slug. */
    async findRotation(slug: string): Promise<Rotation | undefined> {
      const rows = await db
        .selectFrom('campaigns')
        .leftJoin('links', (join) => join.onRef('links.campaign_id', '=', 'campaigns.id').onRef('links.account_id', '=', 'campaigns.account_id'))
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .select([
          'campaigns.id as campaignId',
          'campaigns.account_id as accountId',
          'links.id as linkId',
          'links.alias',
          'links.url',
          'links.expires_at as expiresAt',
          'links.password_hash as passwordHash',
          'domains.domain as domainOrigin',
        ])
        .where('campaigns.slug', '=', slug)
        .orderBy('links.id')
        .execute()
      const first = rows[0]
      if (!first) return undefined
      const links: RotatorLink[] = []
      for (const row of rows) {
        if (row.linkId === null || row.alias === null || row.url === null) continue
        // A protected link's destination is never revealed here: its short URL asks for the password.
        const target = row.passwordHash ? shortUrlOf(publicUrl, row.domainOrigin, row.alias) : safeHttpUrl(row.url)
        if (!target) continue
        links.push({ id: row.linkId, target, expiresAt: row.expiresAt })
      }
      return { campaignId: first.campaignId, accountId: first.accountId, links }
    },

    async findCampaignWithOwner(id: number) {
      return db
        .selectFrom('campaigns')
        .innerJoin('accounts', 'accounts.id', 'campaigns.account_id')
        .select(['campaigns.id', 'campaigns.account_id', 'campaigns.name', 'campaigns.slug', 'campaigns.is_public', 'accounts.username'])
        .where('campaigns.id', '=', id)
        .executeTakeFirst()
    },

    /** The campaign's links that have not expired, ordered by id, with their branded domain. */
    async listLiveLinks(accountId: number, campaignId: number) {
      const now = nowTimestamp()
      return db
        .selectFrom('links')
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .select(['links.id', 'links.alias', 'links.url', 'links.title', 'links.password_hash as passwordHash', 'domains.domain as domainOrigin'])
        .where('links.account_id', '=', accountId)
        .where('links.campaign_id', '=', campaignId)
        .where((eb) => eb.or([eb('links.expires_at', 'is', null), eb('links.expires_at', '>', now)]))
        .orderBy('links.id')
        .execute()
    },
  }
}

/**
 * Round-robin over a campaign's live links. The position lives in this process's memory: each
 * instance rotates on its own, which still spreads visits evenly over the links overall.
 */
export function createRoundRobin() {
  const positions = new Map<number, number>()
  return {
    /** The link this visit goes to; `advance: false` (HEAD) looks without moving the rotation. */
    next(rotation: Rotation, advance: boolean): RotatorLink | undefined {
      const now = nowTimestamp()
      const live = rotation.links.filter((link) => link.expiresAt === null || link.expiresAt > now)
      if (live.length === 0) return undefined
      const position = (positions.get(rotation.campaignId) ?? 0) % live.length
      if (advance) positions.set(rotation.campaignId, (position + 1) % live.length)
      return live[position]
    },
  }
}

export function registerCampaignPageRoutes(app: App, { db, config, clicks, invalidation }: ModuleDeps): void {
  const queries = createCampaignPageQueries(db, config.publicUrl)
  const rotations = createLruCache<string, Rotation>(ROTATOR_CACHE_ENTRIES, invalidation.maxStaleMs)
  const roundRobin = createRoundRobin()
  // A changed link or campaign may belong to any rotation; dropping them all is simple and cheap
  // (changes are rare next to visits, and each rotation costs one read to load again). A deleted
  // account takes its campaigns with it.
  invalidation.subscribe((topic) => {
    if (topic === ALIAS_TOPIC || topic === CAMPAIGN_TOPIC || topic === ACCOUNT_TOPIC) rotations.clear()
  })

  app.get('/r/:slug', {
    schema: { tags, summary: "Campaign rotator: redirects to the campaign's links in turn", security: [], params: RotatorParams },
  }, async (request, reply) => {
    const { slug } = request.params
    if (!SLUG_SHAPE.test(slug)) return sendNotFoundPage(reply)
    let rotation = rotations.get(slug)
    if (!rotation) {
      rotation = await queries.findRotation(slug)
      if (!rotation) return sendNotFoundPage(reply)
      rotations.set(slug, rotation)
    }
    // decisions §7: HEAD is answered like GET but leaves no trace (no click, no turn taken).
    const counted = request.method === 'GET'
    const link = roundRobin.next(rotation, counted)
    if (!link) return sendNotFoundPage(reply)
    if (counted) clicks.record(clickOf(request, { accountId: rotation.accountId, itemType: 'campaign', itemId: rotation.campaignId }))
    // Never cached: the next visit must take the next link.
    return reply.header('cache-control', 'private, max-age=0').redirect(link.target, 302)
  })

  app.get('/u/:username/:slugAndId', {
    schema: { tags, summary: "A public campaign's list page", security: [], params: ListPageParams },
  }, async (request, reply) => {
    const match = LIST_SEGMENT.exec(request.params.slugAndId)
    const id = Number(match?.[2])
    if (!match || !(id > 0 && id <= MAX_ID)) return sendNotFoundPage(reply)
    const campaign = await queries.findCampaignWithOwner(id)
    // The URL must be exactly the one the API hands out (campaignListUrl), and the page public.
    if (
      !campaign ||
      campaign.is_public !== 1 ||
      campaign.username !== request.params.username ||
      match[1] !== (campaign.slug ?? slugify(campaign.name))
    ) {
      return sendNotFoundPage(reply)
    }
    const links = await queries.listLiveLinks(campaign.account_id, campaign.id)
    const items = links.map((link) => {
      const shortUrl = shortUrlOf(config.publicUrl, link.domainOrigin, link.alias)
      // As on the rotator, a protected link's destination is never revealed: its short URL stands in.
      return html`<li><a class="button" href="${shortUrl}" rel="nofollow noopener">${link.title || (link.passwordHash ? shortUrl : link.url)}</a></li>`
    })
    return sendPage(reply, {
      title: campaign.name,
      body: html`<h1>${campaign.name}</h1>${items.length ? html`<ul class="blocks">${items}</ul>` : html`<p class="muted">No links yet.</p>`}`,
    })
  })
}
