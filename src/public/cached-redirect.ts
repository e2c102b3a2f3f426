// The redirect path at its shortest (STYLE habit 8): a GET or HEAD of `/{alias}` whose answer is
// already in memory (the host's namespace and the alias cached, a live direct link without
// password, pixels or geo rules) is answered from node:http before Fastify builds a request and
// a reply for it: same status and headers, same destination choice, the click handed to the same
// recorder. Anything else, and anything unexpected, goes on to the general router, which answers
// it in full; the parity tests (test/public/cached-redirect.test.ts) send the same requests both ways.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ClickRecorder } from '../analytics/click-recorder.js'
import { isExpired } from '../core/time.js'
import { clientAddressOf, type ProxyTrust } from '../http/client-address.js'
import type { AliasResolver } from '../modules/redirects/alias-resolver.js'
import type { HostRouter } from '../modules/redirects/host-router.js'
import { REDIRECT_CACHE_CONTROL } from './redirect-reply.js'
import { destinationOf } from './link-visit.js'
import { clickOf } from './visitor.js'

export interface CachedRedirectOptions {
  aliasResolver: AliasResolver
  hostRouter: HostRouter
  clicks: ClickRecorder
  redirectStatus: 301 | 302
  /** The proxies allowed to name the client (X-Forwarded-For): the rule Fastify's trustProxy is given; null for none. */
  proxyTrust: ProxyTrust | null
  /** The request id, as Fastify's genReqId makes it. */
  requestIdOf(headers: IncomingMessage['headers']): string
  /** True for a path a fixed route serves: the router prefers it to `/:alias`. */
  isFixedPath(path: string): boolean
}

/** Answers `(request, response)` and returns true, or returns false having touched neither. */
export type CachedRedirect = (request: IncomingMessage, response: ServerResponse) => boolean

// One path segment without anything the router would decode or split on; the resolver checks the alias form.
const ONE_SEGMENT = /^\/[^/%;#]+$/

export function createCachedRedirect(options: CachedRedirectOptions): CachedRedirect {
  const { aliasResolver, hostRouter, clicks, redirectStatus } = options
  const { proxyTrust } = options

  return function answerFromCache(request, response) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false
    const url = request.url ?? ''
    const queryAt = url.indexOf('?')
    const path = queryAt === -1 ? url : url.slice(0, queryAt)
    if (!ONE_SEGMENT.test(path) || options.isFixedPath(path)) return false
    const namespace = hostRouter.peekNamespace(request.headers.host)
    if (!namespace) return false
    const resolved = aliasResolver.peek(namespace.host, path.slice(1))
    if (resolved?.kind !== 'link') return false
    const { link } = resolved
    // Expiry, password, pages (splash, frame, overlay, pixels) and country lookups: the general path.
    if (link.type !== 'direct' || link.passwordHash !== null || link.pixels.length > 0 || link.targeting.geo.length > 0 || isExpired(link.expiresAt)) return false

    const visit = { ip: clientAddressOf(request, proxyTrust), headers: request.headers }
    const destination = destinationOf(visit, link, null)
    if (!destination) return false
    // Written in one call, in the order Fastify writes them; a header value node refuses throws
    // here, before anything is sent, and the general path answers instead.
    try {
      response.writeHead(redirectStatus, {
        'cache-control': REDIRECT_CACHE_CONTROL,
        location: destination,
        'x-request-id': options.requestIdOf(request.headers),
        'content-length': 0,
      })
    } catch {
      return false
    }
    if (request.method !== 'HEAD') clicks.record(clickOf(visit, { accountId: link.accountId, itemType: 'link', itemId: link.id }))
    response.end()
    return true
  }
}
