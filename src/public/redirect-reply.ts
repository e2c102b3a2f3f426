// The redirects visitors get (short links, rotators, QR tracking addresses, branded roots).
import type { FastifyReply } from 'fastify'

/** A redirect that no shared cache keeps: see sendRedirect. */
export const REDIRECT_CACHE_CONTROL = 'private, max-age=0'

/**
 * A redirect that no shared cache keeps: targeting, rotation and counting need every visit to reach
 * us. A short link's own redirect may be a 301 when the operator chose it (REDIRECT_STATUS).
 */
export function sendRedirect(reply: FastifyReply, location: string, status: 301 | 302 = 302): FastifyReply {
  return reply.header('cache-control', REDIRECT_CACHE_CONTROL).redirect(location, status)
}
