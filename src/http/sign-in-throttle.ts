// Slows down password guessing on sign-in and password changes: at most 10 attempts per account
// and 50 per client address in 15 minutes; a right password gives its attempt back (and clears the
// account's count), so only wrong ones add up. Counters live where the API's rate limits do
// (Redis, else PostgreSQL, else memory: http/rate-limit-stores.ts), so every instance sees the same
// count; when the shared store fails, this instance counts in memory until it returns.
import type pg from 'pg'
import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import { AppError, RateLimitError } from '../core/errors.js'

export const SIGN_IN_WINDOW_SECONDS = 15 * 60

export interface SignInLimits {
  /** Attempts per account (or per unknown login) in the window. */
  perSubject: number
  /** Attempts per client address in the window, whatever accounts they try. */
  perAddress: number
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perSubject: 10, perAddress: 50 }

export interface SignInThrottle {
  /**
   * Runs `attempt` (a password check for `subject`, from `address`) unless too many attempts were
   * made: then RateLimitError (429 with Retry-After). An attempt failing with a wrong password
   * stays counted; any other outcome is given back.
   */
  guard<T>(subject: string, address: string, attempt: () => Promise<T>): Promise<T>
}

export interface SignInThrottleOptions {
  redis?: Redis
  pgPool?: pg.Pool
  pgSchema?: string
  limits?: SignInLimits
}

/** The errors that mean "wrong password" (core/errors.ts); they are what the throttle counts. */
function isWrongPassword(error: unknown): boolean {
  return error instanceof AppError && (error.code === 'invalid_credentials' || error.code === 'wrong_password')
}

function createLimiter(options: SignInThrottleOptions, name: string, points: number): RateLimiterAbstract {
  const common = { points, duration: SIGN_IN_WINDOW_SECONDS, keyPrefix: `signin:${name}` }
  // rate-limiter-flexible's own fallback: while the shared store fails, count in this process.
  const insuranceLimiter = new RateLimiterMemory(common)
  if (options.redis) {
    return new RateLimiterRedis({ ...common, storeClient: options.redis, rejectIfRedisNotReady: true, insuranceLimiter })
  }
  if (options.pgPool) {
    return new RateLimiterPostgres({
      ...common,
      storeClient: options.pgPool,
      // Migration 002's table, shared with the API's counters (keys carry their prefix).
      tableName: 'rate_limits',
      ...(options.pgSchema ? { schemaName: options.pgSchema } : {}),
      tableCreated: true,
      clearExpiredByTimeout: false,
      insuranceLimiter,
    })
  }
  return insuranceLimiter
}

export function createSignInThrottle(options: SignInThrottleOptions = {}): SignInThrottle {
  const limits = options.limits ?? DEFAULT_SIGN_IN_LIMITS
  const bySubject = createLimiter(options, 'subject', limits.perSubject)
  const byAddress = createLimiter(options, 'address', limits.perAddress)

  async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
    try {
      await limiter.consume(key)
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw RateLimitError.signIn(Math.max(Math.ceil(rejection.msBeforeNext / 1000), 1))
      throw rejection
    }
  }

  return {
    async guard(subject, address, attempt) {
      // Counted before the check, so parallel guesses cannot all slip in under the limit.
      await consume(byAddress, address)
      await consume(bySubject, subject)
      let result: Awaited<ReturnType<typeof attempt>>
      try {
        result = await attempt()
      } catch (error) {
        if (!isWrongPassword(error)) await Promise.all([bySubject.reward(subject, 1), byAddress.reward(address, 1)])
        throw error
      }
      await Promise.all([bySubject.delete(subject), byAddress.reward(address, 1)])
      return result
    },
  }
}
