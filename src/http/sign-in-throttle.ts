// Slows down password and second-factor code guessing (ADR 025, 027): at most 10 wrong passwords
// and 10 wrong codes per person, 50 attempts per client address in 15 minutes; a right password
// gives its attempt back (and clears the person's count of wrong passwords), so only wrong ones
// add up. Wrong codes are counted apart: a right password must not clear them, or whoever knows
// the password guesses codes without end. A session waiting for its code ends after a few wrong
// ones. Counted by the throttle factory (http/throttle.ts) where the API's rate limits are, so
// every instance sees the same count.
import { AppError, AuthenticationError, RateLimitError } from '../core/errors.js'
import { createThrottleFactory, type Counter, type ThrottleFactory } from './throttle.js'

export const SIGN_IN_WINDOW_SECONDS = 15 * 60

export interface SignInLimits {
  /** Attempts per account (or per unknown login) in the window. */
  perSubject: number
  /** Attempts per client address in the window, whatever accounts they try. */
  perAddress: number
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perSubject: 10, perAddress: 50 }

/**
 * Mails a stranger may make us send (password resets, sign-up confirmations: issue 38): per
 * recipient (a person however named, or the address asked for) and per client address, in the
 * same window. Each request counts, answered or not: what it costs is a mail, not a guess.
 */
export const DEFAULT_MAIL_LIMITS: SignInLimits = { perSubject: 5, perAddress: 20 }

/**
 * Wrong codes one session waiting for its code may send before it ends (ADR 027): the person
 * signs in again, with the password, whose own count then applies too.
 */
export const WRONG_CODES_PER_WAITING_SESSION = 5

/** A code check's session when it is the half-signed-in one (ADR 025), and how to end it. */
export interface WaitingSession {
  id: string
  end(): Promise<void>
}

export interface SignInThrottle {
  /**
   * Runs `attempt` (a password check for `subject`, from `address`) unless too many attempts were
   * made: then RateLimitError (429 with Retry-After). An attempt failing with a wrong password
   * stays counted; any other outcome is given back.
   */
  guard<T>(subject: string, address: string, attempt: () => Promise<T>): Promise<T>
  /**
   * The same for a second-factor code of `subject` (a person): wrong codes have their own count,
   * which only a right code clears. With `waiting` (the session waiting for the code), its
   * WRONG_CODES_PER_WAITING_SESSION-th wrong code ends it: AuthenticationError (401).
   */
  guardCode<T>(subject: string, address: string, attempt: () => Promise<T>, waiting?: WaitingSession): Promise<T>
  /**
   * Runs `attempt` (a request that mails `subject`, from `address`) unless too many were made
   * (DEFAULT_MAIL_LIMITS): then RateLimitError (429 with Retry-After). Every request stays counted.
   */
  guardMail<T>(subject: string, address: string, attempt: () => Promise<T>): Promise<T>
}

export interface SignInThrottleOptions {
  /** Where the counters live; this process's memory when absent. */
  throttles?: ThrottleFactory
  limits?: SignInLimits
  /** Mails asked for per recipient and per client address (DEFAULT_MAIL_LIMITS). */
  mailLimits?: SignInLimits
}

/** The errors that mean "wrong password" (core/errors.ts); they are what `guard` counts. */
function isWrongPassword(error: unknown): boolean {
  return error instanceof AppError && (error.code === 'invalid_credentials' || error.code === 'wrong_password')
}

/** A wrong or used second-factor code: what `guardCode` counts. */
function isWrongCode(error: unknown): boolean {
  return error instanceof AppError && error.code === 'wrong_code'
}

export function createSignInThrottle(options: SignInThrottleOptions = {}): SignInThrottle {
  const limits = options.limits ?? DEFAULT_SIGN_IN_LIMITS
  const throttles = options.throttles ?? createThrottleFactory()
  const bySubject = throttles.counter({ name: 'signin:subject', points: limits.perSubject, windowSeconds: SIGN_IN_WINDOW_SECONDS })
  const byAddress = throttles.counter({ name: 'signin:address', points: limits.perAddress, windowSeconds: SIGN_IN_WINDOW_SECONDS })
  const codesBySubject = throttles.counter({ name: 'signin:code-subject', points: limits.perSubject, windowSeconds: SIGN_IN_WINDOW_SECONDS })
  // A waiting session lives 10 minutes (AWAITING_CODE_MINUTES); the window outlasts it.
  const codesBySession = throttles.counter({ name: 'signin:code-session', points: Number.MAX_SAFE_INTEGER, windowSeconds: SIGN_IN_WINDOW_SECONDS })
  const mailLimits = options.mailLimits ?? DEFAULT_MAIL_LIMITS
  const mailsBySubject = throttles.counter({ name: 'mail:subject', points: mailLimits.perSubject, windowSeconds: SIGN_IN_WINDOW_SECONDS })
  const mailsByAddress = throttles.counter({ name: 'mail:address', points: mailLimits.perAddress, windowSeconds: SIGN_IN_WINDOW_SECONDS })

  async function consume(counter: Counter, key: string): Promise<void> {
    const state = await counter.consume(key)
    if (!state.allowed) throw RateLimitError.signIn(Math.max(Math.ceil(state.msBeforeReset / 1000), 1))
  }

  /**
   * Runs `attempt` counted against `address` and, on `perSubject`, `subject`: a wrong one (`isWrong`)
   * stays counted and `onWrong` runs (it may throw in the wrong one's place); a right one clears
   * the subject's count; any other outcome is given back.
   */
  async function counted<T>(perSubject: Counter, isWrong: (error: unknown) => boolean, subject: string, address: string, attempt: () => Promise<T>, onWrong?: () => Promise<void>): Promise<T> {
    // Counted before the check, so parallel guesses cannot all slip in under the limit.
    await consume(byAddress, address)
    await consume(perSubject, subject)
    let result: T
    try {
      result = await attempt()
    } catch (error) {
      if (!isWrong(error)) await Promise.all([perSubject.reward(subject), byAddress.reward(address)])
      else await onWrong?.()
      throw error
    }
    await Promise.all([perSubject.delete(subject), byAddress.reward(address)])
    return result
  }

  async function consumeMail(counter: Counter, key: string): Promise<void> {
    const state = await counter.consume(key)
    if (!state.allowed) throw RateLimitError.mail(Math.max(Math.ceil(state.msBeforeReset / 1000), 1))
  }

  return {
    async guardMail(subject, address, attempt) {
      await consumeMail(mailsByAddress, address)
      await consumeMail(mailsBySubject, subject)
      return attempt()
    },

    guard: (subject, address, attempt) => counted(bySubject, isWrongPassword, subject, address, attempt),

    async guardCode(subject, address, attempt, waiting) {
      const endWaitingAfterTooMany = waiting && (async () => {
        if ((await codesBySession.penalty(waiting.id)) < WRONG_CODES_PER_WAITING_SESSION) return
        await waiting.end()
        await codesBySession.delete(waiting.id)
        throw AuthenticationError.tooManyWrongCodes()
      })
      const result = await counted(codesBySubject, isWrongCode, subject, address, attempt, endWaitingAfterTooMany)
      // The second factor proved: the waiting session's wrong guesses are forgotten (it is gone).
      if (waiting) await codesBySession.delete(waiting.id)
      return result
    },
  }
}
