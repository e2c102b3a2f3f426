// One home for a visit of a short address: what it serves (a link, a bio page or nothing, on the
// main host or a branded domain), whether a link can be followed (expiry by date or by its click
// cap, and then its fallback address; password), where it
// sends this visitor (targeting) and through which page (redirect, pixel page, splash, frame), and
// the click the visit records. Two thin transports call it: the Fastify routes
// (public/redirect.routes.ts), which render the page it names, and the front door's short path
// (public/cached-redirect.ts), which answers from memory the visits that are a bare redirect.
// Both get their answers from the same functions below, so they cannot drift apart.
import type { ClickEvent } from '../../analytics/click-items.js'
import type { ClickRecorder } from '../../analytics/click-recorder.js'
import { countryOf } from '../../analytics/geo.js'
import { isExpired } from '../../core/time.js'
import { safeHttpUrl } from '../../core/urls.js'
import { newClickId } from '../../core/click-ids.js'
import { withQueryParameters } from '../../core/query-parameters.js'
import type { BioPageRow } from '../../db/schema.js'
import type { AliasResolver, PublicLink, ResolvedAlias } from './alias-resolver.js'
import { policyOriginOf } from './frame-origin.js'
import type { HostNamespace, HostRouter } from './host-router.js'
import { createClickCaps } from './click-caps.js'
import { linkPasswordMatches } from './link-password.js'
import { isBot, isPreviewFetcher } from '../../analytics/visitor-reading.js'
import { destinationOf, variantOf } from './targeting.js'
import { clickOf, headerText, type VisitRequest } from './visitor.js'

/** The page a followed link answers with. */
export type LinkPage =
  | { kind: 'redirect'; status: 301 | 302 }
  /** The pixel page: the providers' scripts load, then the visitor is forwarded. */
  | { kind: 'pixels' }
  /** The splash interstitial (the link's splash page, or the generic one). */
  | { kind: 'splash' }
  /** The destination in a frame, under a bar (and the link's overlay); `frameOrigin` may be framed. */
  | { kind: 'frame'; frameOrigin: string }

/** What a visit of an address gets. `click` is the visit to record (null for HEAD, which is not counted). */
export type Visit =
  /** Nothing to follow here: a branded domain's `redirect404` when it has one, else the 404 page. */
  | { kind: 'unknown'; redirect: string | null }
  /** Expired by date or by its click cap: redirected to `fallback` (the link's `expiredurl`), else the expired page. */
  | { kind: 'expired'; fallback: string | null }
  /** A link behind a password: the form first (nothing is counted until it is right). */
  | { kind: 'locked'; link: PublicLink }
  | { kind: 'bio'; page: BioPageRow; click: ClickEvent | null }
  | { kind: 'link'; link: PublicLink; destination: string; page: LinkPage; click: ClickEvent | null }
  /** A link-preview fetcher (a bot) at a link with a social card or meta text: the card's tags, no redirect, nothing counted. */
  | { kind: 'card'; link: PublicLink; card: NonNullable<PublicLink['socialCard']> }

/** What `/` of a host serves: the dashboard (main host), a branded domain's `redirectroot`, or the 404 page. */
export type RootVisit = { kind: 'dashboard' } | { kind: 'redirect'; url: string } | { kind: 'unknown' }

/** A link that can be followed, or the visit that says why not. */
export type LiveLink = { kind: 'live'; link: PublicLink } | Extract<Visit, { kind: 'unknown' | 'expired' }>

/** Where a visit is addressed: the request's Host header and the path's one segment. */
export interface VisitAddress {
  host: string | undefined
  alias: string
}

export interface VisitServiceOptions {
  aliasResolver: AliasResolver
  hostRouter: HostRouter
  clicks: ClickRecorder
  /** The status of a link's plain redirect (REDIRECT_STATUS). */
  redirectStatus: 301 | 302
  /** The visitor's country (geo targeting); the offline DB-IP lookup by default. */
  countryOf?: (ip: string) => Promise<string | null>
  /** Re-hashes an imported (bcrypt) password hash with Linkwell's scheme once the right password was given. */
  upgradePassword?: (linkId: number, from: string, password: string) => Promise<void>
}

const NOT_FOUND: Visit = Object.freeze({ kind: 'unknown', redirect: null })
const NOTHING: ResolvedAlias = Object.freeze({ kind: 'none' })
const EXPIRED: Visit = Object.freeze({ kind: 'expired', fallback: null })
const PIXEL_PAGE: LinkPage = Object.freeze({ kind: 'pixels' })
const SPLASH_PAGE: LinkPage = Object.freeze({ kind: 'splash' })

export function createVisitService(options: VisitServiceOptions) {
  const { aliasResolver, hostRouter, clicks } = options
  const lookUpCountry = options.countryOf ?? countryOf
  const redirectPage: LinkPage = Object.freeze({ kind: 'redirect', status: options.redirectStatus })
  // Capped links' clicks as this instance knows them, kept up to date by every written batch.
  const caps = createClickCaps()
  clicks.afterCommit(({ linkCounters }) => linkCounters.size > 0 && caps.written(linkCounters))

  function unknownIn(namespace: HostNamespace | null): Visit {
    const redirect = safeHttpUrl(namespace?.domain?.redirect404)
    return redirect ? { kind: 'unknown', redirect } : NOT_FOUND
  }

  /** The page for a link whose destination is chosen. */
  function pageOf(link: PublicLink, destination: string): LinkPage {
    if (link.type === 'splash') return SPLASH_PAGE
    if (link.type === 'frame' || link.type === 'overlay') {
      // A destination whose origin cannot be named in the page's policy is not framed: it is linked to.
      const frameOrigin = policyOriginOf(destination)
      if (frameOrigin) return { kind: 'frame', frameOrigin }
    }
    return link.pixels.length > 0 ? PIXEL_PAGE : redirectPage
  }

  /** What visitors of `link` get once it has expired: its fallback address, or the expired page. */
  function expiredVisitOf(link: PublicLink): Visit {
    const fallback = safeHttpUrl(link.options?.expiredUrl)
    return fallback ? { kind: 'expired', fallback } : EXPIRED
  }

  /** The visit of a live, unlocked link for a visitor whose country is known when the link needs it. */
  function follow(request: VisitRequest, link: PublicLink, country: string | null, counted: boolean): Visit {
    // Only a link with a card (or meta text) reads the user agent: every other visit checks one field.
    // Link-preview fetchers get the card; people and every other bot (curl, monitors) the redirect.
    const card = link.socialCard
    if (card !== null) {
      const userAgent = headerText(request.headers['user-agent'])
      if (isBot(userAgent) && isPreviewFetcher(userAgent)) return { kind: 'card', link, card }
    }
    const limit = link.options === null ? null : link.options.clickLimit
    if (limit !== null && caps.reached(link, limit)) return expiredVisitOf(link)
    const variant = link.options === null || link.options.variants === null ? null : variantOf(request, link.options.variants)
    // While the checker finds the destination broken, its fallback replaces every choice (ADR 026).
    const destination = link.options !== null && link.options.brokenUrl !== null ? link.options.brokenUrl : destinationOf(request, link, country, variant)
    if (!destination) return NOT_FOUND
    const click = counted ? clickOf(request, { accountId: link.accountId, itemType: 'link', itemId: link.id }) : null
    // Clicks per variant are counted (statistics); the visitor's app link or targeting may still have won.
    if (click !== null && variant !== null) click.variant = variant
    // Taken as the visit is decided, before any other visit can be: exactly `limit` get through.
    if (limit !== null && click !== null && clicks.counts(click)) caps.take(link)
    // A tracked click's id is made here, on the request, and travels with the click to the recorder
    // (ADR 004, 034): no database round trip. A click that is not recorded (HEAD) gets none.
    if (click !== null && link.clickIdParameter !== null) {
      click.clickId = newClickId()
      const tracked = withQueryParameters(destination, [[link.clickIdParameter, click.clickId]])
      return { kind: 'link', link, destination: tracked, page: pageOf(link, tracked), click }
    }
    return { kind: 'link', link, destination, page: pageOf(link, destination), click }
  }

  /** True when `visit` took a click of a capped link (given back if it is not recorded). */
  function tookCappedClick(visit: Visit): visit is Extract<Visit, { kind: 'link' }> {
    return visit.kind === 'link' && visit.click !== null && visit.link.options !== null && visit.link.options.clickLimit !== null && clicks.counts(visit.click)
  }

  /** What a resolved address is for this visitor, short of a country look-up (`country` given when needed). */
  function visitOf(request: VisitRequest, namespace: HostNamespace | null, resolved: ResolvedAlias, counted: boolean, country: string | null): Visit {
    if (resolved.kind === 'none') return unknownIn(namespace)
    if (resolved.kind === 'bio') {
      const { page } = resolved
      return { kind: 'bio', page, click: counted ? clickOf(request, { accountId: page.account_id, itemType: 'bio', itemId: page.id }) : null }
    }
    const { link } = resolved
    if (isExpired(link.expiresAt)) return expiredVisitOf(link)
    if (link.passwordHash !== null) return { kind: 'locked', link }
    return follow(request, link, country, counted)
  }

  const needsCountry = (resolved: ResolvedAlias) => resolved.kind === 'link' && resolved.link.targeting.geo.length > 0

  async function resolve(address: VisitAddress): Promise<{ namespace: HostNamespace | null; resolved: ResolvedAlias }> {
    const namespace = await hostRouter.namespaceOf(address.host)
    // A host that is neither the main one nor a branded domain serves no link (ADR 028).
    if (namespace === null) return { namespace, resolved: NOTHING }
    return { namespace, resolved: await aliasResolver.resolve(namespace.host, address.alias) }
  }

  return {
    /** How often the alias cache answered, and how often a visit read the database (metrics). */
    aliasCache: aliasResolver.counts,

    /** A visit of `GET|HEAD /{alias}`; `counted` is false for HEAD. */
    async visit(request: VisitRequest, address: VisitAddress, counted: boolean): Promise<Visit> {
      const { namespace, resolved } = await resolve(address)
      const country = needsCountry(resolved) ? await lookUpCountry(request.ip) : null
      return visitOf(request, namespace, resolved, counted, country)
    },

    /**
     * The same visit when everything it needs is in memory (the host's namespace, the alias, no
     * country look-up); undefined when answering would read the database or wait.
     */
    visitFromMemory(request: VisitRequest, address: VisitAddress, counted: boolean): Visit | undefined {
      const namespace = hostRouter.peekNamespace(address.host)
      if (namespace === undefined) return undefined
      const resolved = namespace === null ? NOTHING : aliasResolver.peek(namespace.host, address.alias)
      if (!resolved || needsCountry(resolved)) return undefined
      return visitOf(request, namespace, resolved, counted, null)
    },

    /** The link at an address when it can be followed (the password form's and the contact form's posts). */
    async findLiveLink(address: VisitAddress): Promise<LiveLink> {
      const { namespace, resolved } = await resolve(address)
      if (resolved.kind !== 'link') return unknownIn(namespace) as LiveLink
      if (isExpired(resolved.link.expiresAt)) return expiredVisitOf(resolved.link) as LiveLink
      return { kind: 'live', link: resolved.link }
    },

    /** The visit of a live link whose password, if any, was given right. */
    async unlockedVisit(request: VisitRequest, link: PublicLink): Promise<Visit> {
      const country = link.targeting.geo.length > 0 ? await lookUpCountry(request.ip) : null
      return follow(request, link, country, true)
    },

    /** True when `password` opens `link` (a link without one needs none). */
    async passwordOpens(link: PublicLink, password: string): Promise<boolean> {
      if (link.passwordHash === null) return true
      const opens = await linkPasswordMatches(password, link.passwordHash)
      if (opens) await options.upgradePassword?.(link.id, link.passwordHash, password)
      return opens
    },

    /** What `/` of the request's host serves. */
    async root(host: string | undefined): Promise<RootVisit> {
      // Any host that is no branded domain leads to the dashboard, which answers on every such host.
      const domain = (await hostRouter.namespaceOf(host))?.domain
      if (!domain) return { kind: 'dashboard' }
      const url = safeHttpUrl(domain.redirectRoot)
      return url ? { kind: 'redirect', url } : { kind: 'unknown' }
    },

    /** True when the request's host is a branded domain (whose `/app/` is no dashboard). */
    async isBrandedHost(host: string | undefined): Promise<boolean> {
      return ((await hostRouter.namespaceOf(host))?.domain ?? null) !== null
    },

    /** Hands the visit's click, if it has one, to the recorder (after its answer is on its way). */
    count(visit: Visit): void {
      if (!('click' in visit) || !visit.click) return
      // A capped link's click the recorder could not queue (its queue full) is given back.
      if (!clicks.record(visit.click) && tookCappedClick(visit)) caps.giveBack(visit.link.id)
    },

    /** Gives back what a decided visit took that will not be answered after all (the short path's fallback to the router). */
    abandon(visit: Visit): void {
      if (tookCappedClick(visit)) caps.giveBack(visit.link.id)
    },

    /** Records a visit of an item served elsewhere (a QR scan, a rotator turn); never for HEAD. */
    countItem(request: VisitRequest, item: Pick<ClickEvent, 'accountId' | 'itemType' | 'itemId'>): void {
      clicks.record(clickOf(request, item))
    },
  }
}

export type VisitService = ReturnType<typeof createVisitService>
