// buildApp(deps): the whole HTTP application as one Fastify instance, every module registered
// explicitly. Tests call app.inject(); main.ts listens.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions, type RawServerDefault } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Redis } from 'ioredis'
import { randomUUID } from 'node:crypto'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { createClickRecorder, type ClickRecorder } from './analytics/click-recorder.js'
import { createLocalInvalidationBus, createRedisInvalidationBus, type InvalidationBus } from './cache/invalidation.js'
import type { Config } from './config.js'
import type { DatabaseHandle, DB } from './db/database.js'
import { installApiGate } from './http/auth.js'
import { installErrorHandlers } from './http/error-handler.js'
import { installJsonBodyParser } from './http/json-body.js'
import { createRateLimiter, type RateLimiter } from './http/rate-limit.js'
import { chooseLimiterStore } from './http/rate-limit-stores.js'
import { validatorCompiler } from './http/validator.js'
import { createAccountRepository } from './modules/accounts/account.repository.js'
import { createAccountService, type AccountService } from './modules/accounts/account.service.js'
import { createApiKeyRepository } from './modules/accounts/api-key.repository.js'
import { registerAccountRoutes } from './modules/accounts/account.routes.js'
import { registerAdminRoutes } from './modules/admin/admin.routes.js'
import { registerBioPageRoutes } from './modules/bio-pages/bio-page.routes.js'
import { registerCampaignRoutes } from './modules/campaigns/campaign.routes.js'
import { registerChannelRoutes } from './modules/channels/channel.routes.js'
import { registerDomainRoutes } from './modules/domains/domain.routes.js'
import { registerLinkRoutes } from './modules/links/link.routes.js'
import { registerStatisticsRoutes } from './modules/statistics/statistics.routes.js'
import { registerOverlayRoutes } from './modules/overlays/overlay.routes.js'
import { registerPixelRoutes } from './modules/pixels/pixel.routes.js'
import { registerQrCodeRoutes } from './modules/qr-codes/qr-code.routes.js'
import { registerSplashPageRoutes } from './modules/splash-pages/splash-page.routes.js'
import { registerAvatarRoutes } from './public/avatar.routes.js'
import { registerCampaignPageRoutes } from './public/campaign-pages.routes.js'
import { registerHealthRoutes } from './public/health.routes.js'
import { registerQrImageRoutes } from './public/qr-image.routes.js'
import { registerRedirectRoutes } from './public/redirect.routes.js'

/** The Fastify instance type every module registers routes on. */
export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>

/** What every module's route registration receives. */
export interface ModuleDeps {
  db: DB
  config: Config
  accounts: AccountService
  /** Where every visit goes (links, QR scans, rotators, bio pages). */
  clicks: ClickRecorder
  /** Announces changed records so every instance drops its cached copy. */
  invalidation: InvalidationBus
}

export interface AppDependencies {
  config: Config
  database: DatabaseHandle
  /** Shared state across instances (rate limits); optional. */
  redis?: Redis
  /** Overrides the click recorder (tests use small batches). */
  clickRecorder?: ClickRecorder
  /** Overrides the rate limiter chosen from `redis` and the database. */
  rateLimiter?: RateLimiter
  logger?: FastifyServerOptions['logger']
}

export async function buildApp(deps: AppDependencies): Promise<App> {
  const { config, database } = deps
  const app = Fastify({
    logger: deps.logger ?? {
      level: config.logLevel,
      // API keys never reach the logs.
      redact: ['req.headers.authorization', 'headers.authorization'],
    },
    genReqId: (request) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID()
    },
    requestIdHeader: false,
    bodyLimit: config.bodyLimit,
    // Only the configured proxies may tell us the client's address (X-Forwarded-For).
    ...(config.trustedProxies.length > 0 ? { trustProxy: config.trustedProxies } : {}),
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.setValidatorCompiler(validatorCompiler)
  installJsonBodyParser(app)
  installErrorHandlers(app)
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    done(null, payload)
  })

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Linkwell API',
        version: '1.0.0',
        description: 'Short links, campaigns, channels, pixels and QR codes. Every endpoint needs `Authorization: Bearer <API key>`.',
      },
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } } },
      security: [{ apiKey: [] }],
    },
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs' })
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  // SQLite means one instance: local invalidation is complete. Elsewhere, without Redis, other
  // instances' caches may serve a changed record for at most one second.
  const invalidation = deps.redis
    ? createRedisInvalidationBus(deps.redis, 60_000)
    : createLocalInvalidationBus(database.dialect === 'sqlite' ? 60_000 : 1_000)
  const accountRepository = createAccountRepository(database.db)
  const accounts = createAccountService(accountRepository, createApiKeyRepository(database.db))
  installApiGate(app, {
    accounts,
    rateLimiter: deps.rateLimiter ?? createRateLimiter({
      store: chooseLimiterStore({ redis: deps.redis, pgPool: database.pool, pgSchema: database.schema }),
      onStoreStateChange: (state, error) =>
        state === 'failed'
          ? app.log.error({ err: error }, 'rate limit store unreachable: limiting per instance until it returns')
          : app.log.info('rate limit store reachable again: limits are shared across instances'),
    }),
    defaultRateLimit: config.rateLimitPerMinute,
    keyCacheMs: config.keyCacheMs,
    invalidation,
  })

  const clicks =
    deps.clickRecorder ??
    createClickRecorder(database.db, {
      onError: (error) => app.log.error({ err: error }, 'writing clicks failed; keeping them for the next attempt'),
      onDrop: (dropped) => app.log.error({ dropped }, 'visits not recorded: the click queue was full, or the database refused their batch three times'),
      onShutdownLoss: (lost, error) => app.log.error({ lost, err: error }, 'shutting down with visits the database would not take: they are lost'),
    })
  // Runs after the server has stopped and requests in flight have finished: nothing recorded is lost.
  app.addHook('onClose', async () => {
    await clicks.close()
    await invalidation.close()
  })

  const moduleDeps: ModuleDeps = { db: database.db, config, accounts, clicks, invalidation }
  registerHealthRoutes(app, database, deps.redis)
  registerAccountRoutes(app, moduleDeps)
  registerDomainRoutes(app, moduleDeps)
  registerOverlayRoutes(app, moduleDeps)
  registerSplashPageRoutes(app, moduleDeps)
  registerCampaignRoutes(app, moduleDeps)
  registerChannelRoutes(app, moduleDeps)
  registerPixelRoutes(app, moduleDeps)
  registerQrCodeRoutes(app, moduleDeps)
  registerLinkRoutes(app, moduleDeps)
  registerStatisticsRoutes(app, moduleDeps)
  registerBioPageRoutes(app, moduleDeps)
  registerAdminRoutes(app, moduleDeps)
  // What visitors see (no API key).
  registerQrImageRoutes(app, moduleDeps)
  registerAvatarRoutes(app, moduleDeps)
  registerCampaignPageRoutes(app, moduleDeps)
  registerRedirectRoutes(app, moduleDeps)

  return app
}
