// The API's front gate for every /api request: resolve the key, count the request against the
// rate limit (headers on every response, errors included), then refuse or let through.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AccountService, AuthenticatedAccount } from '../modules/accounts/account.service.js'
import type { RateLimiter } from './rate-limit.js'
import { isWriteMethod, resourceOfRoute } from './api-scopes.js'
import { OUT_OF_SCOPE_MESSAGE, scopeAllows } from '../modules/accounts/api-key-scopes.js'
import { createLruCache } from '../core/lru-cache.js'
import { type InvalidationBus, ACCOUNT_TOPIC } from '../core/invalidation.js'
import { nowTimestamp } from '../core/time.js'
import { AppError, AuthenticationError, ForbiddenError, RateLimitError } from '../core/errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every authenticated /api request; null elsewhere. */
    account: AuthenticatedAccount | null
  }
}

/** Paths under /api that need no key: the OpenAPI document and its UI. */
function isPublicApiPath(url: string): boolean {
  return url === '/api/openapi.json' || url === '/api/docs' || url.startsWith('/api/docs/') || url.startsWith('/api/docs?')
}

/** True for the API's paths (everything under /api), where answers are JSON envelopes. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')
}

/** Reads `Authorization: Bearer <key>` or `Token <key>` (decisions §2). */
export function readApiKey(header: string | undefined): string | undefined {
  if (!header) return undefined
  const match = /^(?:Bearer|Token)\s+(\S+)\s*$/i.exec(header)
  return match?.[1]
}

/** The authenticated account of a request that passed the gate. */
export function accountOf(request: FastifyRequest): AuthenticatedAccount {
  if (!request.account) throw AuthenticationError.missingKey()
  return request.account
}

export interface ApiGateOptions {
  accounts: AccountService
  rateLimiter: RateLimiter
  defaultRateLimit: number
  /** How long a key's lookup may be reused (0: never); see Config.keyCacheMs. */
  keyCacheMs: number
  invalidation: InvalidationBus
}

export function installApiGate(app: FastifyInstance, options: ApiGateOptions): void {
  app.decorateRequest('account', null)

  // Successful lookups only: unknown keys always reach the database (and the per-address limit).
  const knownKeys = createLruCache<string, AuthenticatedAccount>(10_000, options.keyCacheMs)
  options.invalidation.subscribe((topic) => {
    if (topic === ACCOUNT_TOPIC) knownKeys.clear()
  })

  async function authenticate(rawKey: string | undefined): Promise<AuthenticatedAccount> {
    if (options.keyCacheMs === 0 || !rawKey) return options.accounts.authenticate(rawKey)
    const cached = knownKeys.get(rawKey)
    if (cached && (cached.keyExpires === null || cached.keyExpires > nowTimestamp())) return cached
    const account = await options.accounts.authenticate(rawKey)
    knownKeys.set(rawKey, account)
    return account
  }

  /** Authenticates and counts one API request; throws the error to answer with. */
  async function admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let account: AuthenticatedAccount | undefined
    let authError: AppError | undefined
    try {
      account = await authenticate(readApiKey(request.headers.authorization))
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      authError = error
    }

    // Requests without a valid key are limited per client address, so guessing keys is slow too.
    const limit = account?.apirate ?? options.defaultRateLimit
    const decision = await options.rateLimiter.consume(account ? `account:${account.id}` : `ip:${request.ip}`, limit)
    reply.header('x-ratelimit-limit', decision.limit)
    reply.header('x-ratelimit-remaining', decision.remaining)
    reply.header('x-ratelimit-reset', decision.resetAt)
    if (!decision.allowed) throw new RateLimitError(decision.retryAfter)

    if (authError) throw authError
    if (account?.isSuspended) throw new ForbiddenError()
    // A key limited to some resources or to reads (unknown routes go on to their 404).
    const resource = resourceOfRoute(request.routeOptions.url)
    if (account && resource && !scopeAllows(account.keyScope, resource, isWriteMethod(request.method))) {
      throw new ForbiddenError(OUT_OF_SCOPE_MESSAGE)
    }
    request.account = account ?? null
  }

  // Callback style with a synchronous way out: visitors' redirects pay nothing for the API gate.
  app.addHook('onRequest', (request, reply, done) => {
    // OPTIONS is a browser's preflight (answered by CORS, http/security-headers.ts), never an API
    // call: it carries no key and is not counted against anyone's limit.
    if (!isApiPath(request.url) || isPublicApiPath(request.url) || request.method === 'OPTIONS') return done()
    admit(request, reply).then(() => done(), done)
  })
}

/** Route-level guard for the administration endpoints. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!accountOf(request).isAdmin) throw new ForbiddenError()
}
