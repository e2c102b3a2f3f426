// Start: load config, open and migrate the database, build the services and the app, bootstrap
// the first account, listen; on SIGTERM/SIGINT stop accepting, finish requests in flight, close,
// exit 0.
import { buildApp, frontDoorOf } from './app.js'
import { listenOnTheInternet } from './http/internet-listeners.js'
import { ConfigError, loadConfig, servedConfig, type Config } from './config.js'
import { migrateToLatest, openDatabase } from './db/database.js'
import { createLogger } from './logger.js'
import { generatePassword } from './core/secrets.js'
import { DASHBOARD_PATH } from './public/dashboard.js'
import { createServices } from './services.js'

async function start(): Promise<void> {
  let config: Config
  let analytics: ReturnType<typeof servedConfig>['analytics']
  try {
    // The served process's defaults (the DuckDB store beside a SQLite file, issue 40).
    ;({ config, analytics } = servedConfig(loadConfig()))
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }

  const log = createLogger(config)
  const database = openDatabase(config.databaseUrl, { poolMax: config.databasePoolMax })
  await migrateToLatest(database)
  // ioredis is loaded only when Redis is configured: ~20 MB of resident memory otherwise unused.
  const redis = config.redisUrl ? (await import('./redis/connection.js')).connectRedis(config.redisUrl, config.redisPrefix) : undefined
  // ioredis reports every failed reconnect; the rate limiter logs the state change once instead.
  redis?.on('error', () => {})
  const services = createServices({ config, database, redis, log })
  const engineNames = { raw: 'the raw clicks in the database', duckdb: 'the DuckDB columnar store', clickhouse: 'ClickHouse' }
  log.info({ engine: analytics.engine, reason: analytics.reason }, `statistics are answered by ${engineNames[analytics.engine]}: ${analytics.reason}`)
  const app = await buildApp({ services, logger: log })

  // Issue 38: "Forgot your password?" still answers strangers the same without a mail server, so the operator is told here.
  if (!config.smtpUrl) {
    log.warn('no mail server (SMTP_URL): forgotten-password links and invitations are not mailed, and e-mail changes from the dashboard are refused; `linkwell account password` resets a password')
  }

  // First start: the admin account, with a password to sign in to the dashboard and a key for the API.
  const password = config.bootstrapPassword ?? generatePassword()
  const bootstrap = await services.accounts.ensureBootstrapAccount(password, config.bootstrapApiKey)
  if (bootstrap) {
    const signIn = `${config.publicUrl}${DASHBOARD_PATH}`
    // Only what the operator did not choose is printed, once: it is not stored anywhere readable.
    log.warn(
      {
        signIn,
        username: bootstrap.username,
        ...(config.bootstrapPassword ? {} : { password }),
        ...(config.bootstrapApiKey ? {} : { apiKey: bootstrap.apiKey }),
      },
      `first start: created admin account "admin"; sign in at ${signIn} as "admin" with ` +
        `${config.bootstrapPassword ? 'LINKWELL_BOOTSTRAP_PASSWORD' : 'the "password" on this line'}; the API key is ` +
        `${config.bootstrapApiKey ? 'LINKWELL_BOOTSTRAP_API_KEY' : '"apiKey" on this line'}. Shown once: store them now`,
    )
  }

  let closing = false
  let closeInternet: (() => Promise<void>) | undefined
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    log.info({ signal }, 'shutting down')
    try {
      await closeInternet?.()
      await app.close()
      await database.close()
      redis?.disconnect()
      process.exit(0)
    } catch (error) {
      log.error({ err: error }, 'error during shutdown')
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  await app.listen({ host: config.host, port: config.port })

  // ACME_EMAIL: the server holds its own certificates and listens where browsers arrive (issue 43).
  if (config.acme) {
    await services.certificateStore.start()
    const { frontDoor, timeouts } = frontDoorOf(app)
    const internet = await listenOnTheInternet(frontDoor, {
      host: config.host,
      httpPort: config.httpPort,
      httpsPort: config.httpsPort,
      publicHostname: new URL(config.publicUrl).hostname.toLowerCase(),
      certificates: services.certificateStore,
      timeouts,
    })
    closeInternet = internet.close
    log.info({ httpPort: internet.httpPort, httpsPort: internet.httpsPort, acmeDirectory: config.acme.directoryUrl }, 'listening for the internet: certificates from the ACME server')
  }
}

start().catch((error: unknown) => {
  process.stderr.write(`Linkwell failed to start: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
