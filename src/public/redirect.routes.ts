// What visitors of a short address see, on the main domain and on branded domains:
// GET / (the dashboard on the main host; redirectroot on a branded one), GET|HEAD /{alias} (a link or a
// bio page), POST /{alias} (the password form) and POST /{alias}/contact (a contact overlay).
// Answers are HTML pages or redirects, never the JSON envelope, except for server failures.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { isExpired } from '../core/time.js'
import { safeHttpUrl } from '../core/urls.js'
import type { App } from '../http/app-instance.js'
import type { PublicLink } from '../modules/redirects/alias-resolver.js'
import type { HostNamespace } from '../modules/redirects/host-router.js'
import { linkPasswordMatches } from '../modules/redirects/link-password.js'
import type { Services } from '../services.js'
import { sendBioPage } from './bio-page.view.js'
import { DASHBOARD_PATH } from './dashboard.js'
import { checkContactSubmission } from './contact-form.js'
import { formField } from './form-body.js'
import { sendNoticePage, sendNotFoundPage, sendTooManyAttemptsPage } from './html.js'
import { sendExpiredPage, sendPasswordPage } from './link-pages.js'
import { sendLinkVisit } from './link-visit.js'
import { sendRedirect } from './redirect-reply.js'
import { clickOf } from './visitor.js'
import type { VisitorThrottles } from './visitor-throttles.js'

interface AliasParams {
  alias: string
}

/** No link at this address: a branded domain's redirect404 when it has one, else the 404 page. */
function sendUnknownAlias(reply: FastifyReply, namespace: HostNamespace): FastifyReply {
  const target = safeHttpUrl(namespace.domain?.redirect404)
  return target ? sendRedirect(reply, target) : sendNotFoundPage(reply)
}

/** Registers the short addresses in the public scope (public/public-site.ts), after every fixed path. */
export function registerRedirectRoutes(scope: App, { aliasResolver, hostRouter, contacts, clicks, config }: Services, throttles: VisitorThrottles): void {
  /** The live link at the request's host and alias, or the answer already sent instead. */
  async function findLiveLink(request: FastifyRequest<{ Params: AliasParams }>, reply: FastifyReply): Promise<{ link: PublicLink } | { sent: FastifyReply }> {
    const namespace = await hostRouter.namespaceOf(request.headers.host)
    const resolved = await aliasResolver.resolve(namespace.host, request.params.alias)
    if (resolved.kind !== 'link') return { sent: sendUnknownAlias(reply, namespace) }
    if (isExpired(resolved.link.expiresAt)) return { sent: sendExpiredPage(reply) }
    return { link: resolved.link }
  }

  scope.get('/', { schema: { hide: true } }, async (request, reply) => {
    const { domain } = await hostRouter.namespaceOf(request.headers.host)
    if (!domain) return sendRedirect(reply, DASHBOARD_PATH)
    const target = safeHttpUrl(domain.redirectRoot)
    return target ? sendRedirect(reply, target) : sendNotFoundPage(reply)
  })

  scope.get<{ Params: AliasParams }>('/:alias', { schema: { hide: true } }, async (request, reply) => {
    const namespace = await hostRouter.namespaceOf(request.headers.host)
    const resolved = await aliasResolver.resolve(namespace.host, request.params.alias)
    if (resolved.kind === 'none') return sendUnknownAlias(reply, namespace)
    if (resolved.kind === 'bio') {
      const { page } = resolved
      if (request.method !== 'HEAD') clicks.record(clickOf(request, { accountId: page.account_id, itemType: 'bio', itemId: page.id }))
      return sendBioPage(reply, page, { publicUrl: config.publicUrl })
    }
    const { link } = resolved
    if (isExpired(link.expiresAt)) return sendExpiredPage(reply)
    // The form posts back here; nothing is counted until the password is right.
    if (link.passwordHash !== null) return sendPasswordPage(reply, link)
    return sendLinkVisit(request, reply, link, clicks, config.redirectStatus)
  })

  scope.post<{ Params: AliasParams }>('/:alias', { schema: { hide: true } }, async (request, reply) => {
    const found = await findLiveLink(request, reply)
    if ('sent' in found) return found.sent
    const { link } = found
    if (link.passwordHash !== null) {
      // Counted before the hash is computed: a refused guess costs no hashing at all.
      const attempt = { target: `link:${link.id}`, client: request.ip }
      const verdict = await throttles.linkPassword.attempt(attempt)
      if (!verdict.allowed) return sendTooManyAttemptsPage(reply, verdict.retryAfterSeconds)
      if (!(await linkPasswordMatches(formField(request.body, 'password'), link.passwordHash))) {
        return sendPasswordPage(reply, link, { status: 401, error: 'The password is incorrect. Please try again.' })
      }
      await throttles.linkPassword.succeeded(attempt)
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
    // Messages that would be stored are counted: the limit is on what the owner has to read.
    const verdict = await throttles.contact.attempt({ target: `link:${link.id}`, client: request.ip })
    if (!verdict.allowed) return sendTooManyAttemptsPage(reply, verdict.retryAfterSeconds)
    await contacts.saveContact({ accountId: link.accountId, overlayId: overlay.id, linkId: link.id, ...checked.contact })
    return sendNoticePage(reply, 200, 'Thank you', 'Your message has been sent.', safeHttpUrl(link.url) ?? undefined)
  })
}
