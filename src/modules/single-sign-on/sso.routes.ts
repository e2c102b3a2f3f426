// Single sign-on (ADR 033): GET /api/auth/oidc/providers (the sign-in page's buttons),
// GET /api/auth/oidc/start (to the provider), GET /api/auth/oidc/callback (back from it: a session,
// or a page that says what to do); GET/PUT /api/workspace/sso (a workspace's requirement and group
// mapping); /api/admin/sso/providers (the providers the instance administrator keeps).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { parse, serialize } from 'cookie'
import type { App } from '../../http/app-instance.js'
import { accountOf, requireAdmin } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import type { SessionCookie } from '../../http/session-cookie.js'
import { MessageResponse } from '../../core/schemas.js'
import type { SingleSignOnService } from './sso.service.js'
import { SIGN_IN_MINUTES } from './sso.service.js'
import type { SsoSettingsService } from './sso-settings.service.js'
import { SingleSignOnError } from './sso-errors.js'
import { CallbackQuery, ProviderAdminListResponse, ProviderBody, ProviderIdParams, ProviderListResponse, ProviderResponse, StartQuery, WorkspaceSsoBody, WorkspaceSsoResponse } from './sso.schemas.js'

export interface SsoRouteDependencies {
  singleSignOn: SingleSignOnService
  settings: SsoSettingsService
  sessionCookie: SessionCookie
  publicUrl: string
}

const tags = ['auth']
const CALLBACK_PATH = '/api/auth/oidc/callback'
/** The cookie that binds a sign-in's state to the browser that started it (no other browser can finish it). */
const STATE_COOKIE = 'linkwell_oidc_state'

/** The redirect URI to register at every provider. */
export function callbackUrlOf(publicUrl: string): string {
  return `${publicUrl}${CALLBACK_PATH}`
}

export function registerSsoRoutes(app: App, { singleSignOn, settings, sessionCookie, publicUrl }: SsoRouteDependencies): void {
  const secure = new URL(publicUrl).protocol === 'https:'
  const stateCookie = (value: string, maxAge: number) => serialize(STATE_COOKIE, value, { httpOnly: true, sameSite: 'lax', path: '/api/auth/oidc', secure, maxAge })
  const dashboard = `${publicUrl}/app/`

  /**
   * A refused sign-in, recorded in the audit log: the browser goes back to the sign-in page, which
   * says what happened and what to do (`?sso_error=<reason>`); the state cookie is forgotten.
   */
  async function refuse(request: FastifyRequest, reply: FastifyReply, error: unknown): Promise<FastifyReply> {
    if (!(error instanceof SingleSignOnError)) throw error
    request.log.warn({ reason: error.reason, detail: error.message }, 'single sign-on refused')
    await singleSignOn.recordRefusal(error.reason, request.ip)
    reply.header('set-cookie', stateCookie('', 0))
    return reply.header('cache-control', 'no-store').redirect(`${publicUrl}/app/signin?sso_error=${error.reason}`, 302)
  }

  app.get('/api/auth/oidc/providers', {
    schema: { tags, summary: 'The identity providers the sign-in page offers, each with whether it answers now', security: [], response: { 200: ProviderListResponse, ...errorResponses } },
  }, async () => {
    const providers = await singleSignOn.listProviders()
    return { error: 0 as const, data: providers.map((provider) => ({ ...provider, start: `${publicUrl}/api/auth/oidc/start?provider=${encodeURIComponent(provider.name)}` })) }
  })

  app.get('/api/auth/oidc/start', {
    schema: {
      tags,
      summary: 'Sends the browser to the identity provider (authorization code with PKCE, state and nonce)',
      description: '`provider` names one when the instance has several. When it cannot start (an unknown provider, one that does not answer), the browser goes back to the sign-in page with `?sso_error=<reason>`, which says so.',
      security: [],
      querystring: StartQuery,
    },
  }, async (request, reply) => {
    try {
      const started = await singleSignOn.start(request.query.provider)
      reply.header('set-cookie', stateCookie(started.state, SIGN_IN_MINUTES * 60))
      return reply.header('cache-control', 'no-store').redirect(started.url, 302)
    } catch (error) {
      return refuse(request, reply, error)
    }
  })

  app.get(CALLBACK_PATH, {
    schema: {
      tags,
      summary: 'Where the identity provider sends the browser back: the redirect URI to register there',
      description: 'Opens a dashboard session and goes on to the dashboard; a wrong or used state, a refused code or an ID token that fails a check sends the browser back to the sign-in page with `?sso_error=<reason>` (the page says what to do), opens no session, and is recorded in the audit log.',
      security: [],
      querystring: CallbackQuery,
    },
  }, async (request, reply) => {
    const query = request.raw.url?.split('?')[1] ?? ''
    const callbackUrl = new URL(`${callbackUrlOf(publicUrl)}${query === '' ? '' : `?${query}`}`)
    const cookieState = request.headers.cookie ? parse(request.headers.cookie)[STATE_COOKIE] : undefined
    try {
      const signedIn = await singleSignOn.finish(callbackUrl, cookieState || undefined, { userAgent: request.headers['user-agent'], ip: request.ip })
      sessionCookie.set(reply, signedIn.token)
      reply.header('set-cookie', [reply.getHeader('set-cookie') as string, stateCookie('', 0)])
      return reply.header('cache-control', 'no-store').redirect(dashboard, 302)
    } catch (error) {
      return refuse(request, reply, error)
    }
  })

  app.get('/api/workspace/sso', {
    schema: { tags: ['members'], summary: 'The workspace\'s single sign-on: its provider, whether it is required, and its groups\' roles', response: { 200: WorkspaceSsoResponse, ...errorResponses } },
  }, async (request) => ({ error: 0 as const, data: await settings.getWorkspace(accountOf(request).id) }))

  app.put('/api/workspace/sso', {
    schema: {
      tags: ['members'],
      summary: 'Sets the workspace\'s provider, requirement and group mapping (owners)',
      description: 'The mapping is applied at each member\'s next sign-in with the provider and by the recheck (OIDC_RECHECK): a member in none of the mapped groups loses their membership and the keys they made here.',
      body: WorkspaceSsoBody,
      response: { 200: WorkspaceSsoResponse, ...errorResponses },
    },
  }, async (request) => ({ error: 0 as const, data: await settings.saveWorkspace(accountOf(request), request.body) }))

  const onRequest = requireAdmin
  app.get('/api/admin/sso/providers', {
    onRequest,
    schema: { tags: ['admin'], summary: 'The identity providers the instance offers (administrators)', response: { 200: ProviderAdminListResponse, ...errorResponses } },
  }, async () => ({ error: 0 as const, data: { ...(await settings.listProviders()), callback: callbackUrlOf(publicUrl) } }))

  app.post('/api/admin/sso/provider/add', {
    onRequest,
    schema: { tags: ['admin'], summary: 'Adds an identity provider (its client secret is sealed with SECRETS_KEY when set)', body: ProviderBody, response: { 201: ProviderResponse, ...errorResponses } },
  }, async (request, reply) => {
    const provider = await settings.addProvider(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, data: provider })
  })

  app.put('/api/admin/sso/provider/:id/update', {
    onRequest,
    schema: { tags: ['admin'], summary: 'Changes an identity provider (a client secret left out is kept)', params: ProviderIdParams, body: ProviderBody, response: { 200: ProviderResponse, ...errorResponses } },
  }, async (request) => ({ error: 0 as const, data: await settings.updateProvider(accountOf(request), request.params.id, request.body) }))

  app.delete('/api/admin/sso/provider/:id/delete', {
    onRequest,
    schema: { tags: ['admin'], summary: 'Removes an identity provider', params: ProviderIdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await settings.deleteProvider(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'The provider has been removed.' }
  })
}
