// What visitors of a short address see, on the main domain and on branded domains:
// GET / (docs on the main host; redirectroot on a branded one), GET|HEAD /{alias} (a link or a
// bio page), POST /{alias} (the password form) and POST /{alias}/contact (a contact overlay).
// Answers are HTML pages or redirects, never the JSON envelope, except for server failures.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { App, ModuleDeps } from '../app.js'
import { nowTimestamp } from '../db/dialect.js'
import { verifyPassword } from '../modules/accounts/secrets.js'
import { createAliasResolver, type AliasResolver, type PublicLink } from './alias-resolver.js'
import { createAliasResolverRepository, type AliasResolverRepository } from './alias-resolver.repository.js'
import { sendBioPage } from './bio-page.view.js'
import { checkContactSubmission } from './contact-form.js'
import { formField, installFormBodyParser } from './form-body.js'
import { createHostRouter, type HostNamespace, type HostRouter } from './host-routing.js'
import { sendNotFoundPage } from './html.js'
import { sendExpiredPage, sendNoticePage, sendPasswordPage } from './link-pages.js'
import { isExpired, sendLinkVisit, sendRedirect } from './link-visit.js'
import { safeHttpUrl } from './safe-url.js'
import { clickOf } from './visitor.js'

/** Longest password checked; anything longer is wrong without spending a hash on it. */
const MAX_PASSWORD_LENGTH = 1_000

/** True when `password` matches; a stored hash of an unknown form matches nothing. */
async function passwordMatches(password: string, passwordHash: string): Promise<boolean> {
  if (password === '' || password.length > MAX_PASSWORD_LENGTH) return false
  try {
    return await verifyPassword(password, passwordHash)
  } catch {
    return false
  }
}

interface AliasParams {
  alias: string
}

// Visitor-facing wording for the client errors Fastify raises before a handler runs.
const CLIENT_ERROR_TEXT: Record<number, string> = {
  413: 'The form you sent is too large.',
  415: 'This address accepts web forms only.',
}

/**
 * Body errors (too large, wrong type, malformed) become HTML pages; anything else, such as the
 * API gate's answer for `/api` (which this scope's `/:alias` also matches), goes on to the app's handler.
 */
function sendPublicError(error: { statusCode?: number; code?: string }, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = error.statusCode ?? 500
  if (!error.code?.startsWith('FST_ERR_CTP_') || status < 400 || status >= 500) throw error
  return sendNoticePage(reply, status, 'Request not accepted', CLIENT_ERROR_TEXT[status] ?? 'The request could not be understood.')
}

/** No link at this address: a branded domain's redirect404 when it has one, else the 404 page. */
function sendUnknownAlias(reply: FastifyReply, namespace: HostNamespace): FastifyReply {
  const target = safeHttpUrl(namespace.domain?.redirect404)
  return target ? sendRedirect(reply, target) : sendNotFoundPage(reply)
}

interface PublicRouteDeps extends ModuleDeps {
  repository: AliasResolverRepository
  resolver: AliasResolver
  hosts: HostRouter
}

function registerPublicRoutes(scope: FastifyInstance, deps: PublicRouteDeps): void {
  const { repository, resolver, hosts, clicks, config } = deps

  /** The live link at the request's host and alias, or the answer already sent instead. */
  async function findLiveLink(request: FastifyRequest<{ Params: AliasParams }>, reply: FastifyReply): Promise<{ link: PublicLink } | { sent: FastifyReply }> {
    const namespace = await hosts.namespaceOf(request.headers.host)
    const resolved = await resolver.resolve(namespace.host, request.params.alias)
    if (resolved.kind !== 'link') return { sent: sendUnknownAlias(reply, namespace) }
    if (isExpired(resolved.link, nowTimestamp())) return { sent: sendExpiredPage(reply) }
    return { link: resolved.link }
  }

  scope.get('/', { schema: { hide: true } }, async (request, reply) => {
    const { domain } = await hosts.namespaceOf(request.headers.host)
    if (!domain) return sendRedirect(reply, '/api/docs')
    const target = safeHttpUrl(domain.redirectRoot)
    return target ? sendRedirect(reply, target) : sendNotFoundPage(reply)
  })

  scope.get<{ Params: AliasParams }>('/:alias', { schema: { hide: true } }, async (request, reply) => {
    const namespace = await hosts.namespaceOf(request.headers.host)
    const resolved = await resolver.resolve(namespace.host, request.params.alias)
    if (resolved.kind === 'none') return sendUnknownAlias(reply, namespace)
    if (resolved.kind === 'bio') {
      const { page } = resolved
      if (request.method !== 'HEAD') clicks.record(clickOf(request, { accountId: page.account_id, itemType: 'bio', itemId: page.id }))
      return sendBioPage(reply, page, { publicUrl: config.publicUrl })
    }
    const { link } = resolved
    if (isExpired(link, nowTimestamp())) return sendExpiredPage(reply)
    // The form posts back here; nothing is counted until the password is right.
    if (link.passwordHash !== null) return sendPasswordPage(reply, link)
    return sendLinkVisit(request, reply, link, clicks, config.redirectStatus)
  })

  scope.post<{ Params: AliasParams }>('/:alias', { schema: { hide: true } }, async (request, reply) => {
    const found = await findLiveLink(request, reply)
    if ('sent' in found) return found.sent
    const { link } = found
    if (link.passwordHash !== null) {
      if (!(await passwordMatches(formField(request.body, 'password'), link.passwordHash))) {
        return sendPasswordPage(reply, link, { status: 401, error: 'The password is incorrect. Please try again.' })
      }
    }
    return sendLinkVisit(request, reply, link, clicks, config.redirectStatus)
  })

  scope.post<{ Params: AliasParams }>('/:alias/contact', { schema: { hide: true } }, async (request, reply) => {
    const found = await findLiveLink(request, reply)
    if ('sent' in found) return found.sent
    const { link } = found
    const overlay = link.type === 'overlay' ? link.overlay : null
    if (!overlay || overlay.type !== 'contact') return sendNotFoundPage(reply)
    const checked = checkContactSubmission(request.body)
    if (!checked.ok) return sendNoticePage(reply, 400, 'Message not sent', checked.problem)
    await repository.insertContact({ accountId: link.accountId, overlayId: overlay.id, linkId: link.id, ...checked.contact })
    return sendNoticePage(reply, 200, 'Thank you', 'Your message has been sent.', safeHttpUrl(link.url) ?? undefined)
  })
}

export function registerRedirectRoutes(app: App, deps: ModuleDeps): void {
  const repository = createAliasResolverRepository(deps.db)
  const resolver = createAliasResolver(repository, deps.invalidation)
  const hosts = createHostRouter(repository, deps.invalidation, deps.config.publicUrl)
  // An own plugin scope: the form parser and the HTML error pages stay off the API's routes.
  void app.register(async (scope) => {
    installFormBodyParser(scope)
    scope.setErrorHandler(sendPublicError)
    registerPublicRoutes(scope, { ...deps, repository, resolver, hosts })
  })
}
