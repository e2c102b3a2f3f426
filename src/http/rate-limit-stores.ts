// Where rate-limit counters live so that every instance sees the same count (decisions §3):
// Redis when configured, else PostgreSQL when that is the database, else this process's memory.
import type pg from 'pg'
import type { Redis } from 'ioredis'
import { RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible'
import { WINDOW_SECONDS, type LimiterFactory } from './rate-limit.js'

export function redisLimiterFactory(redis: Redis): LimiterFactory {
  return (points) =>
    new RateLimiterRedis({
      storeClient: redis,
      points,
      duration: WINDOW_SECONDS,
      // The connection adds the deployment's REDIS_PREFIX.
      keyPrefix: `rl:${points}`,
      // Fail at once while Redis is away instead of queueing; the caller falls back to memory.
      rejectIfRedisNotReady: true,
    })
}

export function postgresLimiterFactory(pool: pg.Pool, schema?: string): LimiterFactory {
  return (points) =>
    new RateLimiterPostgres({
      storeClient: pool,
      // Created by migration 002; one table for every limit value, keys carry the prefix.
      tableName: 'rate_limits',
      ...(schema ? { schemaName: schema } : {}),
      tableCreated: true,
      clearExpiredByTimeout: false,
      points,
      duration: WINDOW_SECONDS,
      keyPrefix: `api${points}`,
    })
}

/** The shared store for this deployment, or undefined for memory (one instance on SQLite). */
export function chooseLimiterStore(options: { redis?: Redis; pgPool?: pg.Pool; pgSchema?: string }): LimiterFactory | undefined {
  if (options.redis) return redisLimiterFactory(options.redis)
  if (options.pgPool) return postgresLimiterFactory(options.pgPool, options.pgSchema)
  return undefined
}
