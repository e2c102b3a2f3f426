// The Redis connection shared by rate limiting and cache invalidation (a duplicate subscribes to
// its channel). It reconnects forever in the background; commands fail fast while it is away
// instead of piling up.
import { Redis } from 'ioredis'

export function connectRedis(url: string, keyPrefix = 'linkwell:'): Redis {
  return new Redis(url, {
    keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  })
}
