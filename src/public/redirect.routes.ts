// What visitors of a short address see, on the main domain and on branded domains:
// GET / (the dashboard on the main host; redirectroot on a branded one), GET|HEAD /{alias} (a link or a
// bio page), POST /{alias} (the password form) and POST /{alias}/contact (a contact overlay).
// An imported alias may hold a `/` (Shlink's `docs/intro`, ADR 028): GET|HEAD of any deeper path
// no other route takes is a visit of the alias its whole path spells. The alias is the
// percent-decoded path (aliasOfPath), on every route alike and on the front door's short path.
// The visit service decides every answer (modules/visits/visit.service.ts); these routes read the
// request, render what it decided and throttle what strangers send. Answers are HTML pages or
// redirects, never the JSON envelope, except for server failures.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { App } from '../http/app-instance.js'
import { isApiPath } from '../http/auth.js'
import { routePathOf } from '../http/route-path.js'
import { sendEndpointNotFound } from '../http/error-handler.js'
import { aliasOfPath } from '../modules/aliases/alias-namespace.js'
import { pathOfUrl } from '../core/query-parameters.js'
import { checkContactSubmission } from '../modules/overlays/contact-submission.js'
import type { OverlayService } from '../modules/overlays/overlay.service.js'
import type { VisitService } from '../modules/visits/visit.service.js'
import { DASHBOARD_PATH } from './dashboard.js'
import { formField } from './form-body.js'
import { sendNoticePage, sendNotFoundPage, sendTooManyAttemptsPage } from './html.js'
import { sendPasswordPage } from './link-pages.js'
import type { VisitAnswers } from './link-visit.js'
import { sendRedirect } from './redirect-reply.js'
import type { VisitorThrottles } from './visitor-throttles.js'
import { safeHttpUrl } from '../core/urls.js'

interface AliasParams {
  alias: string
}

export interface RedirectRouteDependencies {
  visits: VisitService
  /** Renders and counts a visit (public/link-visit.ts), as the front door's short path does. */
  answers: Pick<VisitAnswers, 'send'>
  overlays: Pick<OverlayService, 'saveContact'>
  throttles: VisitorThrottles
}

/** Registers the short addresses in the public scope (public/public-site.ts), after every fixed path. */
export function registerRedirectRoutes(scope: App, { visits, answers, overlays, throttles }: RedirectRouteDependencies): void {
  scope.get('/', { schema: { hide: true } }, async (request, reply) => {
    const root = await visits.root(request.headers.host)
    if (root.kind === 'dashboard') return sendRedirect(reply, DASHBOARD_PATH)
    return root.kind === 'redirect' ? sendRedirect(reply, root.url) : sendNotFoundPage(reply)
  })

  async function answerVisit(request: FastifyRequest, reply: FastifyReply) {
    const alias = aliasOfPath(pathOfUrl(request.url))
    if (alias === undefined) return sendNotFoundPage(reply)
    return answers.send(reply, await visits.visit(request, { host: request.headers.host, alias }, request.method !== 'HEAD'))
  }

  scope.get('/:alias', { schema: { hide: true } }, answerVisit)
  // Deeper paths: an imported alias with a `/`. Unknown API paths still get the envelope.
  scope.get('/*', { schema: { hide: true } }, (request, reply) => (isApiPath(routePathOf(request)) ? sendEndpointNotFound(reply) : answerVisit(request, reply)))

  scope.post<{ Params: AliasParams }>('/:alias', { schema: { hide: true } }, async (request, reply) => {
    const found = await visits.findLiveLink({ host: request.headers.host, alias: request.params.alias.normalize('NFC') })
    if (found.kind !== 'live') return answers.send(reply, found)
    const { link } = found
    if (link.passwordHash !== null) {
      // Counted before the hash is computed: a refused guess costs no hashing at all.
      const attempt = { target: `link:${link.id}`, client: request.ip }
      const verdict = await throttles.linkPassword.attempt(attempt)
      if (!verdict.allowed) return sendTooManyAttemptsPage(reply, verdict.retryAfterSeconds)
      if (!(await visits.passwordOpens(link, formField(request.body, 'password')))) {
        return sendPasswordPage(reply, link, { status: 401, error: 'The password is incorrect. Please try again.' })
      }
      await throttles.linkPassword.succeeded(attempt)
    }
    return answers.send(reply, await visits.unlockedVisit(request, link))
  })

  scope.post<{ Params: AliasParams }>('/:alias/contact', { schema: { hide: true } }, async (request, reply) => {
    const found = await visits.findLiveLink({ host: request.headers.host, alias: request.params.alias.normalize('NFC') })
    if (found.kind !== 'live') return answers.send(reply, found)
    const { link } = found
    const overlay = link.type === 'overlay' ? link.overlay : null
    if (!overlay || overlay.type !== 'contact') return sendNotFoundPage(reply)
    const body = request.body
    const checked = checkContactSubmission({ name: formField(body, 'name'), email: formField(body, 'email'), message: formField(body, 'message') })
    if (!checked.ok) return sendNoticePage(reply, 400, 'Message not sent', checked.problem)
    // Messages that would be stored are counted: the limit is on what the owner has to read.
    const verdict = await throttles.contact.attempt({ target: `link:${link.id}`, client: request.ip })
    if (!verdict.allowed) return sendTooManyAttemptsPage(reply, verdict.retryAfterSeconds)
    await overlays.saveContact({ accountId: link.accountId, overlayId: overlay.id, linkId: link.id, ...checked.contact })
    return sendNoticePage(reply, 200, 'Thank you', 'Your message has been sent.', safeHttpUrl(link.url) ?? undefined)
  })
}
