// The redirect path at its shortest (STYLE habit 8): a GET or HEAD of `/{alias}` (an imported
// alias may hold `/` and any character, percent-encoded: ADR 028) whose visit the
// visit service can decide from memory (modules/visits/visit.service.ts visitFromMemory: the
// host's namespace and the alias cached, no country to look up) and that is a bare redirect
// (public/redirect-reply.ts redirectOf) is answered from node:http before Fastify builds a request
// and a reply for it: same decision, same redirect, counted in the same place (public/link-visit.ts).
// Anything else goes on to the general router, which answers it in full; the parity tests
// (test/public/cached-redirect.test.ts) send the same requests both ways.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { clientAddressOf, type ProxyTrust } from '../http/client-address.js'
import type { VisitService } from '../modules/visits/visit.service.js'
import { aliasOfPath } from '../modules/aliases/alias-namespace.js'
import { pathOfUrl } from '../core/query-parameters.js'
import type { VisitAnswers } from './link-visit.js'

export interface CachedRedirectOptions {
  visits: Pick<VisitService, 'visitFromMemory'>
  answers: Pick<VisitAnswers, 'writeRedirect'>
  /** The proxies allowed to name the client (X-Forwarded-For): the rule Fastify's trustProxy is given; null for none. */
  proxyTrust: ProxyTrust | null
  /** The headers every answer gets (the request id, HSTS), as the router's onSend adds them. */
  answerHeadersOf(request: IncomingMessage): Record<string, string>
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
  const { visits, answers, proxyTrust } = options

  return function answerFromCache(request, response) {
    const method = request.method
    if (method !== 'GET' && method !== 'HEAD') return false
    const path = pathOfUrl(request.url ?? '')
    if (!VISIT_PATH.test(path)) return false
    // The alias as the router's routes read it (percent-decoded, NFC: ADR 028).
    const alias = aliasOfPath(path)
    if (alias === undefined || options.isRoutedPath(`/${alias}`)) return false
    const visitor = { ip: clientAddressOf(request, proxyTrust), headers: request.headers, url: request.url }
    const visit = visits.visitFromMemory(visitor, { host: request.headers.host, alias }, method === 'GET')
    if (!visit || !answers.writeRedirect(response, visit, options.answerHeadersOf(request))) return false
    options.onRedirect?.()
    return true
  }
}
