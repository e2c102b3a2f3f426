// The one way Linkwell counts what it limits: the API's rate limit (http/rate-limit.ts), wrong
// passwords at sign-in (http/sign-in-throttle.ts), and visitors' link passwords and contact
// messages (http/attempt-throttle.ts). Every counter of a deployment lives in one store, chosen
// here: Redis when configured, else PostgreSQL when that is the database, else this process's
// memory. While the shared store fails, each instance counts in its own memory (a weaker limit,
// never none), says so once, and goes back to the shared counts as soon as the store answers.
import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import type { SharedCounterStore } from '../core/shared-counters.js'
import { createRedisCounterStore } from '../redis/shared-counter-store.js'

/** How many points a key may use per window. */
export interface CounterPolicy {
  /** Names the counter's keys in the store (`rl:30`, `signin:subject`); two counters never share a name. */
  name: string
  points: number
  windowSeconds: number
}

/** A key's count after an attempt. */
export interface CounterState {
  /** False once the key used more than the policy's points in its window, or while it is blocked. */
  allowed: boolean
  /** Points used in the current window, this attempt included. */
  consumed: number
  /** Milliseconds until the window (or the block) ends. */
  msBeforeReset: number
}

/** Fixed-window counters of one policy, one per key. */
export interface Counter {
  /** Counts one point for `key`, refused or not (refused attempts count too). */
  consume(key: string): Promise<CounterState>
  /** Gives one point back. */
  reward(key: string): Promise<void>
  /** Adds one point that is never refused; resolves with the points used in the window. */
  penalty(key: string): Promise<number>
  /** Refuses `key` for `seconds` from now. */
  block(key: string, seconds: number): Promise<void>
  /** Forgets `key`'s count. */
  delete(key: string): Promise<void>
}

export interface ThrottleFactory {
  /** The counters of `policy`, in the factory's store. */
  counter(policy: CounterPolicy): Counter
}

export type StoreState = 'failed' | 'recovered'

export interface ThrottleFactoryOptions {
  /** The store every instance shares (chooseCounterStore); memory when absent. */
  store?: SharedCounterStore
  /** Told once when the shared store fails and once when it answers again, whichever counter noticed. */
  onStoreStateChange?: (state: StoreState, error?: unknown) => void
}

/** Where the deployment's counters live: Redis when configured, else the database's own store (PostgreSQL), else none (memory). */
export function chooseCounterStore(deployment: { redis?: Redis; database?: { sharedCounters?: SharedCounterStore } }): SharedCounterStore | undefined {
  if (deployment.redis) return createRedisCounterStore(deployment.redis)
  return deployment.database?.sharedCounters
}

/**
 * Keys longer than this are counted by their digest: a store's keys have a width (PostgreSQL's
 * column holds 255 characters, counter name included), and an unknown login may be 254 long.
 */
const MAX_KEY_LENGTH = 128

function storedKeyOf(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('base64url')}`
}

function stateOf(result: RateLimiterRes, allowed: boolean): CounterState {
  return { allowed, consumed: result.consumedPoints, msBeforeReset: Math.max(result.msBeforeNext, 0) }
}

export function createThrottleFactory(options: ThrottleFactoryOptions = {}): ThrottleFactory {
  const { store, onStoreStateChange } = options
  let storeFailing = false

  function storeAnswered(): void {
    if (!storeFailing) return
    storeFailing = false
    onStoreStateChange?.('recovered')
  }

  function storeFailed(error: unknown): void {
    if (storeFailing) return
    storeFailing = true
    onStoreStateChange?.('failed', error)
  }

  /**
   * Runs `operation` on the shared limiter, or on the local one when there is no shared store or
   * it fails. Every call tries the shared store first: the first one that succeeds ends the fallback.
   */
  async function run<T>(shared: RateLimiterAbstract | undefined, local: RateLimiterAbstract, operation: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    if (!shared) return operation(local)
    try {
      const result = await operation(shared)
      storeAnswered()
      return result
    } catch (error) {
      // A refusal is the store's answer, not its failure.
      if (error instanceof RateLimiterRes) {
        storeAnswered()
        throw error
      }
      storeFailed(error)
      return operation(local)
    }
  }

  return {
    counter(policy) {
      const local = new RateLimiterMemory({ keyPrefix: policy.name, points: policy.points, duration: policy.windowSeconds })
      const shared = store?.limiter({ keyPrefix: policy.name, points: policy.points, durationSeconds: policy.windowSeconds })
      const on = <T>(operation: (limiter: RateLimiterAbstract) => Promise<T>) => run(shared, local, operation)
      return {
        async consume(key) {
          try {
            return stateOf(await on((limiter) => limiter.consume(storedKeyOf(key))), true)
          } catch (rejection) {
            if (rejection instanceof RateLimiterRes) return stateOf(rejection, false)
            throw rejection
          }
        },
        async reward(key) {
          await on((limiter) => limiter.reward(storedKeyOf(key), 1))
        },
        async penalty(key) {
          return (await on((limiter) => limiter.penalty(storedKeyOf(key), 1))).consumedPoints
        },
        async block(key, seconds) {
          await on((limiter) => limiter.block(storedKeyOf(key), seconds))
        },
        async delete(key) {
          await on((limiter) => limiter.delete(storedKeyOf(key)))
        },
      }
    },
  }
}
