// The readiness check's Redis probe. Apart from connection.ts so that loading the health routes
// does not load ioredis (~100 ms of a cold start) on a server without Redis.
import type { Redis } from 'ioredis'

/** Resolves when Redis answers PING within a second; rejects otherwise. */
export async function pingRedis(redis: Redis): Promise<void> {
  await Promise.race([
    redis.ping(),
    new Promise((_, reject) => setTimeout(() => reject(new Error('Redis did not answer in time')), 1000).unref()),
  ])
}
