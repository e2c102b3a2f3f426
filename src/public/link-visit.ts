// A counted visit of a link that is neither expired nor locked: choose the destination for this
// visitor, hand the click to the recorder (never for HEAD), and answer by the link's type:
// a 302, the pixel page, a splash interstitial, or the frame page (with its overlay).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sendRedirect } from './redirect-reply.js'
import type { ClickRecorder } from '../analytics/click-recorder.js'
import { countryOf } from '../analytics/geo.js'
import type { PublicLink } from '../modules/redirects/alias-resolver.js'
import { sendFramePage } from './frame-page.js'
import { sendNotFoundPage } from './html.js'
import { pixelScriptsOf, sendPixelPage, sendSplashPage } from './link-pages.js'
import { pixelSnippetOf, type PixelSnippet } from './pixel-snippets.js'
import { policyOriginOf } from './policy-origin.js'
import { chooseDestination, hasTargeting } from '../modules/redirects/targeting.js'
import { deviceNamesOf, preferredLanguagesOf } from '../analytics/visitor-parser.js'
import { clickOf, headerText, type VisitRequest } from './visitor.js'
import { safeHttpUrl } from '../core/urls.js'

/**
 * Where this visitor goes: the targeting rule that matches (geo, then device, then language),
 * else the link's URL; only what the rules need is looked at. Null when no http(s) URL is left.
 * `country` is the visitor's, looked up by the caller only when the link has geo rules.
 */
export function destinationOf(request: VisitRequest, link: PublicLink, country: string | null): string | null {
  const { targeting } = link
  if (!hasTargeting(targeting)) return safeHttpUrl(link.url)
  const chosen = chooseDestination(link.url, targeting, {
    country,
    devices: targeting.device.length > 0 ? deviceNamesOf(headerText(request.headers['user-agent'])) : [],
    languages: targeting.language.length > 0 ? preferredLanguagesOf(headerText(request.headers['accept-language'])) : [],
  })
  return safeHttpUrl(chosen) ?? safeHttpUrl(link.url)
}

/** destinationOf with the visitor's country looked up when the link's rules need it. */
export async function destinationFor(request: VisitRequest, link: PublicLink): Promise<string | null> {
  return destinationOf(request, link, link.targeting.geo.length > 0 ? await countryOf(request.ip) : null)
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
