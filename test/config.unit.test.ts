import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, servedConfig } from '../src/config.js'

/** The error loadConfig throws for `env`, or fails the test. */
function configErrorFor(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`)
}

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      host: '0.0.0.0',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: 'file:./data/linkwell.db',
      databasePoolMax: 10,
      redisUrl: undefined,
      redisPrefix: 'linkwell:',
      rateLimitPerMinute: 30,
      bootstrapApiKey: undefined,
      bootstrapPassword: undefined,
      sessionDays: 14,
      dashboardDir: path.resolve('./dist/web'),
      logLevel: 'info',
      uploadDir: path.resolve('./data/uploads'),
      serverIps: [],
      serverCname: undefined,
      trustedProxies: [],
      redirectStatus: 302,
      keyCacheMs: 1000,
      bodyLimit: 1_048_576,
      corsOrigins: [],
      clickRetentionDays: null,
      analyticsStore: null,
      clickhouse: null,
      analyticsSetting: 'unset',
      smtpUrl: undefined,
      smtpFrom: 'Linkwell <linkwell@localhost>',
      auditRetentionDays: 365,
      metrics: { enabled: true, token: null },
      secretsKey: null,
      listErrorFormat: 'string',
      webhookAllowPrivate: false,
      eventsUrl: undefined,
      linkCheck: { enabled: true, allowPrivate: false, intervalHours: 6, pollSeconds: 30 },
      workspaceCreation: { who: 'admins', limit: 3 },
      signup: { mode: 'closed', domains: [] },
      acme: null,
      httpPort: 80,
      httpsPort: 443,
      hsts: false,
      dnsServers: [],
      domainVerification: { allowHttp: true, pollSeconds: 30 },
      oidc: { provider: null, recheckSeconds: 3600, allowHttpLoopback: false },
      importMaxBytes: 20 * 1024 * 1024,
      importMaxRows: 100_000,
    })
  })

  it('reads every variable', () => {
    const key = 'k'.repeat(43)
    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: '8080',
      PUBLIC_URL: 'https://go.example.com/',
      DATABASE_URL: 'postgres://user:pass@db:5432/linkwell',
      DATABASE_POOL_MAX: '20',
      REDIS_URL: 'rediss://cache:6380',
      REDIS_PREFIX: 'lw-staging:',
      RATE_LIMIT_PER_MINUTE: '120',
      LINKWELL_BOOTSTRAP_API_KEY: key,
      LINKWELL_BOOTSTRAP_PASSWORD: 'first admin password',
      IMPORT_MAX_BYTES: String(5 * 1024 * 1024),
      IMPORT_MAX_ROWS: '2500',
      SESSION_DAYS: '30',
      DASHBOARD_DIR: '/srv/linkwell/web',
      LOG_LEVEL: 'warn',
      UPLOAD_DIR: '/srv/uploads',
      SERVER_IPS: '203.0.113.7, 2001:db8::1',
      SERVER_CNAME: 'Edge.Example.com.',
      BODY_LIMIT_BYTES: '4096',
      KEY_CACHE_MS: '250',
      REDIRECT_STATUS: '301',
      TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1, ::1',
      CLICK_RETENTION_DAYS: '400',
      ANALYTICS_STORE: '/srv/linkwell/analytics.duckdb',
      CORS_ORIGINS: 'https://app.example.com,http://localhost:5173',
      SMTP_URL: 'smtps://mailer:secret@mail.example.com:465',
      SMTP_FROM: 'Links <links@example.com>',
      LIST_ERROR_FORMAT: 'integer',
      AUDIT_RETENTION_DAYS: '30',
      METRICS: 'OFF',
      METRICS_TOKEN: 'a-metrics-token-of-enough-length',
      SECRETS_KEY: 'ab'.repeat(32),
      WEBHOOK_ALLOW_PRIVATE: '1',
      EVENTS_URL: 'nats://events.internal:4222',
      LINK_CHECK: 'off',
      LINK_CHECK_ALLOW_PRIVATE: '1',
      LINK_CHECK_INTERVAL_HOURS: '12',
      LINK_CHECK_POLL_SECONDS: '5',
      WORKSPACE_CREATION: 'Anyone',
      WORKSPACE_CREATION_LIMIT: '10',
      SIGNUP: 'Domains',
      SIGNUP_DOMAINS: 'Example.com, @team.example',
      ACME_EMAIL: 'ops@example.com',
      ACME_DIRECTORY_URL: 'https://acme-staging-v02.api.letsencrypt.org/directory',
      ACME_CHECK_SECONDS: '60',
      HTTP_PORT: '8080',
      HTTPS_PORT: '8443',
      HSTS: 'on',
      DNS_SERVERS: '127.0.0.1:8053, [::1]:53, 192.0.2.53',
      DOMAIN_VERIFICATION: 'txt',
      OIDC_ISSUER: 'https://idp.example.com/realms/team',
      OIDC_CLIENT_ID: 'linkwell',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_ALLOWED_DOMAINS: 'Example.com, @corp.example',
      OIDC_GROUP_CLAIM: 'roles',
      OIDC_LABEL: 'Team ID',
      OIDC_RECHECK: '15m',
      OIDC_ALLOW_HTTP: '1',
      DOMAIN_CHECK_POLL_SECONDS: '5',
    })
    expect(config).toEqual({
      host: '127.0.0.1',
      port: 8080,
      publicUrl: 'https://go.example.com',
      databaseUrl: 'postgres://user:pass@db:5432/linkwell',
      databasePoolMax: 20,
      redisUrl: 'rediss://cache:6380',
      redisPrefix: 'lw-staging:',
      rateLimitPerMinute: 120,
      bootstrapApiKey: key,
      bootstrapPassword: 'first admin password',
      sessionDays: 30,
      dashboardDir: '/srv/linkwell/web',
      logLevel: 'warn',
      uploadDir: '/srv/uploads',
      serverIps: ['203.0.113.7', '2001:db8::1'],
      serverCname: 'edge.example.com',
      trustedProxies: ['10.0.0.0/8', '127.0.0.1', '::1'],
      redirectStatus: 301,
      keyCacheMs: 250,
      bodyLimit: 4096,
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      clickRetentionDays: 400,
      analyticsStore: '/srv/linkwell/analytics.duckdb',
      clickhouse: null,
      analyticsSetting: 'set',
      smtpUrl: 'smtps://mailer:secret@mail.example.com:465',
      smtpFrom: 'Links <links@example.com>',
      auditRetentionDays: 30,
      metrics: { enabled: false, token: 'a-metrics-token-of-enough-length' },
      secretsKey: Buffer.from('ab'.repeat(32), 'hex'),
      listErrorFormat: 'integer',
      webhookAllowPrivate: true,
      eventsUrl: 'nats://events.internal:4222',
      linkCheck: { enabled: false, allowPrivate: true, intervalHours: 12, pollSeconds: 5 },
      workspaceCreation: { who: 'anyone', limit: 10 },
      signup: { mode: 'domains', domains: ['example.com', 'team.example'] },
      acme: { email: 'ops@example.com', directoryUrl: 'https://acme-staging-v02.api.letsencrypt.org/directory', checkSeconds: 60 },
      httpPort: 8080,
      httpsPort: 8443,
      hsts: true,
      dnsServers: ['127.0.0.1:8053', '[::1]:53', '192.0.2.53'],
      domainVerification: { allowHttp: false, pollSeconds: 5 },
      oidc: {
        provider: { issuer: 'https://idp.example.com/realms/team', clientId: 'linkwell', clientSecret: 'secret', groupClaim: 'roles', allowedDomains: ['example.com', 'corp.example'], label: 'Team ID' },
        recheckSeconds: 900,
        allowHttpLoopback: true,
      },
      importMaxBytes: 5 * 1024 * 1024,
      importMaxRows: 2500,
    })
  })

  it('defaults PUBLIC_URL to localhost on the configured port, and keeps a path without its trailing slash', () => {
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000')
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/links/' }).publicUrl).toBe('https://example.com/links')
  })

  it('reads ACME_DIRECTORY_URL only with ACME_EMAIL, and refuses one that is not https', () => {
    expect(loadConfig({ ACME_DIRECTORY_URL: 'not read' }).acme).toBeNull()
    expect(loadConfig({ ACME_EMAIL: 'ops@example.com' }).acme).toEqual({ email: 'ops@example.com', directoryUrl: 'https://acme-v02.api.letsencrypt.org/directory', checkSeconds: 300 })
    expect(() => loadConfig({ ACME_EMAIL: 'ops@example.com', ACME_DIRECTORY_URL: 'http://127.0.0.1:14000/dir' })).toThrow('ACME_DIRECTORY_URL must be an https address')
  })

  it('accepts file: URLs and both PostgreSQL spellings for DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'file:/tmp/x.db' }).databaseUrl).toBe('file:/tmp/x.db')
    expect(loadConfig({ DATABASE_URL: 'postgresql://h/db' }).databaseUrl).toBe('postgresql://h/db')
  })

  it('needs the client of OIDC_ISSUER, and a duration OIDC_RECHECK can read', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://idp.example.com' })).toThrow('OIDC_CLIENT_ID must be set with OIDC_ISSUER')
    expect(() => loadConfig({ OIDC_ISSUER: 'https://idp.example.com', OIDC_CLIENT_ID: 'x' })).toThrow('OIDC_CLIENT_SECRET must be set with OIDC_ISSUER')
    expect(() => loadConfig({ OIDC_ISSUER: 'ftp://idp.example.com', OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y' })).toThrow('OIDC_ISSUER')
    expect(() => loadConfig({ OIDC_RECHECK: 'an hour' })).toThrow('OIDC_RECHECK must be a duration')
    expect(() => loadConfig({ OIDC_RECHECK: '10s' })).toThrow('OIDC_RECHECK must be between 60')
    expect(loadConfig({ OIDC_RECHECK: '2h' }).oidc.recheckSeconds).toBe(7200)
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['PUBLIC_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['PUBLIC_URL', 'https://example.com/?q=1'],
    ['PUBLIC_URL', 'https://example.com/#top'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['DATABASE_URL', 'file:'],
    ['DATABASE_URL', './data/linkwell.db'],
    ['DATABASE_POOL_MAX', '0'],
    ['DATABASE_POOL_MAX', 'many'],
    ['REDIS_URL', 'localhost:6379'],
    ['SMTP_URL', 'mail.example.com:25'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['RATE_LIMIT_PER_MINUTE', '1e3'],
    ['LINKWELL_BOOTSTRAP_API_KEY', 'short'],
    ['LINKWELL_BOOTSTRAP_API_KEY', `${'k'.repeat(40)} spaces`],
    ['LINKWELL_BOOTSTRAP_API_KEY', 'k'.repeat(129)],
    ['LINKWELL_BOOTSTRAP_PASSWORD', 'short'],
    ['LINKWELL_BOOTSTRAP_PASSWORD', 'p'.repeat(257)],
    ['SESSION_DAYS', '0'],
    ['SESSION_DAYS', '366'],
    ['SESSION_DAYS', 'two weeks'],
    ['LOG_LEVEL', 'verbose'],
    ['KEY_CACHE_MS', '1001'],
    ['REDIRECT_STATUS', '307'],
    ['TRUSTED_PROXIES', '10.0.0.0/33'],
    ['ACME_EMAIL', 'not-an-address'],
    ['HTTP_PORT', '70000'],
    ['HTTPS_PORT', 'https'],
    ['HSTS', 'yes'],
    ['DNS_SERVERS', 'dns.example.com'],
    ['DNS_SERVERS', '127.0.0.1:99999'],
    ['DOMAIN_VERIFICATION', 'http'],
    ['DOMAIN_CHECK_POLL_SECONDS', '0'],
    ['TRUSTED_PROXIES', 'proxy.internal'],
    ['LOG_LEVEL', 'INFO'],
    ['SERVER_IPS', '203.0.113.7,example.com'],
    ['WEBHOOK_ALLOW_PRIVATE', 'yes'],
    ['LINK_CHECK', 'sometimes'],
    ['LINK_CHECK_ALLOW_PRIVATE', 'yes'],
    ['LINK_CHECK_INTERVAL_HOURS', '0'],
    ['LINK_CHECK_POLL_SECONDS', '0'],
    ['LINK_CHECK_POLL_SECONDS', '3601'],
    ['EVENTS_URL', 'http://events.internal:4222'],
    ['BODY_LIMIT_BYTES', '100'],
    ['BODY_LIMIT_BYTES', String(51 * 1_048_576)],
    ['CLICK_RETENTION_DAYS', '0'],
    ['AUDIT_RETENTION_DAYS', '0'],
    ['AUDIT_RETENTION_DAYS', '36501'],
    ['METRICS', 'yes'],
    ['METRICS_TOKEN', 'too-short'],
    ['SECRETS_KEY', 'not-a-key'],
    ['SECRETS_KEY', 'ab'.repeat(31)],
    ['SECRETS_KEY', Buffer.alloc(16).toString('base64')],
    ['LIST_ERROR_FORMAT', 'number'],
    ['LIST_ERROR_FORMAT', 'Integer'],
    ['CLICK_RETENTION_DAYS', 'forever'],
    ['WORKSPACE_CREATION', 'everyone'],
    ['WORKSPACE_CREATION_LIMIT', '0'],
    ['IMPORT_MAX_ROWS', '0'],
    ['IMPORT_MAX_ROWS', 'lots'],
  ])('names %s in the error for the bad value %j', (variable, value) => {
    const error = configErrorFor({ [variable]: value })
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} `))
  })

  it('reads SECRETS_KEY as 32 bytes in hex or base64, and none when unset', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef')
    expect(loadConfig({ PUBLIC_URL: 'https://lw.test', SECRETS_KEY: key.toString('hex') }).secretsKey).toEqual(key)
    expect(loadConfig({ PUBLIC_URL: 'https://lw.test', SECRETS_KEY: key.toString('base64') }).secretsKey).toEqual(key)
    expect(loadConfig({ PUBLIC_URL: 'https://lw.test' }).secretsKey).toBeNull()
    expect(configErrorFor({ SECRETS_KEY: 'zz'.repeat(32) }).message).not.toContain('zz'.repeat(32))
  })

  it('never echoes a refused bootstrap password into the message', () => {
    expect(configErrorFor({ LINKWELL_BOOTSTRAP_PASSWORD: 'hunter2' }).message).not.toContain('hunter2')
  })

  it('never echoes a refused bootstrap key into the message', () => {
    const badKey = `${'s'.repeat(40)}!secret`
    expect(configErrorFor({ LINKWELL_BOOTSTRAP_API_KEY: badKey }).message).not.toContain(badKey)
  })

  it('treats empty values as unset', () => {
    const config = loadConfig({ PORT: '', PUBLIC_URL: '', DATABASE_URL: '', REDIS_URL: '', LINKWELL_BOOTSTRAP_API_KEY: '', SERVER_IPS: ' ' })
    expect(config).toMatchObject({ port: 3000, publicUrl: 'http://localhost:3000', databaseUrl: 'file:./data/linkwell.db', redisUrl: undefined, bootstrapApiKey: undefined, serverIps: [] })
  })

  it('reads ANALYTICS_STORE as off, a DuckDB file or a ClickHouse URL, and refuses other URLs without echoing a password', () => {
    const base = { PUBLIC_URL: 'https://lw.test' }
    expect(loadConfig({ ...base, ANALYTICS_STORE: 'OFF' })).toMatchObject({ analyticsStore: null, clickhouse: null, analyticsSetting: 'off' })
    expect(loadConfig({ ...base, ANALYTICS_STORE: 'clickhouse://stats:p%40ss@ch.internal:8123/linkwell' })).toMatchObject({
      analyticsStore: null, analyticsSetting: 'set', clickhouse: { url: 'http://ch.internal:8123', database: 'linkwell', username: 'stats', password: 'p@ss' },
    })
    expect(loadConfig({ ...base, ANALYTICS_STORE: 'clickhouses://ch.internal:8443/lw' }).clickhouse).toEqual({ url: 'https://ch.internal:8443', database: 'lw', username: 'default', password: '' })
    for (const refused of ['clickhouse://ch.internal:8123/', 'clickhouse://ch.internal/linkwell', 'clickhouse://u:topsecret@ch:8123/bad-name', 'https://ch.internal:8123/linkwell']) {
      const error = configErrorFor({ ANALYTICS_STORE: refused })
      expect(error.message).toContain('ANALYTICS_STORE')
      expect(error.message).not.toContain('topsecret')
    }
  })

  it('the served process answers from the DuckDB store beside a SQLite file by default, and says why (issue 40)', () => {
    const served = (env: Record<string, string>) => servedConfig(loadConfig({ PUBLIC_URL: 'https://lw.test', ...env }))
    const embedded = served({ DATABASE_URL: 'file:/srv/lw/linkwell.db' })
    expect(embedded.config.analyticsStore).toBe('/srv/lw/analytics.duckdb')
    expect(embedded.analytics).toMatchObject({ engine: 'duckdb', reason: expect.stringContaining('ANALYTICS_STORE=off') })
    expect(served({}).config.analyticsStore).toBe(path.resolve('./data/analytics.duckdb'))
    expect(served({ DATABASE_URL: 'file:/srv/lw/linkwell.db', ANALYTICS_STORE: 'off' })).toMatchObject({ config: { analyticsStore: null }, analytics: { engine: 'raw', reason: 'ANALYTICS_STORE=off' } })
    expect(served({ DATABASE_URL: 'file::memory:' })).toMatchObject({ config: { analyticsStore: null }, analytics: { engine: 'raw' } })
    expect(served({ DATABASE_URL: 'postgres://u@db/lw' })).toMatchObject({ config: { analyticsStore: null }, analytics: { engine: 'raw', reason: expect.stringContaining('PostgreSQL') } })
    expect(served({ DATABASE_URL: 'postgres://u@db/lw', ANALYTICS_STORE: 'clickhouse://ch:8123/lw' }).analytics.engine).toBe('clickhouse')
    expect(served({ ANALYTICS_STORE: '/srv/other.duckdb' })).toMatchObject({ config: { analyticsStore: '/srv/other.duckdb' }, analytics: { engine: 'duckdb' } })
    // Apps built otherwise (tests, the CLI) keep what was read: no store.
    expect(loadConfig({ PUBLIC_URL: 'https://lw.test', DATABASE_URL: 'file:/srv/lw/linkwell.db' }).analyticsStore).toBeNull()
  })
})
