// Tells every instance that a cached record changed. With Redis, a pub/sub message reaches all
// instances at once; without it (one SQLite instance, or PostgreSQL without Redis), changes are
// seen locally at once and elsewhere when the cache entry's short TTL runs out.
import type { Redis } from 'ioredis'

export type InvalidationListener = (topic: string, key: string) => void

export interface InvalidationBus {
  /** Announces that `key` of `topic` changed; local listeners are told synchronously. */
  publish(topic: string, key: string): void
  subscribe(listener: InvalidationListener): void
  /** How long a cache may keep an entry without hearing of a change. */
  readonly maxStaleMs: number
  close(): Promise<void>
}

const CHANNEL = 'invalidate'

/** A bus for one process only: with several instances, caches must expire within `maxStaleMs`. */
export function createLocalInvalidationBus(maxStaleMs: number): InvalidationBus {
  const listeners: InvalidationListener[] = []
  return {
    publish: (topic, key) => listeners.forEach((listener) => listener(topic, key)),
    subscribe: (listener) => void listeners.push(listener),
    maxStaleMs,
    close: async () => {},
  }
}

/**
 * A bus over Redis pub/sub. Messages published while Redis is away are lost, so entries still
 * expire after `maxStaleMs` (a bounded staleness, never an unbounded one).
 */
export function createRedisInvalidationBus(redis: Redis, maxStaleMs: number): InvalidationBus {
  const local = createLocalInvalidationBus(maxStaleMs)
  const subscriber = redis.duplicate()
  subscriber.on('error', () => {})
  const prefix = redis.options.keyPrefix ?? ''
  const channel = `${prefix}${CHANNEL}`
  void subscriber.subscribe(channel).catch(() => {})
  subscriber.on('message', (received: string, message: string) => {
    if (received !== channel) return
    const separator = message.indexOf('\n')
    if (separator > 0) local.publish(message.slice(0, separator), message.slice(separator + 1))
  })
  return {
    publish(topic, key) {
      local.publish(topic, key)
      // keyPrefix does not apply to pub/sub channels, so the channel carries it explicitly.
      redis.publish(channel, `${topic}\n${key}`).catch(() => {})
    },
    subscribe: local.subscribe,
    maxStaleMs,
    close: async () => {
      subscriber.disconnect()
    },
  }
}
