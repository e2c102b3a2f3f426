// Shared counters for instances on PostgreSQL without Redis (core/shared-counters.ts): one row per
// key in migration 002's `rate_limits` table (unlogged since 009), which rate-limiter-flexible's
// PostgreSQL store reads and writes with one atomic upsert per count. Here because it needs the
// pool, which nothing outside db/ sees.
import type pg from 'pg'
import { RateLimiterPostgres } from 'rate-limiter-flexible'
import type { SharedCounterStore } from '../core/shared-counters.js'

export function createPostgresCounterStore(pool: pg.Pool, schema?: string): SharedCounterStore {
  return {
    kind: 'postgres',
    limiter: ({ keyPrefix, points, durationSeconds }) =>
      new RateLimiterPostgres({
        storeClient: pool,
        // One table for every counter; keys carry their counter's prefix.
        tableName: 'rate_limits',
        ...(schema ? { schemaName: schema } : {}),
        tableCreated: true,
        clearExpiredByTimeout: false,
        points,
        duration: durationSeconds,
        keyPrefix,
      }),
  }
}
