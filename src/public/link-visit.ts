// The answer to a visit (modules/visits/visit.service.ts decides it; this renders it): a redirect
// (redirectOf), or the page a followed link goes through (pixel page, splash interstitial, frame
// with its overlay), the password form, the expired notice, a social card, a bio page, or the 404
// page. Both transports answer a visit through createVisitAnswers, which also hands its click to
// the recorder: the one place a visit is counted.
import type { ServerResponse } from 'node:http'
import type { FastifyReply } from 'fastify'
import type { Visit, VisitService } from '../modules/visits/visit.service.js'
import { sendBioPage } from './bio-page.view.js'
import { sendFramePage } from './frame-page.js'
import { sendNotFoundPage } from './html.js'
import { pixelScriptsOf, sendExpiredPage, sendPasswordPage, sendPixelPage, sendSplashPage } from './link-pages.js'
import { pixelSnippetOf } from './pixel-snippets.js'
import { redirectOf, sendRedirectOf } from './redirect-reply.js'
import { sendSocialCardPage } from './social-card.js'

/** Renders `visit` through the router's reply; `publicUrl` is the base of a bio page's canonical address. */
function sendVisit(reply: FastifyReply, visit: Visit, publicUrl: string): FastifyReply {
  const redirect = redirectOf(visit)
  if (redirect) return sendRedirectOf(reply, redirect)
  switch (visit.kind) {
    case 'unknown':
      return sendNotFoundPage(reply)
    case 'expired':
      return sendExpiredPage(reply)
    case 'locked':
      return sendPasswordPage(reply, visit.link)
    case 'card':
      return sendSocialCardPage(reply, visit, publicUrl)
    case 'bio':
      return sendBioPage(reply, visit.page, { publicUrl })
    case 'link': {
      const { link, destination, page } = visit
      const pixels = pixelScriptsOf(link.pixels.map((pixel) => pixelSnippetOf(pixel.type, pixel.tag)))
      switch (page.kind) {
        case 'splash':
          return sendSplashPage(reply, link, destination, pixels)
        case 'frame':
          return sendFramePage(reply, link, destination, page.frameOrigin, pixels)
        case 'pixels':
          return sendPixelPage(reply, link, destination, pixels!)
        case 'redirect':
          throw new Error('a plain redirect is answered by redirectOf')
      }
    }
  }
}

export interface VisitAnswers {
  /** Answers `visit` through the router's reply, then counts it. */
  send(reply: FastifyReply, visit: Visit): FastifyReply
  /**
   * Writes `visit` on a bare node:http response when it is a redirect, with `headers` (those every
   * answer gets), and counts it; false, having written and taken nothing, when it is a page or
   * node refuses a header (the router then answers it in full).
   */
  writeRedirect(response: ServerResponse, visit: Visit, headers: Record<string, string>): boolean
}

export function createVisitAnswers({ visits, publicUrl }: { visits: Pick<VisitService, 'count' | 'abandon'>; publicUrl: string }): VisitAnswers {
  return {
    send(reply, visit) {
      const sent = sendVisit(reply, visit, publicUrl)
      visits.count(visit)
      return sent
    },
    writeRedirect(response, visit, headers) {
      const redirect = redirectOf(visit)
      if (redirect === null) {
        visits.abandon(visit)
        return false
      }
      // Written in one call; a header value node refuses throws here, before anything is sent.
      try {
        response.writeHead(redirect.status, { ...redirect.headers, ...headers, 'content-length': 0 })
      } catch {
        // The router decides the visit anew: what this one took is given back.
        visits.abandon(visit)
        return false
      }
      response.end()
      visits.count(visit)
      return true
    },
  }
}
