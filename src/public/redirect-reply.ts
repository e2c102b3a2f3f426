// The redirects visitors get (short links, rotators, QR tracking addresses, branded roots), and the
// one answer to "is this visit a bare redirect, and which": redirectOf. The router's routes
// (reply) and the front door's short path (node:http) both write what it answers.
import type { FastifyReply } from 'fastify'
import type { Visit } from '../modules/visits/visit.service.js'

/** A redirect that no shared cache keeps: targeting, rotation and counting need every visit to reach us. */
export const REDIRECT_CACHE_CONTROL = 'private, max-age=0'

/** A redirect's status and its own headers (those every answer gets, x-request-id and the like, come from app.ts). */
export interface Redirect {
  status: 301 | 302
  headers: { 'cache-control': string; location: string }
}

/** A redirect to `location`; a short link's own may be a 301 when the operator chose it (REDIRECT_STATUS). */
export function redirectTo(location: string, status: 301 | 302 = 302): Redirect {
  return { status, headers: { 'cache-control': REDIRECT_CACHE_CONTROL, location } }
}

/**
 * The redirect `visit` is answered with, or null when its answer is a page (password form, pixel
 * page, splash, frame, bio page, card, expired or not-found page).
 */
export function redirectOf(visit: Visit): Redirect | null {
  switch (visit.kind) {
    case 'link':
      return visit.page.kind === 'redirect' ? redirectTo(visit.destination, visit.page.status) : null
    // An expired link's fallback address (issue 23); a branded domain's redirect404.
    case 'expired':
      return visit.fallback === null ? null : redirectTo(visit.fallback)
    case 'unknown':
      return visit.redirect === null ? null : redirectTo(visit.redirect)
    default:
      return null
  }
}

/** Sends `redirect` through the router's reply. */
export function sendRedirectOf(reply: FastifyReply, redirect: Redirect): FastifyReply {
  return reply.code(redirect.status).headers(redirect.headers).send()
}

/** Sends a redirect to `location` (see redirectTo). */
export function sendRedirect(reply: FastifyReply, location: string, status: 301 | 302 = 302): FastifyReply {
  return sendRedirectOf(reply, redirectTo(location, status))
}
