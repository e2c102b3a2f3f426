// Shared counters in Redis (core/shared-counters.ts): rate-limiter-flexible's Redis store, one
// key per counted key, expiring with its window. The connection adds the deployment's REDIS_PREFIX.
import type { Redis } from 'ioredis'
import { RateLimiterRedis } from 'rate-limiter-flexible'
import type { SharedCounterStore } from '../core/shared-counters.js'

export function createRedisCounterStore(redis: Redis): SharedCounterStore {
  return {
    kind: 'redis',
    limiter: ({ keyPrefix, points, durationSeconds }) =>
      // Fail at once while Redis is away instead of queueing; the caller counts in memory meanwhile.
      new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: durationSeconds, rejectIfRedisNotReady: true }),
  }
}
