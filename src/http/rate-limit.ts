// Per-account API rate limit (decisions §3): a fixed 60 s window, built on rate-limiter-flexible.
// The store is chosen at start (memory, Redis or PostgreSQL: http/rate-limit-stores.ts); routes
// never know which. When a shared store fails, each instance limits on its own until it returns.
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'

export const WINDOW_SECONDS = 60

export interface RateLimitDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Unix time in seconds at which the window ends. */
  resetAt: number
  /** Seconds until the window ends, at least 1. */
  retryAfter: number
}

/** Builds the limiter for one limit value; stores differ only here. */
export type LimiterFactory = (points: number) => RateLimiterAbstract

export const memoryLimiterFactory: LimiterFactory = (points) =>
  new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: `api${points}` })

export interface RateLimiter {
  /** Counts one request for `key` against `limit` requests per window. */
  consume(key: string, limit: number): Promise<RateLimitDecision>
}

export interface RateLimiterOptions {
  /** The shared store; memory when absent. */
  store?: LimiterFactory
  /** Told once when the shared store fails and once when it answers again. */
  onStoreStateChange?: (state: 'failed' | 'recovered', error?: unknown) => void
  now?: () => number
}

/** A cache of one limiter per distinct limit value (plans may differ). */
function limiterCache(factory: LimiterFactory) {
  const limiters = new Map<number, RateLimiterAbstract>()
  return (points: number) => {
    let limiter = limiters.get(points)
    if (!limiter) {
      limiter = factory(points)
      limiters.set(points, limiter)
    }
    return limiter
  }
}

export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const now = options.now ?? Date.now
  const shared = options.store ? limiterCache(options.store) : undefined
  const local = limiterCache(memoryLimiterFactory)
  let storeFailing = false

  function decide(limit: number, res: RateLimiterRes, allowed: boolean): RateLimitDecision {
    const msLeft = Math.max(res.msBeforeNext, 0)
    return {
      allowed,
      limit,
      remaining: Math.max(limit - res.consumedPoints, 0),
      resetAt: Math.ceil((now() + msLeft) / 1000),
      retryAfter: Math.max(Math.ceil(msLeft / 1000), 1),
    }
  }

  async function consumeWith(limiter: RateLimiterAbstract, key: string, limit: number): Promise<RateLimitDecision> {
    try {
      return decide(limit, await limiter.consume(key), true)
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decide(limit, rejection, false)
      throw rejection
    }
  }

  return {
    async consume(key, limit) {
      if (!shared) return consumeWith(local(limit), key, limit)
      try {
        const decision = await consumeWith(shared(limit), key, limit)
        if (storeFailing) {
          storeFailing = false
          options.onStoreStateChange?.('recovered')
        }
        return decision
      } catch (error) {
        if (!storeFailing) {
          storeFailing = true
          options.onStoreStateChange?.('failed', error)
        }
        return consumeWith(local(limit), key, limit)
      }
    },
  }
}
