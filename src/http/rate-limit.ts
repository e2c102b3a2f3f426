// Per-account API rate limit (decisions §3): a fixed 60 s window per key, counted by the throttle
// factory (http/throttle.ts) in the deployment's store; routes never know which.
import { createThrottleFactory, type Counter, type ThrottleFactory } from './throttle.js'

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

export interface RateLimiter {
  /** Counts one request for `key` against `limit` requests per window. */
  consume(key: string, limit: number): Promise<RateLimitDecision>
}

export interface RateLimiterOptions {
  /** Where the counters live; this process's memory when absent. */
  throttles?: ThrottleFactory
  now?: () => number
}

export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const now = options.now ?? Date.now
  const throttles = options.throttles ?? createThrottleFactory()
  // One counter per distinct limit value (plans may differ).
  const counters = new Map<number, Counter>()

  function counterOf(limit: number): Counter {
    let counter = counters.get(limit)
    if (!counter) {
      counter = throttles.counter({ name: `rl:${limit}`, points: limit, windowSeconds: WINDOW_SECONDS })
      counters.set(limit, counter)
    }
    return counter
  }

  return {
    async consume(key, limit) {
      const state = await counterOf(limit).consume(key)
      return {
        allowed: state.allowed,
        limit,
        remaining: Math.max(limit - state.consumed, 0),
        resetAt: Math.ceil((now() + state.msBeforeReset) / 1000),
        retryAfter: Math.max(Math.ceil(state.msBeforeReset / 1000), 1),
      }
    },
  }
}
