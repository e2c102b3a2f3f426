// What a (host, alias) serves: a link, a bio page or nothing, in any letter case (`/promo` finds
// `/Promo`: docs/adr/006-alias-case.md). The redirect path's speed lives here: an in-process LRU
// answers hits with no database read; a miss costs one read for a link and, on the main host only
// when there is none, one for a bio page. Negative answers are cached too. Entries are dropped when
// the alias topic announces a change and expire after the bus's maxStaleMs, which bounds
// staleness when an announcement is lost.
import type { BioPageRow } from '../../db/schema.js'
import type { AliasResolverRepository, StoredPublicLink } from './alias-resolver.repository.js'
import { aliasKey, isServableAlias } from '../aliases/alias-namespace.js'
import { parseStoredTargeting, type LinkTargeting } from '../links/link-targeting.js'
import { hasOptions, parseStoredOptions, type LinkOptions } from '../links/link-options.js'
import { readOverlayContent, type OverlayContent } from '../overlays/overlay-config.js'
import { isPixelType, type PixelType } from '../pixels/pixel-tags.js'
import { readSplashContent, type SplashContent } from '../splash-pages/splash-page-config.js'
import { createLruCache, type CacheCounts } from '../../core/lru-cache.js'
import { DEFAULT_CLICK_ID_PARAMETER } from '../../core/click-ids.js'
import { type InvalidationBus, ACCOUNT_TOPIC, ALIAS_TOPIC, DOMAIN_TOPIC, OVERLAY_TOPIC, PIXEL_TOPIC, SPLASH_TOPIC } from '../../core/invalidation.js'

export type LinkType = 'direct' | 'frame' | 'splash' | 'overlay'

/** A link, parsed once when it enters the cache: the stored row with its JSON fields read. */
export interface PublicLink extends Omit<StoredPublicLink, 'type' | 'targeting' | 'options' | 'splashConfig' | 'overlay' | 'pixels' | 'broken' | 'cardToken' | 'workspace'> {
  type: LinkType
  targeting: LinkTargeting
  /** Null for a link without options (issue 23): a visit of such a link checks this one field. */
  options: LinkOptions | null
  /** Null for a `splash` link without a splash page: the generic interstitial. */
  splash: SplashContent | null
  overlay: OverlayContent | null
  /** Pixels of the providers Linkwell knows (a hand-edited row's unknown type is left out). */
  pixels: readonly { type: PixelType; tag: string }[]
  /**
   * What link-preview fetchers are shown instead of the redirect (issue 23, social cards): the
   * card's token (null without a card) with the meta title and description. Null for a link with
   * neither a card nor meta text: bots are redirected as people are, and no user agent is read.
   */
  socialCard: { token: string | null } | null
  /** The parameter each click's id is appended as when the link tracks conversions, else null (ADR 034). */
  clickIdParameter: string | null
  /** Whether visitors' query strings reach the destination: the link's `passthrough`, else the workspace's. */
  passthrough: boolean
}

export type ResolvedAlias = { kind: 'link'; link: PublicLink } | { kind: 'bio'; page: BioPageRow } | { kind: 'none' }

export interface AliasResolver {
  resolve(host: string, alias: string): Promise<ResolvedAlias>
  /**
   * What `resolve` would answer when it can answer from memory (a cached entry, or an alias no
   * record can have); undefined when it would read the database. Never reads, never waits.
   */
  peek(host: string, alias: string): ResolvedAlias | undefined
  /** Answers from memory, and database reads (a miss of `peek` that `resolve` then reads counts once). */
  readonly counts: Readonly<CacheCounts>
}

export interface AliasResolverOptions {
  /** Reads a link (with its splash page, overlay and pixels) or a bio page by its address. */
  lookups: AliasResolverRepository
  /** Tells of changed records (their cached aliases are dropped); its staleness bounds the cache. */
  invalidation: InvalidationBus
  /** The most aliases kept in memory; 10,000 unless given. */
  maxEntries?: number
}

/**
 * Topics whose records are copied into cached links, plus accounts (a deleted account's links and
 * bio pages go with it, unannounced per alias) and domains (a claim released to the workspace that
 * proved control of its name serves none of its links, ADR 031): a change of one drops every cached alias.
 */
const EMBEDDED_TOPICS = new Set([OVERLAY_TOPIC, SPLASH_TOPIC, PIXEL_TOPIC, ACCOUNT_TOPIC, DOMAIN_TOPIC])

const LINK_TYPES: readonly string[] = ['direct', 'frame', 'splash', 'overlay']

/** Turns the stored row into what the pages use; unknown types serve as `direct`. */
export function toPublicLink(stored: StoredPublicLink): PublicLink {
  const options = optionsOf(stored.options, stored.broken === true)
  return {
    id: stored.id,
    accountId: stored.accountId,
    clicks: stored.clicks,
    alias: stored.alias,
    url: stored.url,
    title: stored.title,
    description: stored.description,
    passwordHash: stored.passwordHash,
    expiresAt: stored.expiresAt,
    type: LINK_TYPES.includes(stored.type) ? (stored.type as LinkType) : 'direct',
    targeting: parseStoredTargeting(stored.targeting),
    options,
    splash: stored.splashConfig === null ? null : readSplashContent(stored.splashConfig),
    overlay: stored.overlay ? readOverlayContent(stored.overlay) : null,
    pixels: stored.pixels.filter((pixel): pixel is { type: PixelType; tag: string } => isPixelType(pixel.type)),
    socialCard: stored.cardToken || stored.title || stored.description ? { token: stored.cardToken ?? null } : null,
    clickIdParameter: options?.trackConversions === true ? stored.workspace?.clickIdParameter ?? DEFAULT_CLICK_ID_PARAMETER : null,
    passthrough: options?.passthrough ?? stored.workspace?.queryPassthrough ?? false,
  }
}

function optionsOf(stored: string, broken: boolean): LinkOptions | null {
  // Most links have none: their column holds '{}', read without parsing.
  if (stored === '{}') return null
  const options = parseStoredOptions(stored)
  // `brokenurl` is kept only while the destination is broken: a visit then needs no other field.
  if (!broken) options.brokenUrl = null
  return hasOptions(options) ? options : null
}

const NOTHING: ResolvedAlias = Object.freeze({ kind: 'none' })

export function createAliasResolver(options: AliasResolverOptions): AliasResolver {
  const { lookups, invalidation } = options
  // Keyed by aliasKey (lower-cased alias), the key changes are announced under: every spelling of
  // an alias is one address, so one entry answers them all.
  const cache = createLruCache<string, ResolvedAlias>(options.maxEntries ?? 10_000, invalidation.maxStaleMs)
  const inFlight = new Map<string, Promise<ResolvedAlias>>()
  // A read that started before an invalidation may carry the old record: it is answered but not cached.
  let generation = 0
  const counts: CacheCounts = { hits: 0, misses: 0 }

  invalidation.subscribe((topic, key) => {
    if (topic === ALIAS_TOPIC) cache.delete(key)
    else if (EMBEDDED_TOPICS.has(topic)) cache.clear()
    else return
    generation += 1
    inFlight.clear()
  })

  async function read(host: string, alias: string): Promise<ResolvedAlias> {
    const link = await lookups.findLinkByHostAndAlias(host, alias)
    if (link) return { kind: 'link', link: toPublicLink(link) }
    // Bio pages live on the main host only.
    if (host !== '') return NOTHING
    const page = await lookups.findBioPageByAlias(alias)
    return page ? { kind: 'bio', page } : NOTHING
  }

  function fromMemory(host: string, alias: string): ResolvedAlias | undefined {
    // Nothing can be stored at a reserved path or an alias no source gives out: no read needed.
    // Any other form may be an imported address (ADR 028): `1`, `blog.post`, `docs/intro`, `über`.
    if (!isServableAlias(alias)) return NOTHING
    const cached = cache.get(aliasKey(host, alias))
    if (cached) counts.hits += 1
    return cached
  }

  return {
    peek: fromMemory,
    counts,
    async resolve(host, alias) {
      const known = fromMemory(host, alias)
      if (known) return known
      counts.misses += 1
      const key = aliasKey(host, alias)

      // Concurrent misses of one alias, in whatever spellings, share one read.
      const pending = inFlight.get(key)
      if (pending) return pending
      const startedAt = generation
      const reading = read(host, alias)
        .then((resolved) => {
          if (generation === startedAt) cache.set(key, resolved)
          return resolved
        })
        .finally(() => {
          if (inFlight.get(key) === reading) inFlight.delete(key)
        })
      inFlight.set(key, reading)
      return reading
    },
  }
}
