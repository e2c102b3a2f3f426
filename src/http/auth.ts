// The API's front gate for every /api request: resolve the credential (an API key, else the
// dashboard's session cookie), count the request against the rate limit (headers on every
// response, errors included), check a key's scope, that a session's unsafe request comes from the
// dashboard (CSRF) and the acting person's role, then refuse or let through.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AuthenticatedAccount, SignInStep } from '../modules/access/authenticated-account.js'
import type { RateLimiter } from './rate-limit.js'
import type { SessionCookie } from './session-cookie.js'
import { isWriteMethod, resourceOfRoute } from './api-scopes.js'
import { roleOfRoute } from './api-roles.js'
import { ROLE_REFUSED_MESSAGE, roleAllows } from '../modules/access/roles.js'
import { OUT_OF_SCOPE_MESSAGE, scopeAllows } from '../modules/access/api-key-scopes.js'
import { createLruCache, type CacheCounts } from '../core/lru-cache.js'
import { type InvalidationBus, ACCOUNT_TOPIC } from '../core/invalidation.js'
import { nowTimestamp } from '../core/time.js'
import { isDocsPath, routePathOf } from './route-path.js'
import { AppError, AuthenticationError, ForbiddenError, RateLimitError } from '../core/errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every authenticated /api request; null elsewhere. */
    account: AuthenticatedAccount | null
  }
}

/** Paths under /api that need no key: the OpenAPI document and its UI. */
function isPublicApiPath(path: string): boolean {
  // Stripe's deliveries carry no key: their signature, checked by the receiver, is the credential (issue 39).
  return path === '/api/openapi.json' || isDocsPath(path) || path === '/api/integrations/stripe/webhook/:token'
}

/**
 * Paths under /api that take a request without credentials (signing in, reading an invitation),
 * still rate-limited and CSRF-checked; a cookie is not even read.
 */
const CREDENTIAL_FREE_PATHS = new Set([
  '/api/auth/login', '/api/invitation/details',
  // Mailed links (issue 38): the person asking has no session, or it is not theirs to use.
  '/api/auth/options', '/api/auth/password/forgot', '/api/auth/password/reset', '/api/auth/signup', '/api/auth/signup/confirm', '/api/auth/email/confirm',
  // Single sign-on's way there and back (ADR 033).
  '/api/auth/oidc/providers', '/api/auth/oidc/start', '/api/auth/oidc/callback',
])

/**
 * The dashboard's session probe: answered without a credential too, and a cookie that signs
 * nobody in is forgotten rather than refused, so a first visit reads "not signed in" as a 200
 * instead of making the browser log a 401 (ADR 008 addendum).
 */
export const SESSION_PROBE_PATH = '/api/auth/session'

/**
 * Paths that take the session when there is a live one and go on without it otherwise (the
 * session probe; accepting an invitation); a dead cookie is forgotten, not refused.
 */
const SESSION_OPTIONAL_PATHS = new Set([SESSION_PROBE_PATH, '/api/invitation/accept'])

/**
 * What a session not fully signed in may do (ADR 025): one waiting for its code sends it (or
 * signs out); one whose workspace requires a second factor the person lacks sets one up.
 */
const ROUTES_OF_SIGN_IN_STEP: Readonly<Record<SignInStep, ReadonlySet<string>>> = {
  code: new Set([`GET ${SESSION_PROBE_PATH}`, 'POST /api/auth/logout', 'POST /api/auth/two-factor/verify']),
  enrol: new Set([
    `GET ${SESSION_PROBE_PATH}`, 'POST /api/auth/logout', 'GET /api/auth/two-factor', 'POST /api/auth/two-factor/setup', 'POST /api/auth/two-factor/enable',
    'GET /api/workspaces', 'PUT /api/workspace/:id/switch',
  ]),
}

// A browser attaches cookies to requests other sites make it send; these methods change nothing.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Requests per minute of a dashboard session: a person clicking through pages, not a script; the
 * plan's `apirate` still applies when it is higher. Counted apart from the account's API keys.
 */
export const SESSION_RATE_LIMIT = 120

/** The origin a browser says the request comes from: Origin, else Referer's origin. */
function originOf(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin
  // "null" (sandboxed frames, some redirects) is an origin too: one that never matches.
  if (typeof origin === 'string' && origin !== '') return origin
  const referer = request.headers.referer
  if (!referer) return undefined
  try {
    return new URL(referer).origin
  } catch {
    return undefined
  }
}

/** True for the API's paths (everything under /api), where answers are JSON envelopes; give it routePathOf(request). */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/api?')
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

/**
 * What the gate asks of the services that know credentials (app.ts hands them in): the gate stands on
 * the account they resolve to (modules/access), never on the modules that hold keys and sessions,
 * whose routes stand on http/.
 */
export interface ApiGateOptions {
  /** Resolves a raw API key (modules/api-keys); throws AuthenticationError when it is missing, unknown or expired. */
  keys: { authenticate(rawKey: string | undefined): Promise<AuthenticatedAccount> }
  /** Resolves a session cookie's token (modules/accounts); throws an AppError when the session is gone. */
  sessions: { authenticateSession(token: string): Promise<AuthenticatedAccount> }
  sessionCookie: SessionCookie
  /** PUBLIC_URL: the only origin a session's unsafe requests may come from. */
  publicUrl: string
  rateLimiter: RateLimiter
  defaultRateLimit: number
  /** How long a key's lookup may be reused (0: never); see Config.keyCacheMs. */
  keyCacheMs: number
  /** The key cache's clock in milliseconds (tests move a logical one); by default Date.now. */
  keyCacheClock?: () => number
  invalidation: InvalidationBus
}

/** What the gate tells about itself: how often its key cache answered (metrics). */
export interface ApiGate {
  keyCache: Readonly<CacheCounts>
}

export function installApiGate(app: FastifyInstance, options: ApiGateOptions): ApiGate {
  app.decorateRequest('account', null)
  const keyCache: CacheCounts = { hits: 0, misses: 0 }

  // Successful lookups only: unknown keys always reach the database (and the per-address limit).
  const knownKeys = createLruCache<string, AuthenticatedAccount>(10_000, options.keyCacheMs, options.keyCacheClock)
  options.invalidation.subscribe((topic) => {
    if (topic === ACCOUNT_TOPIC) knownKeys.clear()
  })

  async function authenticate(rawKey: string | undefined): Promise<AuthenticatedAccount> {
    if (options.keyCacheMs === 0 || !rawKey) return options.keys.authenticate(rawKey)
    const cached = knownKeys.get(rawKey)
    if (cached && (cached.keyExpires === null || cached.keyExpires > nowTimestamp())) {
      keyCache.hits += 1
      return cached
    }
    keyCache.misses += 1
    const account = await options.keys.authenticate(rawKey)
    knownKeys.set(rawKey, account)
    return account
  }

  const dashboardOrigin = new URL(options.publicUrl).origin

  /** The key's account, else the session's; a request with neither is refused unless it is signing in. */
  async function resolveCredential(request: FastifyRequest, reply: FastifyReply): Promise<AuthenticatedAccount | undefined> {
    // An Authorization header wins: it is what scripts send, and browsers never add it on their own.
    if (request.headers.authorization !== undefined) return authenticate(readApiKey(request.headers.authorization))
    const path = routePathOf(request)
    // Signing in needs no credential, and an old cookie must not stand in its way.
    if (CREDENTIAL_FREE_PATHS.has(path)) return undefined
    const sessionOptional = SESSION_OPTIONAL_PATHS.has(path)
    const token = options.sessionCookie.read(request)
    if (token === undefined) return sessionOptional ? undefined : authenticate(undefined)
    try {
      return await options.sessions.authenticateSession(token)
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      // The browser keeps sending a dead cookie until told otherwise.
      options.sessionCookie.clear(reply)
      if (sessionOptional) return undefined
      throw error
    }
  }

  /** Refuses a cookie-borne unsafe request that does not prove it comes from the dashboard (CSRF). */
  function checkSameOrigin(request: FastifyRequest): void {
    if (SAFE_METHODS.has(request.method)) return
    // Both: the origin shows where the page was; the custom header cannot be sent cross-site without CORS.
    if (originOf(request) !== dashboardOrigin || request.headers['x-linkwell-csrf'] !== '1') {
      throw ForbiddenError.crossSite(dashboardOrigin)
    }
  }

  /** Authenticates and counts one API request; throws the error to answer with. */
  async function admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let account: AuthenticatedAccount | undefined
    let authError: AppError | undefined
    try {
      account = await resolveCredential(request, reply)
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      authError = error
    }

    // Requests without a valid credential are limited per client address, so guessing keys is slow too.
    const planLimit = account?.apirate ?? options.defaultRateLimit
    const [bucket, limit] = !account
      ? [`ip:${request.ip}`, planLimit]
      : account.sessionId === undefined
        ? [`account:${account.id}`, planLimit]
        : [`session:${account.id}`, Math.max(planLimit, SESSION_RATE_LIMIT)]
    const decision = await options.rateLimiter.consume(bucket, limit)
    reply.header('x-ratelimit-limit', decision.limit)
    reply.header('x-ratelimit-remaining', decision.remaining)
    reply.header('x-ratelimit-reset', decision.resetAt)
    if (!decision.allowed) throw new RateLimitError(decision.retryAfter)

    if (authError) throw authError
    if (account?.isSuspended) throw new ForbiddenError()
    // A session half signed in does only what its next step needs.
    const step = account?.signInStep
    if (step && !ROUTES_OF_SIGN_IN_STEP[step].has(`${request.method} ${request.routeOptions.url}`)) {
      throw step === 'code' ? ForbiddenError.codeNeeded() : ForbiddenError.enrolmentNeeded()
    }
    // A key limited to some resources or to reads (unknown routes go on to their 404).
    const resource = resourceOfRoute(request.routeOptions.url)
    if (account && resource && !scopeAllows(account.keyScope, resource, isWriteMethod(request.method))) {
      throw new ForbiddenError(OUT_OF_SCOPE_MESSAGE)
    }
    // Signing in is checked too: another site must not sign a visitor in to an account of its choosing.
    if (account?.sessionId !== undefined || !account) checkSameOrigin(request)
    // The person's role in the account (a key's maker's, as of this request: http/api-roles.ts).
    const role = roleOfRoute(request.method, request.routeOptions.url)
    if (account && role && !roleAllows(account.role, role)) {
      throw new ForbiddenError(account.sessionId === undefined ? OUT_OF_SCOPE_MESSAGE : ROLE_REFUSED_MESSAGE)
    }
    // The lookup is shared by the key's requests; the address is this request's (the audit log's "from where").
    request.account = account ? { ...account, address: request.ip } : null
  }

  // Callback style with a synchronous way out: visitors' redirects pay nothing for the API gate.
  app.addHook('onRequest', (request, reply, done) => {
    // OPTIONS is a browser's preflight (answered by CORS, http/security-headers.ts), never an API
    // call: it carries no key and is not counted against anyone's limit.
    // The matched route decides, not the raw URL: `/%61pi/auth/login` is the sign-in route too.
    const path = routePathOf(request)
    if (!isApiPath(path) || isPublicApiPath(path) || request.method === 'OPTIONS') return done()
    admit(request, reply).then(() => done(), done)
  })
  return { keyCache }
}

/** Route-level guard for the administration endpoints. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!accountOf(request).isAdmin) throw new ForbiddenError()
}
