// buildApp(deps): the whole HTTP application as one Fastify instance over the services built by
// the composition root (src/services.ts), every route module registered explicitly. Tests call
// app.inject(); main.ts listens.
import Fastify, { LogController, type FastifyBaseLogger, type InjectOptions } from 'fastify'
import http from 'node:http'
import { isPlainInternetRequest } from './http/internet-listeners.js'
import { hostnameOf } from './modules/visits/host-router.js'
import lightMyRequest from 'light-my-request'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { App } from './http/app-instance.js'
import { installApiGate, isApiPath } from './http/auth.js'
import { isDashboardPath, routePathOf, type RoutedRequest } from './http/route-path.js'
import { installErrorHandler, sendApiError, sendEndpointNotFound } from './http/error-handler.js'
import { registerHealthRoutes } from './http/health.routes.js'
import { installJsonBodyParser } from './http/json-body.js'
import { createListEnvelope } from './http/list.js'
import { createRateLimiter, type RateLimiter } from './http/rate-limit.js'
import { createSessionCookie } from './http/session-cookie.js'
import { createSignInThrottle, type SignInThrottle } from './http/sign-in-throttle.js'
import { registerPasswordResetRoutes } from './modules/accounts/password-reset.routes.js'
import { registerAuthOptionsRoutes } from './modules/accounts/auth-options.routes.js'
import { registerSignUpRoutes } from './modules/accounts/sign-up.routes.js'
import { registerEmailChangeRoutes } from './modules/accounts/email-change.routes.js'
import { installSecurityHeaders } from './http/security-headers.js'
import { chooseCounterStore, createThrottleFactory } from './http/throttle.js'
import { validatorCompiler } from './http/validator.js'
import { ErrorResponse } from './http/schemas.js'
import { registerAccountRoutes } from './modules/accounts/account.routes.js'
import { registerApiKeyRoutes } from './modules/api-keys/api-key.routes.js'
import { registerSessionRoutes } from './modules/accounts/session.routes.js'
import { registerTwoFactorRoutes } from './modules/accounts/two-factor.routes.js'
import { registerAdminRoutes } from './modules/admin/admin.routes.js'
import { registerMemberRoutes } from './modules/members/member.routes.js'
import { registerBioPageRoutes } from './modules/bio-pages/bio-page.routes.js'
import { registerCampaignRoutes } from './modules/campaigns/campaign.routes.js'
import { registerChannelRoutes } from './modules/channels/channel.routes.js'
import { registerDomainRoutes } from './modules/domains/domain.routes.js'
import { registerCertificateRoutes } from './modules/certificates/certificate.routes.js'
import { registerLinkBulkRoutes } from './modules/links/link-bulk.routes.js'
import { registerImportRoutes } from './modules/imports/import.routes.js'
import { registerLinkRoutes } from './modules/links/link.routes.js'
import { registerLinkCardRoutes } from './modules/links/link-card.routes.js'
import { registerOverlayRoutes } from './modules/overlays/overlay.routes.js'
import { registerPixelRoutes } from './modules/pixels/pixel.routes.js'
import { registerAuditRoutes } from './modules/audit/audit.routes.js'
import { registerExportRoutes } from './modules/exports/export.routes.js'
import { registerQrCodeRoutes } from './modules/qr-codes/qr-code.routes.js'
import { registerLogoUploadRoutes } from './modules/qr-codes/logo-upload.routes.js'
import { registerUtmTemplateRoutes } from './modules/utm-templates/utm-template.routes.js'
import { registerTagRoutes } from './modules/tags/tag.routes.js'
import { registerSplashPageRoutes } from './modules/splash-pages/splash-page.routes.js'
import { registerStatisticsRoutes } from './modules/statistics/statistics.routes.js'
import { registerWebhookRoutes } from './modules/webhooks/webhook.routes.js'
import { registerConversionRoutes } from './modules/conversions/conversion.routes.js'
import { registerConversionReportRoutes } from './modules/statistics/conversion-report.routes.js'
import { registerSsoRoutes } from './modules/single-sign-on/sso.routes.js'
import { sendPublicError } from './public/error-pages.js'
import { sendNotFoundPage } from './public/html.js'
import { createLogger, serializeRequest } from './logger.js'
import { registerDashboard } from './public/dashboard.js'
import { registerPublicSite } from './public/public-site.js'
import { registerPreviewRoutes } from './public/preview.routes.js'
import { createCachedRedirect } from './public/cached-redirect.js'
import { createVisitAnswers } from './public/link-visit.js'
import { requestIdOf } from './http/request-id.js'
import { rememberingSerializerFactory } from './http/response-serializers.js'
import { loopShare } from './core/loop-share.js'
import { createProxyTrust } from './http/client-address.js'
import { createVersionedResponseCache } from './http/versioned-response-cache.js'
import { createVisitorLog } from './public/visitor-log.js'
import { createMetrics, registerMetrics } from './http/metrics.js'
import { createVisitorThrottles, type VisitorThrottles } from './public/visitor-throttles.js'
import type { Services } from './services.js'
import { SERVICE_PATHS } from './modules/aliases/alias-namespace.js'

export interface AppDependencies {
  services: Services
  /** The process's logger (main.ts); by default one at the configured level. */
  logger?: FastifyBaseLogger
  /** Overrides the rate limiter chosen from Redis and the database (tests). */
  rateLimiter?: RateLimiter
  /** Overrides the wrong-password throttle chosen from Redis and the database (tests). */
  signInThrottle?: SignInThrottle
  /** Overrides the throttles of password guesses and contact messages (tests). */
  visitorThrottles?: VisitorThrottles
  /** The key cache's clock in milliseconds (tests move a logical one); by default Date.now. */
  keyCacheClock?: () => number
}

/** Memory for link-list answers kept between requests (ADR 012): some 500 answers of 15 links. */
const LINK_LIST_CACHE_BYTES = 8 * 1024 * 1024

/** Log levels at which every visitor's request gets its own lines (and the short path, which writes none, stays closed). */
const VERBOSE_LEVELS = new Set(['debug', 'trace'])

const RESERVED_PATHS: ReadonlySet<string> = new Set(SERVICE_PATHS.paths)
const RESERVED_PREFIXES: ReadonlySet<string> = new Set(SERVICE_PATHS.prefixes)

/**
 * What a route takes at the root of a host: a one-segment path (`/healthz`) or a prefix of deeper
 * paths (`qr` of `/qr/:alias`); undefined for the visitors' own routes (`/`, `/:alias`, `/*`,
 * `/:alias/contact`). Throws when the aliases module does not reserve it (ADR 028): such a route
 * would shadow links stored at its path, so it fails the start instead.
 */
export function rootOfRoute(url: string): { kind: 'paths' | 'prefixes'; segment: string } | undefined {
  const segments = url.replace(/(.)\/$/, '$1').split('/').slice(1)
  const first = segments[0] ?? ''
  if (first === '' || first.startsWith(':') || first.startsWith('*')) return undefined
  const kind = segments.length === 1 ? 'paths' : 'prefixes'
  if (!(kind === 'paths' ? RESERVED_PATHS : RESERVED_PREFIXES).has(first)) {
    throw new Error(`The route ${url} takes addresses links may hold: add "${first}" to SERVICE_PATHS.${kind} (modules/aliases/alias-namespace.ts).`)
  }
  return { kind, segment: first }
}

/** The roots each built app's router answers, as rootOfRoute reads its routes. */
const SERVED_ROOTS = new WeakMap<object, { paths: Set<string>; prefixes: Set<string> }>()

/** Each app's front door and server timeouts: HTTP_PORT's and HTTPS_PORT's servers hand requests to it as PORT's does. */
const FRONT_DOORS = new WeakMap<object, { frontDoor: http.RequestListener; timeouts: { connectionTimeout: number; requestTimeout: number; keepAliveTimeout: number } }>()

/** The front door of an app `buildApp` made (http/internet-listeners.ts serves it on more ports). */
export function frontDoorOf(app: App) {
  return FRONT_DOORS.get(app)!
}

/** What `app`'s router answers at the root of a host (test/modules/aliases/reserved-paths.test.ts compares it with SERVICE_PATHS). */
export function servedRootsOf(app: App): { paths: string[]; prefixes: string[] } {
  const served = SERVED_ROOTS.get(app)
  return { paths: [...(served?.paths ?? [])].sort(), prefixes: [...(served?.prefixes ?? [])].sort() }
}

/** A route's schemas as it was declared (its validators and serializers are compiled when it is first asked). */
export interface DeclaredRouteSchemas {
  method: string
  url: string
  schema: Record<string, unknown>
}

/** The schemas of each built app's routes. */
const ROUTE_SCHEMAS = new WeakMap<object, DeclaredRouteSchemas[]>()

/** The schemas of `app`'s routes (test/http/route-schemas-compile.test.ts compiles them all). */
export function routeSchemasOf(app: App): readonly DeclaredRouteSchemas[] {
  return ROUTE_SCHEMAS.get(app) ?? []
}

/** `qr` of `/qr/x`; '' for a path of one segment (`/x`). */
function firstSegmentOfDeeperPath(path: string): string {
  const end = path.indexOf('/', 1)
  return end === -1 ? '' : path.slice(1, end)
}

/** Visitors' addresses: everything but the API, the dashboard and the health checks (give it routePathOf(request)). */
function isVisitorPath(path: string): boolean {
  return !isApiPath(path) && !isDashboardPath(path) && !path.startsWith('/healthz') && !path.startsWith('/readyz') && !path.startsWith('/metrics')
}

export async function buildApp(deps: AppDependencies): Promise<App> {
  const { services } = deps
  const { config, database, redis } = services
  const publicHostname = new URL(config.publicUrl).hostname.toLowerCase()
  // Whichever logger is given, request lines go through our serializer: no token in a logged URL.
  const logger: FastifyBaseLogger = (deps.logger ?? createLogger(config)).child({}, { serializers: { req: serializeRequest } })
  const timeouts = { connectionTimeout: 30_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 }

  // One line a minute for visitors' answers at info (public/visitor-log.ts).
  const visitorLog = createVisitorLog(logger)
  // One trust rule for the router's request.ip and the short path's client address.
  const proxyTrust = config.trustedProxies.length > 0 ? createProxyTrust(config.trustedProxies) : null
  // The front door of every request, the server's and app.inject's alike: a short link whose
  // answer is in memory is answered at once (public/cached-redirect.ts), the rest is routed.
  // A visit is rendered and counted in one place, whichever of the two answers it (public/link-visit.ts).
  const visitAnswers = createVisitAnswers({ visits: services.visits, publicUrl: config.publicUrl })
  // The headers every answer gets, the router's (onSend below) and the short path's alike: the
  // request id, and with HSTS=on on the main host over https, Strict-Transport-Security (browsers
  // keep to https there once they met it; not on branded domains, whose certificate may not be there yet).
  const answerHeadersOf = (request: http.IncomingMessage, requestId = requestIdOf(request.headers)): Record<string, string> =>
    config.hsts && (request.socket as { encrypted?: boolean }).encrypted && hostnameOf(request.headers.host) === publicHostname
      ? { 'x-request-id': requestId, 'strict-transport-security': 'max-age=31536000' }
      : { 'x-request-id': requestId }
  const cachedRedirect = createCachedRedirect({
    visits: services.visits,
    answers: visitAnswers,
    proxyTrust,
    answerHeadersOf,
    isRoutedPath: (path) => fixedPaths.has(path) || routePrefixes.has(firstSegmentOfDeeperPath(path)),
    onRedirect: () => visitorLog.redirected(),
  })
  // Paths of routes without parameters, which the router serves before `/:alias`, and the first
  // segments of deeper routes (`/qr/…`), which it serves before a visit of a deeper path.
  const fixedPaths = new Set<string>()
  const routePrefixes = new Set<string>()
  // At info and above a visitor's answer writes no line of its own, whichever path answers it: a
  // line a minute counts them (ADR 014). At debug and trace every request is Fastify's, lines and all.
  const visitorLines = VERBOSE_LEVELS.has(logger.level)
  const shortPathOpen = !visitorLines
  let closing = false
  const frontDoor = (request: http.IncomingMessage, response: http.ServerResponse) => {
    // Long work in this process (imports) gives way while requests come (core/loop-share.ts).
    loopShare.noteRequest()
    if (closing || !shortPathOpen || !cachedRedirect(request, response)) app.routing(request, response)
  }


  const sessionCookie = createSessionCookie(config.publicUrl, config.sessionDays)
  // Every limit and throttle counts in one store: Redis, else PostgreSQL, else memory (http/throttle.ts).
  const throttles = createThrottleFactory({
    store: chooseCounterStore({ redis, database }),
    onStoreStateChange: (state, error) =>
      state === 'failed'
        ? logger.error({ err: error }, 'rate limit store unreachable: limiting per instance until it returns')
        : logger.info('rate limit store reachable again: limits are shared across instances'),
  })
  const signInThrottle = deps.signInThrottle ?? createSignInThrottle({ throttles })
  const app = Fastify({
    loggerInstance: logger,
    genReqId: (request) => requestIdOf(request.headers),
    // API requests keep their two lines at info; visitors' are counted instead (visitorLog).
    logController: new LogController({ disableRequestLogging: (request: RoutedRequest) => !visitorLines && isVisitorPath(routePathOf(request)) }),
    requestIdHeader: false,
    bodyLimit: config.bodyLimit,
    // Only the configured proxies may tell us the client's address (X-Forwarded-For).
    ...(proxyTrust ? { trustProxy: proxyTrust } : {}),
    ...timeouts,
    // What Fastify's own server factory does with the same options, in front of the front door.
    serverFactory: () => {
      const server = http.createServer(frontDoor)
      server.keepAliveTimeout = timeouts.keepAliveTimeout
      server.requestTimeout = timeouts.requestTimeout
      server.setTimeout(timeouts.connectionTimeout)
      return server
    },
    return503OnClosing: true,
    // Response serializers compiled once per process, not once per app (http/response-serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: rememberingSerializerFactory } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Addresses the router refuses (bad percent-encoding, an overlong segment) are answered like
    // every other error: the envelope on /api, a page for visitors.
    frameworkErrors: (error, request, reply) => (isApiPath(routePathOf(request)) ? sendApiError(error, request, reply) : sendPublicError(error, request, reply)),
  }).withTypeProvider<TypeBoxTypeProvider>()

  const served = { paths: new Set<string>(), prefixes: routePrefixes }
  const declared: DeclaredRouteSchemas[] = []
  ROUTE_SCHEMAS.set(app, declared)
  app.addHook('onRoute', (route) => {
    if (route.schema) declared.push({ method: String(route.method), url: route.url, schema: route.schema as Record<string, unknown> })
    if (!/[:*]/.test(route.url)) fixedPaths.add(route.url)
    const root = rootOfRoute(route.url)
    if (root) served[root.kind].add(root.segment)
  })
  SERVED_ROOTS.set(app, served)
  FRONT_DOORS.set(app, { frontDoor, timeouts })
  // A closing server answers 503 to new requests: the router does that.
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })
  // Fastify's inject goes straight to the router; tests meet the front door the server has.
  const routerInject = app.inject.bind(app)
  app.inject = function injectThroughFrontDoor(options?: InjectOptions | string) {
    if (options === undefined || closing) return routerInject(options as InjectOptions)
    return app.ready().then(() => lightMyRequest(frontDoor, options))
  } as typeof app.inject

  app.setValidatorCompiler(validatorCompiler)
  // The error envelope every endpoint refers to (http/schemas.ts), described once in the document.
  app.addSchema(ErrorResponse)
  installJsonBodyParser(app)
  installErrorHandler(app)
  // Unknown API paths get the envelope; every other unknown address is a visitor's: a page.
  app.setNotFoundHandler((request, reply) => (isApiPath(routePathOf(request)) ? sendEndpointNotFound(reply) : sendNotFoundPage(reply)))
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(answerHeadersOf(request.raw, request.id))
    done(null, payload)
  })
  // HTTP_PORT (ACME_EMAIL) keeps serving short links; the dashboard and API go to https, once the host has a certificate.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isPlainInternetRequest(request.raw)) return done()
    const path = routePathOf(request)
    const host = hostnameOf(request.headers.host)
    if (!(isApiPath(path) || isDashboardPath(path)) || !services.certificateStore.has(host)) return done()
    const port = config.httpsPort === 443 ? '' : `:${config.httpsPort}`
    // 308 keeps a POST a POST; a GET may be remembered (301).
    void reply.redirect(`https://${host}${port}${request.url}`, request.method === 'GET' || request.method === 'HEAD' ? 301 : 308)
  })

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Linkwell API',
        version: '1.0.0',
        description:
          'Short links, campaigns, channels, pixels and QR codes. Every endpoint needs `Authorization: Bearer <API key>`, ' +
          'or the dashboard\'s session cookie (POST /api/auth/login); with the cookie, requests other than GET must send ' +
          '`Origin` equal to the server\'s public URL and `X-Linkwell-CSRF: 1`. ' +
          'An optional field sent as null, or as an empty string, is taken as left out: on a create its default applies. ' +
          'On an update null (or leaving the field out) keeps the value, and `""` clears the field where it can be cleared ' +
          'and is refused where it cannot: each field\'s description says which.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer' },
          session: { type: 'apiKey', in: 'cookie', name: sessionCookie.name },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
    },
    // Shared schemas keep their own names (`ErrorEnvelope`) in the document's components.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `def-${index}`) },
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs' })
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  // `/api` itself is no endpoint; without this route the visitors' `/:alias` would answer it with a page.
  app.all('/api', { schema: { hide: true } }, (_request, reply) => sendEndpointNotFound(reply))

  await installSecurityHeaders(app, { corsOrigins: config.corsOrigins, https: config.publicUrl.startsWith('https:') })
  const apiGate = installApiGate(app, {
    keys: services.apiKeys,
    sessions: services.sessions,
    sessionCookie,
    publicUrl: config.publicUrl,
    rateLimiter: deps.rateLimiter ?? createRateLimiter({ throttles }),
    defaultRateLimit: config.rateLimitPerMinute,
    keyCacheMs: config.keyCacheMs,
    keyCacheClock: deps.keyCacheClock,
    invalidation: services.invalidation,
  })
  // The served app sends webhooks (and publishes events, with EVENTS_URL); both stop with the app (services.close).
  app.addHook('onReady', (done) => {
    services.webhookDelivery.start()
    services.importWorker.start()
    services.eventStream?.start()
    if (services.config.linkCheck.enabled) services.linkChecker.start()
    services.domainVerifier.start()
    services.ssoRecheck.start()
    services.certificateManager?.start()
    done()
  })
  // With ANALYTICS_STORE, statistics are answered from the columnar store once it has caught up.
  // Opened beside the start, not before it: a DuckDB file slow to open or a ClickHouse that is down
  // keeps no redirect waiting (the raw clicks, or a 503 for statistics, answer meanwhile).
  app.addHook('onReady', (done) => {
    services.analyticsStore.start().catch((error: unknown) => app.log.error({ err: error }, 'the statistics store could not be started; statistics come from the raw clicks'))
    done()
  })
  // Runs after the server has stopped and requests in flight have finished: nothing recorded is lost.
  app.addHook('onClose', () => {
    visitorLog.close()
    return services.close()
  })

  const { publicUrl } = config
  // Every list answer's envelope, its `error` as LIST_ERROR_FORMAT says (ADR 013).
  const listEnvelope = createListEnvelope(config.listErrorFormat)
  const linkListCache = createVersionedResponseCache(LINK_LIST_CACHE_BYTES)
  if (config.metrics.enabled) {
    const metrics = createMetrics({
      clicks: services.clicks,
      visitorAnswers: () => visitorLog.totals(),
      caches: { alias: services.visits.aliasCache, api_key: apiGate.keyCache, link_list: linkListCache.counts, qr_image: services.qrImages.imageCache },
      poolUse: database.poolUse,
      webhooks: services.webhookDelivery,
    })
    registerMetrics(app, metrics, config.metrics.token)
    app.addHook('onClose', async () => metrics.close())
  }
  registerHealthRoutes(app, database, redis)
  registerSessionRoutes(app, { sessions: services.sessions, accounts: services.accounts, publicUrl, throttle: signInThrottle, sessionCookie })
  registerPasswordResetRoutes(app, { resets: services.passwordResets, sessions: services.sessions, throttle: signInThrottle })
  registerAuthOptionsRoutes(app, { signup: config.signup, mail: config.smtpUrl !== undefined })
  registerSignUpRoutes(app, { signUps: services.signUps, sessions: services.sessions, throttle: signInThrottle, sessionCookie, publicUrl })
  registerEmailChangeRoutes(app, { emailChanges: services.emailChanges, throttle: signInThrottle })
  registerSsoRoutes(app, { singleSignOn: services.singleSignOn, settings: services.ssoSettings, sessionCookie, publicUrl })
  registerTwoFactorRoutes(app, { twoFactor: services.twoFactor, throttle: signInThrottle, sessionCookie, publicUrl })
  registerAccountRoutes(app, { accounts: services.accounts, sessions: services.sessions, planUsage: services.planUsage, publicUrl, throttle: signInThrottle })
  registerApiKeyRoutes(app, { apiKeys: services.apiKeys })
  registerMemberRoutes(app, { members: services.members, invitations: services.invitations, accounts: services.accounts, sessions: services.sessions, sessionCookie, workspaceCreation: services.workspaceCreation, publicUrl })
  registerDomainRoutes(app, { domains: services.domains, listEnvelope })
  registerCertificateRoutes(app, { domains: services.domains, certificates: services.certificateManager, publicHostname })
  registerOverlayRoutes(app, { overlays: services.overlays, listEnvelope })
  registerSplashPageRoutes(app, { splashPages: services.splashPages, listEnvelope })
  registerCampaignRoutes(app, { campaigns: services.campaigns, publicUrl, listEnvelope })
  registerChannelRoutes(app, { channels: services.channels, listEnvelope })
  registerPixelRoutes(app, { pixels: services.pixels, listEnvelope })
  registerQrCodeRoutes(app, { qrCodes: services.qrCodes, statistics: services.statistics, publicUrl, listEnvelope })
  registerLogoUploadRoutes(app, { logoUploads: services.logoUploads })
  registerLinkRoutes(app, { links: services.links, cards: services.linkCards, statistics: services.statistics, publicUrl, listCache: linkListCache, listEnvelope })
  registerLinkBulkRoutes(app, { linkBatch: services.linkBatch, publicUrl })
  registerLinkCardRoutes(app, { links: services.links, cards: services.linkCards })
  registerImportRoutes(app, { imports: services.imports, worker: services.importWorker, listEnvelope, maxBytes: config.importMaxBytes })
  registerUtmTemplateRoutes(app, { utmTemplates: services.utmTemplates, listEnvelope })
  registerTagRoutes(app, { tags: services.tags, listEnvelope })
  registerStatisticsRoutes(app, { statistics: services.statistics, publicUrl })
  registerBioPageRoutes(app, { bioPages: services.bioPages, publicUrl, listEnvelope })
  registerAdminRoutes(app, { users: services.users, plans: services.plans, publicUrl, listEnvelope, statistics: services.analyticsStore })
  registerAuditRoutes(app, { audit: services.audit, listEnvelope })
  registerExportRoutes(app, { exports: services.exports })
  registerWebhookRoutes(app, { webhooks: services.webhooks, listEnvelope })
  await registerConversionRoutes(app, { conversions: services.conversions, trackingOriginsOf: services.accounts.trackingOriginsOf, stripe: services.stripeReceiver, listEnvelope, publicUrl })
  registerConversionReportRoutes(app, { reports: services.conversionReports, publicUrl })
  // Previews of splash pages, overlays and bio pages: API endpoints that render visitors' pages.
  registerPreviewRoutes(app, { splashPages: services.splashPages, overlays: services.overlays, bioPages: services.bioPages, publicUrl })
  // The dashboard (before the visitors' `/:alias`; `app` is a reserved alias).
  await registerDashboard(app, { dashboardDir: config.dashboardDir, visits: services.visits })
  // What visitors see (no API key).
  await registerPublicSite(app, {
    visits: services.visits,
    qrImages: services.qrImages,
    campaignPages: services.campaignPages,
    overlays: services.overlays,
    cards: services.linkCards,
    throttles: deps.visitorThrottles ?? createVisitorThrottles(throttles),
    visitorLog,
    answers: visitAnswers,
    publicUrl,
  })

  return app
}
