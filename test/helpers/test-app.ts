// Builds the real app on a fresh test database; `api(key)` sends requests the way clients of
// this API do (Bearer key, Content-Type: application/json on every request).
import type { FastifyBaseLogger, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import type { Redis } from 'ioredis'
import type { DatabaseHandle } from '../../src/db/database.js'
import type { ClickRecorder } from '../../src/analytics/click-recorder.js'
import { buildApp } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import type { App } from '../../src/http/app-instance.js'
import { createRateLimiter, type RateLimiter } from '../../src/http/rate-limit.js'
import type { SignInThrottle } from '../../src/http/sign-in-throttle.js'
import { createLogger } from '../../src/logger.js'
import type { VisitorThrottles } from '../../src/public/visitor-throttles.js'
import type { HostResolver } from '../../src/modules/domains/domain-dns.js'
import { createServices, type ServiceDependencies, type Services } from '../../src/services.js'
import { createTestDatabase, type TestDatabase } from './test-database.js'
import { createAccount, type TestAccount } from './factories.js'

export { createAccount, type TestAccount } from './factories.js'

export const PUBLIC_URL = 'https://lw.test'

export interface TestContext {
  app: App
  database: TestDatabase
  config: Config
  /** Every service of the app, as the composition root built them. */
  services: Services
  /** The app's click recorder; `await clicks.flush()` before reading clicks or counters. */
  clicks: ClickRecorder
  close(): Promise<void>
}

export interface TestAppOptions {
  env?: Record<string, string>
  rateLimiter?: RateLimiter
  /** Replaces the wrong-password throttle the app would choose (built on the test database). */
  signInThrottle?: (database: TestDatabase) => SignInThrottle
  visitorThrottles?: VisitorThrottles
  /** Replaces the DNS look-up of branded domains (ServiceDependencies.resolveHost). */
  resolveHost?: HostResolver
  /** The app's logger (by default a silent one at LOG_LEVEL). */
  logger?: FastifyBaseLogger
  /** Tunes the webhook delivery worker (ServiceDependencies.webhookDelivery). */
  webhookDelivery?: ServiceDependencies['webhookDelivery']
  /** Tunes the event stream's publisher (ServiceDependencies.eventStream). */
  eventStream?: ServiceDependencies['eventStream']
  /** The key cache's clock (AppDependencies.keyCacheClock): a logical one the test moves. */
  keyCacheClock?: () => number
  /** The clock of branded domains' check schedule (ServiceDependencies.domainClock). */
  domainClock?: () => Date
}

/** The app over `database` (and Redis when given), as main.ts builds it but silent. */
export async function buildAppOn(database: DatabaseHandle, config: Config, extra: { redis?: Redis; rateLimiter?: RateLimiter; webhookDelivery?: ServiceDependencies['webhookDelivery']; eventStream?: ServiceDependencies['eventStream']; keyCacheClock?: () => number } = {}): Promise<{ app: App; services: Services }> {
  const services = createServices({ config, database, redis: extra.redis, log: createLogger({ logLevel: 'silent' }), webhookDelivery: extra.webhookDelivery, eventStream: extra.eventStream })
  const app = await buildApp({ services, rateLimiter: extra.rateLimiter, keyCacheClock: extra.keyCacheClock })
  await app.ready()
  return { app, services }
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase()
  const config = loadConfig({
    PUBLIC_URL: PUBLIC_URL,
    // Generous by default so suites are not throttled; rate-limit tests set their own.
    RATE_LIMIT_PER_MINUTE: '100000',
    // Tests change keys and accounts behind the app's back; the key cache has its own test.
    KEY_CACHE_MS: '0',
    LOG_LEVEL: 'silent',
    // The link checker would look at every test link's destination in the background; its tests turn it on.
    LINK_CHECK: 'off',
    ...options.env,
  })
  // The production click recorder and hasher (a random salt per day in the database), as the server runs them.
  const services = createServices({ config, database, log: createLogger({ logLevel: 'silent' }), resolveHost: options.resolveHost, webhookDelivery: options.webhookDelivery, eventStream: options.eventStream, domainClock: options.domainClock })
  const app = await buildApp({ services, logger: options.logger, rateLimiter: options.rateLimiter ?? createRateLimiter(), signInThrottle: options.signInThrottle?.(database), visitorThrottles: options.visitorThrottles, keyCacheClock: options.keyCacheClock })
  await app.ready()
  return {
    app,
    database,
    config,
    services,
    clicks: services.clicks,
    async close() {
      await app.close()
      await database.destroy()
    },
  }
}

export interface ApiResponse extends LightMyRequestResponse {
  /** The parsed JSON body. */
  data: any
}

export type ApiClient = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<ApiResponse>

/** A client for one API key; pass `null` to send no Authorization header. */
export function apiClient(app: App, apiKey: string | null): ApiClient {
  return async (method, url, body, headers = {}) => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers: {
        'content-type': 'application/json',
        ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
    return withJsonData(response)
  }
}

/** The response with its body parsed as JSON on `data` (undefined when the body is not JSON). */
export function withJsonData<R extends LightMyRequestResponse>(response: R): R & { data: any } {
  let data: unknown
  try {
    data = response.json()
  } catch {
    data = undefined
  }
  return Object.assign(response, { data })
}

/** A value that exists only once `beforeAll` has run: reads before then fail loudly. */
function filledLater<T extends object>(read: () => T | undefined, what: string): T {
  const target = (): T => {
    const value = read()
    if (value === undefined) throw new Error(`useTestApp: ${what} is read before beforeAll ran`)
    return value
  }
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(target(), key),
  })
}

export interface TestAppSession {
  context: TestContext
  /** An account of this file's app, and a client with its key. */
  owner: TestAccount
  api: ApiClient
  /** A second account, for isolation checks. */
  other: TestAccount
  otherApi: ApiClient
}

/**
 * Builds a test app on a fresh database before the file's (or describe block's) tests and closes
 * it after them, with two accounts and their clients. Every field may be destructured at once:
 * each is filled in by `beforeAll`. Options given as a function are read then, after the
 * `beforeAll` hooks registered before this call (a temporary folder the app needs, say).
 */
export function useTestApp(options: TestAppOptions | (() => TestAppOptions) = {}): TestAppSession {
  let session: Omit<TestAppSession, 'api' | 'otherApi'> & { api: ApiClient; otherApi: ApiClient } | undefined
  beforeAll(async () => {
    const context = await createTestApp(typeof options === 'function' ? options() : options)
    const owner = await createAccount(context)
    const other = await createAccount(context)
    session = { context, owner, other, api: apiClient(context.app, owner.apiKey), otherApi: apiClient(context.app, other.apiKey) }
  })
  afterAll(() => session?.context.close())
  return {
    context: filledLater(() => session?.context, 'the context'),
    owner: filledLater(() => session?.owner, 'the owner'),
    other: filledLater(() => session?.other, 'the other account'),
    api: (...args) => filledLater(() => session, 'the session').api(...args),
    otherApi: (...args) => filledLater(() => session, 'the session').otherApi(...args),
  }
}
