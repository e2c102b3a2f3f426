// Throttling of attempts at something a stranger could guess or flood: a link's password, a
// contact form, and later the dashboard's sign-in. Each attempt counts against the thing aimed at
// (the target) and against the client's address; past a few attempts in a window the key is
// blocked, each block of the day twice as long as the one before it. Counted by the throttle
// factory (http/throttle.ts) where the API's rate limits are, so every instance sees the same count.
import { createThrottleFactory, type ThrottleFactory } from './throttle.js'

/** How many attempts one key gets, and how its blocks grow. */
export interface ThrottlePolicy {
  /** Attempts allowed per window before the key is blocked. */
  attempts: number
  windowSeconds: number
  /** The first block; each further block within a day doubles, up to `maxBlockSeconds`. */
  firstBlockSeconds: number
  maxBlockSeconds: number
}

export interface AttemptThrottleOptions {
  /** Names the counters (`link-password`, `contact`); two throttles never share a counter. */
  name: string
  perTarget: ThrottlePolicy
  perClient: ThrottlePolicy
  /** Where the counters live; this process's memory when absent. */
  throttles?: ThrottleFactory
}

/** What an attempt is aimed at, and who makes it (the client's address as the proxy chain gives it). */
export interface AttemptKeys {
  target: string
  client: string
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export interface AttemptThrottle {
  /** Counts one attempt against the target and the client; refused while either is blocked. */
  attempt(keys: AttemptKeys): Promise<ThrottleVerdict>
  /** Gives back a successful attempt: a visitor who types the right password pays nothing for it. */
  succeeded(keys: AttemptKeys): Promise<void>
}

/** How long blocks keep growing: a key that behaves for a day starts again from the first block. */
const STRIKE_MEMORY_SECONDS = 24 * 60 * 60

/** Seconds of the `strike`-th block (1-based) under `policy`. */
export function blockSecondsOf(policy: ThrottlePolicy, strike: number): number {
  return Math.min(policy.firstBlockSeconds * 2 ** Math.min(strike - 1, 30), policy.maxBlockSeconds)
}

/** The counters of one kind of key (targets or clients). */
function keyThrottle(throttles: ThrottleFactory, prefix: string, policy: ThrottlePolicy) {
  const attempts = throttles.counter({ name: prefix, points: policy.attempts, windowSeconds: policy.windowSeconds })
  const strikes = throttles.counter({ name: `${prefix}:strikes`, points: Number.MAX_SAFE_INTEGER, windowSeconds: STRIKE_MEMORY_SECONDS })

  return {
    /** Seconds to wait, or 0 when the attempt may go ahead. */
    async attempt(key: string): Promise<number> {
      const state = await attempts.consume(key)
      if (state.allowed) return 0
      // Exactly one attempt is the first over the allowance (the count is atomic, concurrent
      // guesses included): that one places the block; later ones wait for it to end.
      if (state.consumed !== policy.attempts + 1) return Math.max(Math.ceil(state.msBeforeReset / 1000), 1)
      const strike = await strikes.penalty(key)
      const seconds = blockSecondsOf(policy, strike)
      await attempts.block(key, seconds)
      return seconds
    },
    async giveBack(key: string): Promise<void> {
      await attempts.reward(key)
    },
  }
}

export function createAttemptThrottle(options: AttemptThrottleOptions): AttemptThrottle {
  const throttles = options.throttles ?? createThrottleFactory()
  const targets = keyThrottle(throttles, `throttle:${options.name}:target`, options.perTarget)
  const clients = keyThrottle(throttles, `throttle:${options.name}:client`, options.perClient)
  return {
    async attempt({ target, client }) {
      // The client first: its refused attempts do not count against the target, so one address
      // hammering a link cannot lock everyone else out of it; a client spreading its guesses over
      // many targets is held back all the same.
      const clientWait = await clients.attempt(client)
      if (clientWait > 0) return { allowed: false, retryAfterSeconds: clientWait }
      const targetWait = await targets.attempt(target)
      return targetWait === 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: targetWait }
    },
    async succeeded({ target, client }) {
      await Promise.all([targets.giveBack(target), clients.giveBack(client)])
    },
  }
}
