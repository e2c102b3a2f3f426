// Start: load config, open and migrate the database, bootstrap the first account, build the
// app, listen; on SIGTERM/SIGINT stop accepting, finish requests in flight, close, exit 0.
import { buildApp } from './app.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { migrateToLatest, openDatabase } from './db/database.js'
import { createAccountRepository } from './modules/accounts/account.repository.js'
import { createAccountService } from './modules/accounts/account.service.js'
import { createApiKeyRepository } from './modules/accounts/api-key.repository.js'
import { connectRedis } from './redis.js'

async function start(): Promise<void> {
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }

  const database = openDatabase(config.databaseUrl, { poolMax: config.databasePoolMax })
  await migrateToLatest(database)
  const redis = config.redisUrl ? connectRedis(config.redisUrl, config.redisPrefix) : undefined
  // ioredis reports every failed reconnect; the rate limiter logs the state change once instead.
  redis?.on('error', () => {})
  const app = await buildApp({ config, database, redis })

  const accounts = createAccountService(createAccountRepository(database.db), createApiKeyRepository(database.db))
  const bootstrap = await accounts.ensureBootstrapAccount(config.bootstrapApiKey)
  if (bootstrap) {
    app.log.warn(
      config.bootstrapApiKey
        ? { username: bootstrap.username }
        : { username: bootstrap.username, apiKey: bootstrap.apiKey },
      config.bootstrapApiKey
        ? 'first start: created admin account "admin" with the key from LINKWELL_BOOTSTRAP_API_KEY'
        : 'first start: created admin account "admin"; this API key is shown once, store it now',
    )
  }

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    try {
      await app.close()
      await database.close()
      redis?.disconnect()
      process.exit(0)
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown')
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  await app.listen({ host: config.host, port: config.port })
}

start().catch((error: unknown) => {
  process.stderr.write(`Linkwell failed to start: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
