// The redirect path at its shortest (STYLE habit 8): a GET or HEAD of `/{alias}` (an imported
// alias may hold `/` and any character, percent-encoded: ADR 028) whose visit the
// visit service can decide from memory (modules/visits/visit.service.ts visitFromMemory: the
// host's namespace and the alias cached, no country to look up) and that is a bare redirect is
// answered from node:http before Fastify builds a request and a reply for it: same decision, same
// status and headers, the click handed to the same recorder. Anything else, and anything
// unexpected, goes on to the general router, which answers it in full; the parity tests
// (test/public/cached-redirect.test.ts) send the same requests both ways.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { clientAddressOf, type ProxyTrust } from '../http/client-address.js'
import type { VisitService } from '../modules/visits/visit.service.js'
import { aliasOfPath } from '../modules/aliases/alias-namespace.js'
import { pathOfUrl } from '../core/query-parameters.js'
import { REDIRECT_CACHE_CONTROL } from './redirect-reply.js'

export interface CachedRedirectOptions {
  visits: VisitService
  /** The proxies allowed to name the client (X-Forwarded-For): the rule Fastify's trustProxy is given; null for none. */
  proxyTrust: ProxyTrust | null
  /** The request id, as Fastify's genReqId makes it. */
  requestIdOf(headers: IncomingMessage['headers']): string
  /** True for a (decoded) path another route may serve: the router prefers it to a visit of an alias. */
  isRoutedPath(path: string): boolean
  /** Told of every redirect answered here (the visitors' summary line, public/visitor-log.ts). */
  onRedirect?(): void
}

/** Answers `(request, response)` and returns true, or returns false having touched neither. */
export type CachedRedirect = (request: IncomingMessage, response: ServerResponse) => boolean

// A path with something in it and nothing the router treats apart (`;` parameters, a fragment);
// the resolver checks the alias.
const VISIT_PATH = /^\/[^;#]+$/

export function createCachedRedirect(options: CachedRedirectOptions): CachedRedirect {
  const { visits, proxyTrust } = options

  return function answerFromCache(request, response) {
    const method = request.method
    if (method !== 'GET' && method !== 'HEAD') return false
    const path = pathOfUrl(request.url ?? '')
    if (!VISIT_PATH.test(path)) return false
    // The alias as the router's routes read it (percent-decoded, NFC: ADR 028).
    const alias = aliasOfPath(path)
    if (alias === undefined || options.isRoutedPath(`/${alias}`)) return false
    const visitor = { ip: clientAddressOf(request, proxyTrust), headers: request.headers }
    const visit = visits.visitFromMemory(visitor, { host: request.headers.host, alias }, method === 'GET')
    if (!visit) return false
    let status: 301 | 302
    let location: string
    if (visit.kind === 'link' && visit.page.kind === 'redirect') {
      status = visit.page.status
      location = visit.destination
    } else if (visit.kind === 'expired' && visit.fallback !== null) {
      // An expired link's fallback address (issue 23), as sendVisit redirects to it.
      status = 302
      location = visit.fallback
    } else {
      // Pages (password, splash, frame, pixels, bio, expired, not found): the general path renders them.
      return false
    }
    // Written in one call, in the order Fastify writes them; a header value node refuses throws
    // here, before anything is sent, and the general path answers instead.
    try {
      response.writeHead(status, {
        'cache-control': REDIRECT_CACHE_CONTROL,
        location,
        'x-request-id': options.requestIdOf(request.headers),
        'content-length': 0,
      })
    } catch {
      // The general path decides the visit anew: what this one took is given back.
      visits.abandon(visit)
      return false
    }
    visits.count(visit)
    response.end()
    options.onRedirect?.()
    return true
  }
}
