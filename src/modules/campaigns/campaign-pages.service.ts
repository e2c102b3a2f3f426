// What a campaign's public addresses serve (decisions §6): the rotator sends each visitor to the
// campaign's next live link; the list page shows a public campaign's live links.
import { safeHttpUrl } from '../../core/urls.js'
import { isExpired, nowTimestamp } from '../../core/time.js'
import { ACCOUNT_TOPIC, ALIAS_TOPIC, CAMPAIGN_TOPIC, type InvalidationBus } from '../../core/invalidation.js'
import { createLruCache } from '../../core/lru-cache.js'
import { MAX_ID } from '../../core/schemas.js'
import { shortUrl } from '../aliases/alias-namespace.js'
import { slugify } from './campaign.mapper.js'
import { CAMPAIGN_SLUG_PATTERN } from './campaign.schemas.js'
import type { CampaignPagesRepository } from './campaign-pages.repository.js'

const ROTATOR_CACHE_ENTRIES = 1_000
const SLUG_SHAPE = new RegExp(CAMPAIGN_SLUG_PATTERN)
// `{slug-or-slugified-name}-{id}`: the id is the last dash-separated run of digits.
const LIST_SEGMENT = /^(.+)-(\d{1,10})$/

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

/** A public list page's content. */
export interface CampaignListPage {
  name: string
  links: { url: string; label: string }[]
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
      const live = rotation.links.filter((link) => !isExpired(link.expiresAt, now))
      if (live.length === 0) return undefined
      const position = (positions.get(rotation.campaignId) ?? 0) % live.length
      if (advance) positions.set(rotation.campaignId, (position + 1) % live.length)
      return live[position]
    },
  }
}

export interface CampaignPagesServiceOptions {
  /** Reads campaigns' rotations and public link lists (any account's: the pages are public). */
  pages: CampaignPagesRepository
  /** Tells of changed links, campaigns and accounts (cached rotations are dropped); its staleness bounds the cache. */
  invalidation: InvalidationBus
  /** The base of the short addresses the pages send visitors to. */
  publicUrl: string
}

export function createCampaignPagesService({ pages, invalidation, publicUrl }: CampaignPagesServiceOptions) {
  const rotations = createLruCache<string, Rotation>(ROTATOR_CACHE_ENTRIES, invalidation.maxStaleMs)
  const roundRobin = createRoundRobin()
  // A changed link or campaign may belong to any rotation; dropping them all is simple and cheap
  // (changes are rare next to visits, and each rotation costs one read to load again). A deleted
  // account takes its campaigns with it.
  invalidation.subscribe((topic) => {
    if (topic === ALIAS_TOPIC || topic === CAMPAIGN_TOPIC || topic === ACCOUNT_TOPIC) rotations.clear()
  })

  async function loadRotation(slug: string): Promise<Rotation | undefined> {
    const rows = await pages.findRotationRows(slug)
    const first = rows[0]
    if (!first) return undefined
    const links: RotatorLink[] = []
    for (const row of rows) {
      if (row.linkId === null || row.alias === null || row.url === null) continue
      // A protected link's destination is never revealed here: its short URL asks for the password.
      const target = row.passwordHash ? shortUrl(publicUrl, row.domainOrigin, row.alias) : safeHttpUrl(row.url)
      if (!target) continue
      links.push({ id: row.linkId, target, expiresAt: row.expiresAt })
    }
    return { campaignId: first.campaignId, accountId: first.accountId, links }
  }

  return {
    /**
     * The campaign (owner and id, for the click) and the link this visit of `/r/{slug}` goes to;
     * undefined for an unknown slug or a campaign without live links. `advance: false` for HEAD.
     */
    async rotate(slug: string, advance: boolean): Promise<{ rotation: Rotation; link: RotatorLink } | undefined> {
      // Nothing can be stored under a slug of another form: no read needed.
      if (!SLUG_SHAPE.test(slug)) return undefined
      let rotation = rotations.get(slug)
      if (!rotation) {
        rotation = await loadRotation(slug)
        if (!rotation) return undefined
        rotations.set(slug, rotation)
      }
      const link = roundRobin.next(rotation, advance)
      return link && { rotation, link }
    },

    /**
     * The list page at `/u/{username}/{slugAndId}`, or undefined unless the address is exactly the
     * one the API hands out (campaignListUrl) and the campaign is public.
     */
    async listPage(username: string, slugAndId: string): Promise<CampaignListPage | undefined> {
      const match = LIST_SEGMENT.exec(slugAndId)
      const id = Number(match?.[2])
      // Ids are 32-bit on PostgreSQL; a larger number would be a database error, not a miss.
      if (!match || !(id > 0 && id <= MAX_ID)) return undefined
      const campaign = await pages.findCampaignWithOwner(id)
      if (!campaign || campaign.is_public !== 1 || campaign.username !== username || match[1] !== (campaign.slug ?? slugify(campaign.name))) {
        return undefined
      }
      const links = await pages.listLiveLinks(campaign.account_id, campaign.id)
      return {
        name: campaign.name,
        links: links.map((link) => {
          const url = shortUrl(publicUrl, link.domainOrigin, link.alias)
          // As on the rotator, a protected link's destination is never revealed: its short URL stands in.
          return { url, label: link.title || (link.passwordHash ? url : link.url) }
        }),
      }
    },
  }
}

export type CampaignPagesService = ReturnType<typeof createCampaignPagesService>
