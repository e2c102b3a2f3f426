// Per-account API rate limit (decisions §3): a fixed 60 s window, built on rate-limiter-flexible so
// that a shared store (Redis, PostgreSQL) replaces memory without touching routes.
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

/** One limiter per distinct limit value (plans may differ), created on first use. */
export function createRateLimiter(factory: LimiterFactory = memoryLimiterFactory, now: () => number = Date.now): RateLimiter {
  const limiters = new Map<number, RateLimiterAbstract>()

  function limiterFor(points: number): RateLimiterAbstract {
    let limiter = limiters.get(points)
    if (!limiter) {
      limiter = factory(points)
      limiters.set(points, limiter)
    }
    return limiter
  }

  function decide(limit: number, res: RateLimiterRes, allowed: boolean): RateLimitDecision {
    const msLeft = Math.max(res.msBeforeNext, 0)
    return {
      allowed,
      limit,
      remaining: Math.max(res.remainingPoints, 0),
      resetAt: Math.ceil((now() + msLeft) / 1000),
      retryAfter: Math.max(Math.ceil(msLeft / 1000), 1),
    }
  }

  return {
    async consume(key, limit) {
      try {
        return decide(limit, await limiterFor(limit).consume(key), true)
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decide(limit, rejection, false)
        throw rejection
      }
    },
  }
}
