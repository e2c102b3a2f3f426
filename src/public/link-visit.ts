// A counted visit of a link that is neither expired nor locked: choose the destination for this
// visitor, hand the click to the recorder (never for HEAD), and answer by the link's type:
// a 302, the pixel page, a splash interstitial, or the frame page (with its overlay).
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ClickRecorder } from '../analytics/click-recorder.js'
import { countryOf } from '../analytics/geo.js'
import type { PublicLink } from './alias-resolver.js'
import { sendFramePage } from './frame-page.js'
import { sendNotFoundPage } from './html.js'
import { pixelScriptsOf, sendPixelPage, sendSplashPage } from './link-pages.js'
import { pixelSnippetOf, type PixelSnippet } from './pixel-snippets.js'
import { policyOriginOf, safeHttpUrl } from './safe-url.js'
import { chooseDestination, hasTargeting } from './targeting.js'
import { clickOf, deviceNamesOf, headerText, preferredLanguagesOf } from './visitor.js'

/** True when the link's expiry has passed (stored UTC text compares in time order). */
export function isExpired(link: PublicLink, now: string): boolean {
  return link.expiresAt !== null && link.expiresAt <= now
}

/**
 * Where this visitor goes: the targeting rule that matches (geo, then device, then language),
 * else the link's URL; only what the rules need is looked at. Null when no http(s) URL is left.
 */
export async function destinationFor(request: FastifyRequest, link: PublicLink): Promise<string | null> {
  const { targeting } = link
  if (!hasTargeting(targeting)) return safeHttpUrl(link.url)
  const chosen = chooseDestination(link.url, targeting, {
    country: targeting.geo.length > 0 ? await countryOf(request.ip) : null,
    devices: targeting.device.length > 0 ? deviceNamesOf(headerText(request.headers['user-agent'])) : [],
    languages: targeting.language.length > 0 ? preferredLanguagesOf(headerText(request.headers['accept-language'])) : [],
  })
  return safeHttpUrl(chosen) ?? safeHttpUrl(link.url)
}

/**
 * A redirect that no shared cache keeps: targeting and counting need every visit to reach us.
 * A short link's own redirect may be a 301 when the operator chose it (REDIRECT_STATUS).
 */
export function sendRedirect(reply: FastifyReply, location: string, status: 301 | 302 = 302): FastifyReply {
  return reply.header('cache-control', 'private, max-age=0').redirect(location, status)
}

/** Serves the visit and records the click. */
export async function sendLinkVisit(request: FastifyRequest, reply: FastifyReply, link: PublicLink, clicks: ClickRecorder, redirectStatus: 301 | 302 = 302): Promise<FastifyReply> {
  const destination = await destinationFor(request, link)
  if (!destination) return sendNotFoundPage(reply)
  if (request.method !== 'HEAD') clicks.record(clickOf(request, { accountId: link.accountId, itemType: 'link', itemId: link.id }))

  const snippets = link.pixels.map((pixel) => pixelSnippetOf(pixel.type, pixel.tag)).filter((snippet): snippet is PixelSnippet => snippet !== null)
  const pixels = pixelScriptsOf(snippets)
  if (link.type === 'splash') return sendSplashPage(reply, link, destination, pixels)
  if (link.type === 'frame' || link.type === 'overlay') {
    // A destination whose origin cannot be named in the policy is not framed: it is linked to.
    const frameOrigin = policyOriginOf(destination)
    if (frameOrigin) return sendFramePage(reply, link, destination, frameOrigin, pixels)
  }
  if (pixels) return sendPixelPage(reply, link, destination, pixels)
  return sendRedirect(reply, destination, redirectStatus)
}
