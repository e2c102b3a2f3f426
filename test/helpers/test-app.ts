// Builds the real app on a fresh test database; `api(key)` sends requests the way clients of
// this API do (Bearer key, Content-Type: application/json on every request).
import type { LightMyRequestResponse } from 'fastify'
import type { Redis } from 'ioredis'
import type { DatabaseHandle } from '../../src/db/database.js'
import type { ClickRecorder } from '../../src/analytics/click-recorder.js'
import { buildApp } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import type { App } from '../../src/http/app-instance.js'
import { createRateLimiter, type RateLimiter } from '../../src/http/rate-limit.js'
import type { SignInThrottle } from '../../src/http/sign-in-throttle.js'
import { createLogger } from '../../src/logger.js'
import type { CreateAccountInput } from '../../src/modules/accounts/account.service.js'
import { createServices, type Services } from '../../src/services.js'
import { createTestDatabase, type TestDatabase } from './test-database.js'

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
}

/** The app over `database` (and Redis when given), as main.ts builds it but silent. */
export async function buildAppOn(database: DatabaseHandle, config: Config, extra: { redis?: Redis; rateLimiter?: RateLimiter } = {}): Promise<{ app: App; services: Services }> {
  const services = createServices({ config, database, redis: extra.redis, log: createLogger({ logLevel: 'silent' }) })
  const app = await buildApp({ services, rateLimiter: extra.rateLimiter })
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
    ...options.env,
  })
  // The production click recorder and hasher (a random salt per day in the database), as the server runs them.
  const services = createServices({ config, database, log: createLogger({ logLevel: 'silent' }) })
  const app = await buildApp({ services, rateLimiter: options.rateLimiter ?? createRateLimiter(), signInThrottle: options.signInThrottle?.(database) })
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

export interface TestAccount {
  id: number
  username: string
  email: string
  apiKey: string
}

let accountCounter = 0

/** Creates an account with a key directly through the service (no HTTP). */
export async function createAccount(context: { services: Pick<Services, 'accounts'> }, input: Partial<CreateAccountInput> = {}): Promise<TestAccount> {
  accountCounter += 1
  const suffix = `${process.pid}${accountCounter}${Math.floor(Math.random() * 1e6)}`
  return context.services.accounts.createAccount({ email: `user${suffix}@example.com`, username: `user${suffix}`, ...input })
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
    let data: unknown
    try {
      data = response.json()
    } catch {
      data = undefined
    }
    return Object.assign(response, { data })
  }
}
