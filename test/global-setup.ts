// Checks the external services the suite was told to use, and says clearly what it skips.
import pg from 'pg'
import { Redis } from 'ioredis'

export default async function setup(): Promise<void> {
  const postgresUrl = process.env.TEST_DATABASE_URL
  const redisUrl = process.env.TEST_REDIS_URL
  if (postgresUrl) {
    const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5000 })
    try {
      await client.connect()
      await client.query('select 1')
    } catch (error) {
      throw new Error(`TEST_DATABASE_URL is set but PostgreSQL is unreachable (${(error as Error).message}); refusing to skip.`)
    } finally {
      await client.end().catch(() => {})
    }
  } else {
    process.stdout.write('\nSKIPPED: the PostgreSQL run of every database test (TEST_DATABASE_URL is not set).\n')
  }
  if (redisUrl) {
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5000, retryStrategy: () => null })
    try {
      await redis.connect()
      await redis.ping()
    } catch (error) {
      throw new Error(`TEST_REDIS_URL is set but Redis is unreachable (${(error as Error).message}); refusing to skip.`)
    } finally {
      redis.disconnect()
    }
  } else {
    process.stdout.write('SKIPPED: tests that need Redis (TEST_REDIS_URL is not set).\n\n')
  }
}
