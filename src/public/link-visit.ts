// The answer to a visit (modules/visits/visit.service.ts decides it; this renders it): a redirect,
// or the page a followed link goes through (pixel page, splash interstitial, frame with its
// overlay), the password form, the expired notice (or the expired link's fallback address), a bio
// page, or the 404 page.
import type { FastifyReply } from 'fastify'
import type { Visit } from '../modules/visits/visit.service.js'
import { sendBioPage } from './bio-page.view.js'
import { sendFramePage } from './frame-page.js'
import { sendNotFoundPage } from './html.js'
import { pixelScriptsOf, sendExpiredPage, sendPasswordPage, sendPixelPage, sendSplashPage } from './link-pages.js'
import { pixelSnippetOf } from './pixel-snippets.js'
import { sendRedirect } from './redirect-reply.js'
import { sendSocialCardPage } from './social-card.js'

/** Renders `visit`; `publicUrl` is the base of a bio page's canonical address. */
export function sendVisit(reply: FastifyReply, visit: Visit, publicUrl: string): FastifyReply {
  switch (visit.kind) {
    case 'unknown':
      return visit.redirect ? sendRedirect(reply, visit.redirect) : sendNotFoundPage(reply)
    case 'expired':
      return visit.fallback ? sendRedirect(reply, visit.fallback) : sendExpiredPage(reply)
    case 'locked':
      return sendPasswordPage(reply, visit.link)
    case 'card':
      return sendSocialCardPage(reply, visit, publicUrl)
    case 'bio':
      return sendBioPage(reply, visit.page, { publicUrl })
    case 'link': {
      const { link, destination, page } = visit
      if (page.kind === 'redirect') return sendRedirect(reply, destination, page.status)
      const pixels = pixelScriptsOf(link.pixels.map((pixel) => pixelSnippetOf(pixel.type, pixel.tag)))
      if (page.kind === 'splash') return sendSplashPage(reply, link, destination, pixels)
      if (page.kind === 'frame') return sendFramePage(reply, link, destination, page.frameOrigin, pixels)
      return sendPixelPage(reply, link, destination, pixels!)
    }
  }
}
