// Checks the external services the suite was told to use, and says clearly what it skips.
import mysql from 'mysql2/promise'
import pg from 'pg'
import { Redis } from 'ioredis'
import { connect } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'
import { ensurePostgresTemplate } from './helpers/postgres-template.js'
import { clickhouseBinary, startClickhouseServer, type ClickhouseServer } from './helpers/clickhouse-server.js'

export default async function setup(): Promise<(() => Promise<void>) | void> {
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
    // Every test file's database is a copy of one migrated template (test/helpers/postgres-template.ts).
    await ensurePostgresTemplate(postgresUrl)
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
  const natsUrl = process.env.TEST_NATS_URL
  if (natsUrl) {
    try {
      const connection = await connect({ servers: natsUrl, timeout: 5000, reconnect: false })
      try {
        // JetStream, not just NATS: the event stream publishes to a stream.
        await (await jetstreamManager(connection)).getAccountInfo()
      } finally {
        await connection.close()
      }
    } catch (error) {
      throw new Error(`TEST_NATS_URL is set but NATS with JetStream is unreachable (${(error as Error).message}); refusing to skip.`)
    }
  } else {
    process.stdout.write('SKIPPED: the event stream tests (TEST_NATS_URL is not set).\n\n')
  }
  const mysqlUrl = process.env.TEST_MYSQL_URL
  if (mysqlUrl) {
    try {
      const connection = await mysql.createConnection({ uri: mysqlUrl, connectTimeout: 5000 })
      await connection.end()
    } catch (error) {
      throw new Error(`TEST_MYSQL_URL is set but MySQL/MariaDB is unreachable (${(error as Error).message}); refusing to skip.`)
    }
  } else {
    process.stdout.write('SKIPPED: the YOURLS import tests (TEST_MYSQL_URL is not set).\n\n')
  }
  return setupClickhouse(Boolean(postgresUrl))
}

/**
 * ClickHouse's tests (the statistics engine, issue 40) run against a server: TEST_CLICKHOUSE_URL
 * (`clickhouse://host:port/`), or one started here for the run when clickhouse-server is installed
 * (test/helpers/clickhouse-server.ts; ~0.3 s), stopped at the end. They are required (the run fails,
 * not skips) when the binary is installed or the suite runs with CI's services (TEST_DATABASE_URL).
 */
async function setupClickhouse(ci: boolean): Promise<(() => Promise<void>) | void> {
  const given = process.env.TEST_CLICKHOUSE_URL
  if (given) {
    const http = given.replace(/^clickhouse:/, 'http:').replace(/\/[^/]*$/, '/')
    const answer = await fetch(`${http}?query=SELECT%201`, { signal: AbortSignal.timeout(5_000) }).then((response) => response.text(), (error: Error) => error.message)
    if (answer.trim() !== '1') throw new Error(`TEST_CLICKHOUSE_URL is set but ClickHouse does not answer (${answer.slice(0, 200)}); refusing to skip.`)
    return
  }
  if (!clickhouseBinary()) {
    if (ci) throw new Error('clickhouse-server is not installed (.ci/run installs Debian\'s package) and TEST_CLICKHOUSE_URL is not set: the ClickHouse statistics tests cannot run; refusing to skip.')
    process.stdout.write('SKIPPED: the ClickHouse statistics engine tests (clickhouse-server is not installed, TEST_CLICKHOUSE_URL is not set).\n\n')
    return
  }
  let server: ClickhouseServer
  try {
    server = await startClickhouseServer()
  } catch (error) {
    throw new Error(`clickhouse-server is installed but did not start (${(error as Error).message}); refusing to skip.`)
  }
  // Workers are started after this: they inherit the variable.
  process.env.TEST_CLICKHOUSE_URL = server.url
  return () => server.stop()
}
