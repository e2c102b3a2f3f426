// The invalidation bus across instances: a Redis pub/sub message reaches every instance at once.
// Messages published while Redis is away are lost, so cached entries still expire after
// `maxStaleMs`: a bounded staleness, never an unbounded one.
import type { Redis } from 'ioredis'
import type { InvalidationBus, InvalidationListener } from '../core/invalidation.js'

const CHANNEL = 'invalidate'

export function createRedisInvalidationBus(redis: Redis, maxStaleMs: number): InvalidationBus {
  const listeners: InvalidationListener[] = []
  const tell = (topic: string, key: string) => listeners.forEach((listener) => listener(topic, key))
  // ioredis's own resubscription after a reconnection is off: its SUBSCRIBE has no handler, and one
  // in flight when the connection closes (a bus closed while reconnecting) would be an unhandled
  // rejection, which ends the process. This bus subscribes on every 'ready' itself, below.
  const subscriber = redis.duplicate({ autoResubscribe: false })
  subscriber.on('error', () => {})
  // keyPrefix does not apply to pub/sub channels, so the channel carries it explicitly.
  const channel = `${redis.options.keyPrefix ?? ''}${CHANNEL}`
  // Subscribed once connected, and again after every reconnection: the connection queues no
  // command while it is not ready (enableOfflineQueue: false, redis/connection.ts), so a subscribe
  // sent at once was refused and this instance never heard another's announcement.
  subscriber.on('ready', () => void subscriber.subscribe(channel).catch(() => {}))
  subscriber.on('message', (received: string, message: string) => {
    if (received !== channel) return
    const separator = message.indexOf('\n')
    if (separator > 0) tell(message.slice(0, separator), message.slice(separator + 1))
  })
  return {
    publish(topic, key) {
      // Local listeners at once; this instance's own message, echoed back, only repeats a drop.
      tell(topic, key)
      redis.publish(channel, `${topic}\n${key}`).catch(() => {})
    },
    subscribe: (listener) => void listeners.push(listener),
    maxStaleMs,
    close: async () => {
      subscriber.disconnect()
    },
  }
}
