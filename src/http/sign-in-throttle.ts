// Slows down password (and second-factor code, ADR 025) guessing on sign-in and password changes: at most 10 attempts per account
// and 50 per client address in 15 minutes; a right password gives its attempt back (and clears the
// account's count), so only wrong ones add up. Counted by the throttle factory (http/throttle.ts)
// where the API's rate limits are, so every instance sees the same count.
import { AppError, RateLimitError } from '../core/errors.js'
import { createThrottleFactory, type Counter, type ThrottleFactory } from './throttle.js'

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
  /** Where the counters live; this process's memory when absent. */
  throttles?: ThrottleFactory
  limits?: SignInLimits
}

/** The errors that mean "wrong password" or "wrong second-factor code" (core/errors.ts); they are what the throttle counts. */
function isWrongPassword(error: unknown): boolean {
  return error instanceof AppError && (error.code === 'invalid_credentials' || error.code === 'wrong_password' || error.code === 'wrong_code')
}

export function createSignInThrottle(options: SignInThrottleOptions = {}): SignInThrottle {
  const limits = options.limits ?? DEFAULT_SIGN_IN_LIMITS
  const throttles = options.throttles ?? createThrottleFactory()
  const bySubject = throttles.counter({ name: 'signin:subject', points: limits.perSubject, windowSeconds: SIGN_IN_WINDOW_SECONDS })
  const byAddress = throttles.counter({ name: 'signin:address', points: limits.perAddress, windowSeconds: SIGN_IN_WINDOW_SECONDS })

  async function consume(counter: Counter, key: string): Promise<void> {
    const state = await counter.consume(key)
    if (!state.allowed) throw RateLimitError.signIn(Math.max(Math.ceil(state.msBeforeReset / 1000), 1))
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
        if (!isWrongPassword(error)) await Promise.all([bySubject.reward(subject), byAddress.reward(address)])
        throw error
      }
      await Promise.all([bySubject.delete(subject), byAddress.reward(address)])
      return result
    },
  }
}
